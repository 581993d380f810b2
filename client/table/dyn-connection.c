/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-connection"

#include "config.h"

#include <errno.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dyn-connection.h"
#include "dyn-error.h"
#include "dyn-keyring.h"
#include "dyn-signin.h"

#define PROFILE_ID_PREFIX "profile:"

#define KEY_KIND          "kind"
#define KEY_NAME          "name"
#define KEY_PROFILE       "profile"
#define KEY_REGION        "region"
#define KEY_ENDPOINT_URL  "endpoint-url"
#define KEY_ACCESS_KEY_ID "access-key-id"
#define KEY_READ_ONLY     "read-only"
#define KEY_LAST_TABLE    "last-table"
#define KEY_SSO_START_URL  "sso-start-url"
#define KEY_SSO_REGION     "sso-region"
#define KEY_SSO_SESSION    "sso-session"
#define KEY_SSO_ACCOUNT_ID "sso-account-id"
#define KEY_SSO_ROLE_NAME  "sso-role-name"
#define KEY_PRODUCTION     "production"

/* DynConnection ---------------------------------------------------------------- */

struct _DynConnection
{
  GObject            parent_instance;

  char              *id;
  DynConnectionKind  kind;
  char              *name;
  char              *profile_name;
  char              *region;
  char              *endpoint_url;
  char              *access_key_id;
  char              *last_table;
  char              *sso_start_url;
  char              *sso_region;
  char              *sso_session;
  char              *sso_account_id;
  char              *sso_role_name;
  gboolean           read_only;
  DynProductionMode  production_mode;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_KIND,
  PROP_NAME,
  PROP_PROFILE_NAME,
  PROP_REGION,
  PROP_ENDPOINT_URL,
  PROP_ACCESS_KEY_ID,
  PROP_READ_ONLY,
  PROP_LAST_TABLE,
  PROP_SSO_START_URL,
  PROP_SSO_REGION,
  PROP_SSO_SESSION,
  PROP_SSO_ACCOUNT_ID,
  PROP_SSO_ROLE_NAME,
  PROP_PRODUCTION_MODE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynConnection, dyn_connection, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

GType
dyn_connection_kind_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { DYN_CONNECTION_KIND_PROFILE, "DYN_CONNECTION_KIND_PROFILE", "profile" },
        { DYN_CONNECTION_KIND_USER, "DYN_CONNECTION_KIND_USER", "user" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("DynConnectionKind"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

GType
dyn_production_mode_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { DYN_PRODUCTION_MODE_AUTO, "DYN_PRODUCTION_MODE_AUTO", "auto" },
        { DYN_PRODUCTION_MODE_ON, "DYN_PRODUCTION_MODE_ON", "on" },
        { DYN_PRODUCTION_MODE_OFF, "DYN_PRODUCTION_MODE_OFF", "off" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("DynProductionMode"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/* Empty strings are stored as NULL: an empty region or endpoint means "none". */
static gboolean
set_string (char       **field,
            const char  *value)
{
  if (value != NULL && *value == '\0')
    value = NULL;
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static void
dyn_connection_finalize (GObject *object)
{
  DynConnection *self = DYN_CONNECTION (object);

  g_free (self->id);
  g_free (self->name);
  g_free (self->profile_name);
  g_free (self->region);
  g_free (self->endpoint_url);
  g_free (self->access_key_id);
  g_free (self->last_table);
  g_free (self->sso_start_url);
  g_free (self->sso_region);
  g_free (self->sso_session);
  g_free (self->sso_account_id);
  g_free (self->sso_role_name);

  G_OBJECT_CLASS (dyn_connection_parent_class)->finalize (object);
}

static void
dyn_connection_constructed (GObject *object)
{
  DynConnection *self = DYN_CONNECTION (object);

  G_OBJECT_CLASS (dyn_connection_parent_class)->constructed (object);

  if (self->id == NULL)
    self->id = g_uuid_string_random ();
}

static void
dyn_connection_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DynConnection *self = DYN_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PROFILE_NAME:
      g_value_set_string (value, self->profile_name);
      break;
    case PROP_REGION:
      g_value_set_string (value, self->region);
      break;
    case PROP_ENDPOINT_URL:
      g_value_set_string (value, self->endpoint_url);
      break;
    case PROP_ACCESS_KEY_ID:
      g_value_set_string (value, self->access_key_id);
      break;
    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;
    case PROP_LAST_TABLE:
      g_value_set_string (value, self->last_table);
      break;
    case PROP_SSO_START_URL:
      g_value_set_string (value, self->sso_start_url);
      break;
    case PROP_SSO_REGION:
      g_value_set_string (value, self->sso_region);
      break;
    case PROP_SSO_SESSION:
      g_value_set_string (value, self->sso_session);
      break;
    case PROP_SSO_ACCOUNT_ID:
      g_value_set_string (value, self->sso_account_id);
      break;
    case PROP_SSO_ROLE_NAME:
      g_value_set_string (value, self->sso_role_name);
      break;
    case PROP_PRODUCTION_MODE:
      g_value_set_enum (value, self->production_mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_connection_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  DynConnection *self = DYN_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      if (self->id != NULL && *self->id == '\0')
        g_clear_pointer (&self->id, g_free);
      break;
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      break;
    case PROP_NAME:
      dyn_connection_set_name (self, g_value_get_string (value));
      break;
    case PROP_PROFILE_NAME:
      dyn_connection_set_profile_name (self, g_value_get_string (value));
      break;
    case PROP_REGION:
      dyn_connection_set_region (self, g_value_get_string (value));
      break;
    case PROP_ENDPOINT_URL:
      dyn_connection_set_endpoint_url (self, g_value_get_string (value));
      break;
    case PROP_ACCESS_KEY_ID:
      dyn_connection_set_access_key_id (self, g_value_get_string (value));
      break;
    case PROP_READ_ONLY:
      dyn_connection_set_read_only (self, g_value_get_boolean (value));
      break;
    case PROP_LAST_TABLE:
      dyn_connection_set_last_table (self, g_value_get_string (value));
      break;
    case PROP_SSO_START_URL:
      dyn_connection_set_sso_start_url (self, g_value_get_string (value));
      break;
    case PROP_SSO_REGION:
      dyn_connection_set_sso_region (self, g_value_get_string (value));
      break;
    case PROP_SSO_SESSION:
      dyn_connection_set_sso_session (self, g_value_get_string (value));
      break;
    case PROP_SSO_ACCOUNT_ID:
      dyn_connection_set_sso_account_id (self, g_value_get_string (value));
      break;
    case PROP_SSO_ROLE_NAME:
      dyn_connection_set_sso_role_name (self, g_value_get_string (value));
      break;
    case PROP_PRODUCTION_MODE:
      dyn_connection_set_production_mode (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_connection_class_init (DynConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = dyn_connection_finalize;
  object_class->constructed = dyn_connection_constructed;
  object_class->get_property = dyn_connection_get_property;
  object_class->set_property = dyn_connection_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, DYN_TYPE_CONNECTION_KIND, DYN_CONNECTION_KIND_USER,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_PROFILE_NAME] = g_param_spec_string ("profile-name", NULL, NULL, NULL, flags);
  properties[PROP_REGION] = g_param_spec_string ("region", NULL, NULL, NULL, flags);
  properties[PROP_ENDPOINT_URL] = g_param_spec_string ("endpoint-url", NULL, NULL, NULL, flags);
  properties[PROP_ACCESS_KEY_ID] = g_param_spec_string ("access-key-id", NULL, NULL, NULL, flags);
  properties[PROP_READ_ONLY] = g_param_spec_boolean ("read-only", NULL, NULL, FALSE, flags);
  properties[PROP_LAST_TABLE] = g_param_spec_string ("last-table", NULL, NULL, NULL, flags);
  properties[PROP_SSO_START_URL] = g_param_spec_string ("sso-start-url", NULL, NULL, NULL, flags);
  properties[PROP_SSO_REGION] = g_param_spec_string ("sso-region", NULL, NULL, NULL, flags);
  properties[PROP_SSO_SESSION] = g_param_spec_string ("sso-session", NULL, NULL, NULL, flags);
  properties[PROP_SSO_ACCOUNT_ID] = g_param_spec_string ("sso-account-id", NULL, NULL, NULL, flags);
  properties[PROP_SSO_ROLE_NAME] = g_param_spec_string ("sso-role-name", NULL, NULL, NULL, flags);
  properties[PROP_PRODUCTION_MODE] =
    g_param_spec_enum ("production-mode", NULL, NULL, DYN_TYPE_PRODUCTION_MODE, DYN_PRODUCTION_MODE_AUTO, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_connection_init (DynConnection *self)
{
  self->kind = DYN_CONNECTION_KIND_USER;
}

DynConnection *
dyn_connection_new (const char *name)
{
  return g_object_new (DYN_TYPE_CONNECTION,
                       "kind", DYN_CONNECTION_KIND_USER,
                       "name", name,
                       NULL);
}

DynConnection *
dyn_connection_new_for_profile (const char *profile_name)
{
  g_autofree char *id = NULL;

  g_return_val_if_fail (profile_name != NULL && *profile_name != '\0', NULL);

  id = g_strconcat (PROFILE_ID_PREFIX, profile_name, NULL);
  return g_object_new (DYN_TYPE_CONNECTION,
                       "id", id,
                       "kind", DYN_CONNECTION_KIND_PROFILE,
                       "name", profile_name,
                       "profile-name", profile_name,
                       NULL);
}

const char *
dyn_connection_get_id (DynConnection *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION (self), NULL);
  return self->id;
}

DynConnectionKind
dyn_connection_get_kind (DynConnection *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION (self), DYN_CONNECTION_KIND_USER);
  return self->kind;
}

#define DEFINE_STRING_PROPERTY(field, prop)                                    \
  const char *                                                                 \
  dyn_connection_get_##field (DynConnection *self)                             \
  {                                                                            \
    g_return_val_if_fail (DYN_IS_CONNECTION (self), NULL);                     \
    return self->field;                                                        \
  }                                                                            \
                                                                               \
  void                                                                         \
  dyn_connection_set_##field (DynConnection *self,                             \
                              const char    *field)                            \
  {                                                                            \
    g_return_if_fail (DYN_IS_CONNECTION (self));                               \
    if (set_string (&self->field, field))                                      \
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);            \
  }

DEFINE_STRING_PROPERTY (name, PROP_NAME)
DEFINE_STRING_PROPERTY (profile_name, PROP_PROFILE_NAME)
DEFINE_STRING_PROPERTY (region, PROP_REGION)
DEFINE_STRING_PROPERTY (endpoint_url, PROP_ENDPOINT_URL)
DEFINE_STRING_PROPERTY (access_key_id, PROP_ACCESS_KEY_ID)
DEFINE_STRING_PROPERTY (last_table, PROP_LAST_TABLE)
DEFINE_STRING_PROPERTY (sso_start_url, PROP_SSO_START_URL)
DEFINE_STRING_PROPERTY (sso_region, PROP_SSO_REGION)
DEFINE_STRING_PROPERTY (sso_session, PROP_SSO_SESSION)
DEFINE_STRING_PROPERTY (sso_account_id, PROP_SSO_ACCOUNT_ID)
DEFINE_STRING_PROPERTY (sso_role_name, PROP_SSO_ROLE_NAME)

gboolean
dyn_connection_get_read_only (DynConnection *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION (self), FALSE);
  return self->read_only;
}

void
dyn_connection_set_read_only (DynConnection *self,
                              gboolean       read_only)
{
  g_return_if_fail (DYN_IS_CONNECTION (self));

  read_only = !!read_only;
  if (self->read_only == read_only)
    return;
  self->read_only = read_only;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_ONLY]);
}

DynProductionMode
dyn_connection_get_production_mode (DynConnection *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION (self), DYN_PRODUCTION_MODE_AUTO);
  return self->production_mode;
}

void
dyn_connection_set_production_mode (DynConnection     *self,
                                    DynProductionMode  mode)
{
  g_return_if_fail (DYN_IS_CONNECTION (self));
  g_return_if_fail (mode >= DYN_PRODUCTION_MODE_AUTO && mode <= DYN_PRODUCTION_MODE_OFF);

  if (self->production_mode == mode)
    return;
  self->production_mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRODUCTION_MODE]);
}

static gboolean
matches_any (GPtrArray  *specs,
             const char *text)
{
  g_autofree char *folded = NULL;

  if (text == NULL || *text == '\0')
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  for (guint i = 0; i < specs->len; i++)
    if (g_pattern_spec_match_string (g_ptr_array_index (specs, i), folded))
      return TRUE;
  return FALSE;
}

gboolean
dyn_connection_is_production (DynConnection      *self,
                              const char *const  *patterns,
                              const char         *account_id)
{
  g_autoptr(GPtrArray) specs = NULL;

  g_return_val_if_fail (DYN_IS_CONNECTION (self), FALSE);

  switch (self->production_mode)
    {
    case DYN_PRODUCTION_MODE_ON:
      return TRUE;
    case DYN_PRODUCTION_MODE_OFF:
      return FALSE;
    case DYN_PRODUCTION_MODE_AUTO:
    default:
      break;
    }

  if (patterns == NULL)
    return FALSE;

  specs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
  for (guint i = 0; patterns[i] != NULL; i++)
    {
      g_autofree char *folded = NULL;

      if (*patterns[i] == '\0')
        continue;
      folded = g_utf8_casefold (patterns[i], -1);
      g_ptr_array_add (specs, g_pattern_spec_new (folded));
    }

  return matches_any (specs, self->profile_name) ||
         matches_any (specs, self->name) ||
         matches_any (specs, account_id) ||
         matches_any (specs, self->sso_account_id);
}

/* Creating a client ------------------------------------------------------------ */

static void
create_client_credentials_cb (GObject      *source,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(DynCredentials) credentials = NULL;
  GError *error = NULL;

  credentials = dyn_credentials_provider_get_finish (DYN_CREDENTIALS_PROVIDER (source), result, &error);
  if (credentials == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_object_ref (g_task_get_task_data (task)), g_object_unref);
}

/* An endpoint for IAM Identity Center's @service ("sso", "sso_oidc") as the
 * SDKs find it: with the connection's profile its settings count, else only
 * the environment (an empty set of files). */
static char *
dup_sso_endpoint (DynConnection   *self,
                  DynSharedConfig *shared,
                  const char      *service)
{
  g_autoptr(DynSharedConfig) empty = NULL;

  if (self->profile_name != NULL && shared != NULL)
    return dyn_shared_config_dup_service_endpoint (shared, self->profile_name, service, NULL);
  if ((empty = dyn_shared_config_load_from_files (NULL, NULL, NULL)) == NULL)
    return NULL;
  return dyn_shared_config_dup_service_endpoint (empty, "default", service, NULL);
}

static DynCredentialsProvider *
create_sso_provider (DynConnection    *self,
                     DynSharedConfig  *shared,
                     GError          **error)
{
  g_autoptr(DynSsoConfig) config = g_new0 (DynSsoConfig, 1);
  const char *missing = NULL;

  if (self->sso_region == NULL)
    missing = "sso-region";
  else if (self->sso_account_id == NULL)
    missing = "sso-account-id";
  else if (self->sso_role_name == NULL)
    missing = "sso-role-name";
  if (missing != NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: the first %s is the connection's name, the second a setting ("sso-region") */
                   _("The IAM Identity Center connection '%s' has no %s"),
                   self->name != NULL ? self->name : self->id, missing);
      return NULL;
    }

  config->profile = g_strdup (self->profile_name);
  config->session_name = g_strdup (self->sso_session);
  config->start_url = g_strdup (self->sso_start_url);
  config->sso_region = g_strdup (self->sso_region);
  config->account_id = g_strdup (self->sso_account_id);
  config->role_name = g_strdup (self->sso_role_name);
  config->portal_endpoint = dup_sso_endpoint (self, shared, "sso");
  config->oidc_endpoint = dup_sso_endpoint (self, shared, "sso_oidc");

  return dyn_sso_provider_new (config, NULL);
}

void
dyn_connection_create_client_async (DynConnection       *self,
                                    DynSharedConfig     *shared,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(DynCredentialsProvider) keyring_provider = NULL;
  g_autoptr(DynCredentialsProvider) sso_provider = NULL;
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynClient) client = NULL;
  DynResolveOptions options = { 0 };
  GError *error = NULL;

  g_return_if_fail (DYN_IS_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_connection_create_client_async);

  options.profile = self->profile_name;
  if (self->kind == DYN_CONNECTION_KIND_USER)
    {
      options.region = self->region;
      options.endpoint_url = self->endpoint_url;
      if (self->sso_start_url != NULL)
        {
          if ((sso_provider = create_sso_provider (self, shared, &error)) == NULL)
            {
              g_task_return_error (task, error);
              return;
            }
          options.provider = sso_provider;
        }
      else if (self->access_key_id != NULL)
        {
          /* Translators: where the credentials came from; %s is the connection's name */
          g_autofree char *description = g_strdup_printf (_("the system keyring (connection '%s')"),
                                                          self->name != NULL ? self->name : self->id);

          keyring_provider = dyn_keyring_provider_new (self->id, self->access_key_id, description);
          options.provider = keyring_provider;
        }
    }

  /* dyn_sign_in_resolve(): roles, MFA, web identity and IAM Identity Center
   * profiles work as with the AWS CLI v2; the default prompter asks. */
  profile = dyn_sign_in_resolve (shared, &options, NULL, &error);
  if (profile == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  client = dyn_client_new (dyn_profile_get_endpoint_url (profile),
                           dyn_profile_get_region (profile),
                           dyn_profile_get_credentials_provider (profile),
                           &error);
  if (client == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  dyn_client_set_read_only (client, self->read_only);
  g_task_set_task_data (task, g_steal_pointer (&client), g_object_unref);

  g_debug ("connection %s: region %s, credentials from %s", self->id,
           dyn_profile_get_region (profile),
           dyn_credentials_provider_get_description (dyn_profile_get_credentials_provider (profile)));

  /* Fetch the credentials now so that a locked keyring or a failing
   * credential_process shows up when connecting, not at the first request.
   * The client shares the provider and so its cache. */
  dyn_credentials_provider_get_async (dyn_profile_get_credentials_provider (profile), cancellable,
                                      create_client_credentials_cb, g_steal_pointer (&task));
}

DynClient *
dyn_connection_create_client_finish (DynConnection  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (DYN_IS_CONNECTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_connection_create_client_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* DynConnectionStore ------------------------------------------------------------ */

struct _DynConnectionStore
{
  GObject          parent_instance;

  GPtrArray       *items;   /* of DynConnection, owned */
  char            *path;
  DynSharedConfig *shared;  /* owned, or NULL before the first load */
};

static void dyn_connection_store_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynConnectionStore, dyn_connection_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dyn_connection_store_list_model_init))

static GType
dyn_connection_store_get_item_type (GListModel *model)
{
  return DYN_TYPE_CONNECTION;
}

static guint
dyn_connection_store_get_n_items (GListModel *model)
{
  return DYN_CONNECTION_STORE (model)->items->len;
}

static gpointer
dyn_connection_store_get_item (GListModel *model,
                               guint       position)
{
  DynConnectionStore *self = DYN_CONNECTION_STORE (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
dyn_connection_store_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyn_connection_store_get_item_type;
  iface->get_n_items = dyn_connection_store_get_n_items;
  iface->get_item = dyn_connection_store_get_item;
}

static void
dyn_connection_store_dispose (GObject *object)
{
  DynConnectionStore *self = DYN_CONNECTION_STORE (object);

  g_ptr_array_set_size (self->items, 0);
  g_clear_pointer (&self->shared, dyn_shared_config_unref);

  G_OBJECT_CLASS (dyn_connection_store_parent_class)->dispose (object);
}

static void
dyn_connection_store_finalize (GObject *object)
{
  DynConnectionStore *self = DYN_CONNECTION_STORE (object);

  g_ptr_array_unref (self->items);
  g_free (self->path);

  G_OBJECT_CLASS (dyn_connection_store_parent_class)->finalize (object);
}

static void
dyn_connection_store_class_init (DynConnectionStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_connection_store_dispose;
  object_class->finalize = dyn_connection_store_finalize;
}

static void
dyn_connection_store_init (DynConnectionStore *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

DynConnectionStore *
dyn_connection_store_new (const char *path)
{
  DynConnectionStore *self = g_object_new (DYN_TYPE_CONNECTION_STORE, NULL);

  if (path != NULL)
    self->path = g_strdup (path);
  else
    self->path = g_build_filename (g_get_user_config_dir (), "dynoscope", "connections.ini", NULL);

  return self;
}

const char *
dyn_connection_store_get_path (DynConnectionStore *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), NULL);
  return self->path;
}

DynSharedConfig *
dyn_connection_store_get_shared_config (DynConnectionStore *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), NULL);
  return self->shared;
}

static char *
key_file_get_string (GKeyFile   *key_file,
                     const char *group,
                     const char *key)
{
  char *value = g_key_file_get_string (key_file, group, key, NULL);

  if (value != NULL && *value == '\0')
    g_clear_pointer (&value, g_free);
  return value;
}

/* Reads Dynoscope's own settings of a connection (both kinds). */
static void
read_settings (DynConnection *connection,
               GKeyFile      *key_file,
               const char    *group)
{
  g_autofree char *last_table = key_file_get_string (key_file, group, KEY_LAST_TABLE);

  g_autofree char *production = key_file_get_string (key_file, group, KEY_PRODUCTION);
  GEnumValue *mode = NULL;

  dyn_connection_set_read_only (connection, g_key_file_get_boolean (key_file, group, KEY_READ_ONLY, NULL));
  dyn_connection_set_last_table (connection, last_table);
  if (production != NULL)
    {
      g_autoptr(GEnumClass) enum_class = g_type_class_ref (DYN_TYPE_PRODUCTION_MODE);

      if ((mode = g_enum_get_value_by_nick (enum_class, production)) != NULL)
        dyn_connection_set_production_mode (connection, mode->value);
      else
        g_debug ("connection [%s]: unknown production setting '%s'", group, production);
    }
}

static DynConnection *
read_user_connection (GKeyFile   *key_file,
                      const char *group)
{
  g_autofree char *name = key_file_get_string (key_file, group, KEY_NAME);
  g_autofree char *profile = key_file_get_string (key_file, group, KEY_PROFILE);
  g_autofree char *region = key_file_get_string (key_file, group, KEY_REGION);
  g_autofree char *endpoint_url = key_file_get_string (key_file, group, KEY_ENDPOINT_URL);
  g_autofree char *access_key_id = key_file_get_string (key_file, group, KEY_ACCESS_KEY_ID);
  g_autofree char *sso_start_url = key_file_get_string (key_file, group, KEY_SSO_START_URL);
  g_autofree char *sso_region = key_file_get_string (key_file, group, KEY_SSO_REGION);
  g_autofree char *sso_session = key_file_get_string (key_file, group, KEY_SSO_SESSION);
  g_autofree char *sso_account_id = key_file_get_string (key_file, group, KEY_SSO_ACCOUNT_ID);
  g_autofree char *sso_role_name = key_file_get_string (key_file, group, KEY_SSO_ROLE_NAME);
  DynConnection *connection;

  if (name == NULL || g_str_has_prefix (group, PROFILE_ID_PREFIX))
    {
      g_debug ("skipping connection [%s] without a name", group);
      return NULL;
    }

  connection = g_object_new (DYN_TYPE_CONNECTION,
                             "id", group,
                             "kind", DYN_CONNECTION_KIND_USER,
                             "name", name,
                             "profile-name", profile,
                             "region", region,
                             "endpoint-url", endpoint_url,
                             "access-key-id", access_key_id,
                             "sso-start-url", sso_start_url,
                             "sso-region", sso_region,
                             "sso-session", sso_session,
                             "sso-account-id", sso_account_id,
                             "sso-role-name", sso_role_name,
                             NULL);
  read_settings (connection, key_file, group);

  return connection;
}

gboolean
dyn_connection_store_load_with_config (DynConnectionStore  *self,
                                       DynSharedConfig     *shared,
                                       GError             **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_auto(GStrv) groups = NULL;
  GError *local_error = NULL;
  guint removed;

  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), FALSE);
  g_return_val_if_fail (shared != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_key_file_load_from_file (key_file, self->path, G_KEY_FILE_KEEP_COMMENTS, &local_error))
    {
      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          /* Translators: %s is a file; why it cannot be read follows */
          g_propagate_prefixed_error (error, local_error, _("Cannot read %s: "), self->path);
          return FALSE;
        }
      g_clear_error (&local_error);
    }

  items = g_ptr_array_new_with_free_func (g_object_unref);

  profiles = dyn_shared_config_list_profiles (shared);
  for (guint i = 0; i < profiles->len; i++)
    {
      DynProfileInfo *info = g_ptr_array_index (profiles, i);
      DynConnection *connection = dyn_connection_new_for_profile (info->name);

      dyn_connection_set_region (connection, info->region);
      dyn_connection_set_endpoint_url (connection, info->endpoint_url);
      if (g_key_file_has_group (key_file, connection->id))
        read_settings (connection, key_file, connection->id);
      g_ptr_array_add (items, connection);
    }

  groups = g_key_file_get_groups (key_file, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *kind = key_file_get_string (key_file, groups[i], KEY_KIND);
      DynConnection *connection;

      if (g_strcmp0 (kind, "user") != 0)
        continue;
      if ((connection = read_user_connection (key_file, groups[i])) != NULL)
        g_ptr_array_add (items, connection);
    }

  g_clear_pointer (&self->shared, dyn_shared_config_unref);
  self->shared = dyn_shared_config_ref (shared);

  removed = self->items->len;
  g_ptr_array_unref (self->items);
  self->items = g_steal_pointer (&items);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->items->len);

  return TRUE;
}

gboolean
dyn_connection_store_load (DynConnectionStore  *self,
                           GError             **error)
{
  g_autoptr(DynSharedConfig) shared = NULL;

  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), FALSE);

  if ((shared = dyn_shared_config_load (error)) == NULL)
    return FALSE;

  return dyn_connection_store_load_with_config (self, shared, error);
}

static void
set_optional (GKeyFile   *key_file,
              const char *group,
              const char *key,
              const char *value)
{
  if (value != NULL)
    g_key_file_set_string (key_file, group, key, value);
}

gboolean
dyn_connection_store_save (DynConnectionStore  *self,
                           GError             **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_key_file_set_comment (key_file, NULL, NULL,
                          " Dynoscope connections. Secret keys are kept in the system keyring, not here.",
                          NULL);

  /* Only the non-secret part of a connection is written; there is no field
   * for a secret key or session token. */
  for (guint i = 0; i < self->items->len; i++)
    {
      DynConnection *connection = g_ptr_array_index (self->items, i);
      const char *group = connection->id;

      if (connection->kind == DYN_CONNECTION_KIND_PROFILE)
        {
          if (!connection->read_only && connection->last_table == NULL &&
              connection->production_mode == DYN_PRODUCTION_MODE_AUTO)
            continue;
          g_key_file_set_string (key_file, group, KEY_KIND, "profile");
        }
      else
        {
          g_key_file_set_string (key_file, group, KEY_KIND, "user");
          g_key_file_set_string (key_file, group, KEY_NAME, connection->name);
          set_optional (key_file, group, KEY_PROFILE, connection->profile_name);
          set_optional (key_file, group, KEY_REGION, connection->region);
          set_optional (key_file, group, KEY_ENDPOINT_URL, connection->endpoint_url);
          set_optional (key_file, group, KEY_ACCESS_KEY_ID, connection->access_key_id);
          set_optional (key_file, group, KEY_SSO_START_URL, connection->sso_start_url);
          set_optional (key_file, group, KEY_SSO_REGION, connection->sso_region);
          set_optional (key_file, group, KEY_SSO_SESSION, connection->sso_session);
          set_optional (key_file, group, KEY_SSO_ACCOUNT_ID, connection->sso_account_id);
          set_optional (key_file, group, KEY_SSO_ROLE_NAME, connection->sso_role_name);
        }
      g_key_file_set_boolean (key_file, group, KEY_READ_ONLY, connection->read_only);
      if (connection->production_mode != DYN_PRODUCTION_MODE_AUTO)
        {
          g_autoptr(GEnumClass) enum_class = g_type_class_ref (DYN_TYPE_PRODUCTION_MODE);

          g_key_file_set_string (key_file, group, KEY_PRODUCTION,
                                 g_enum_get_value (enum_class, connection->production_mode)->value_nick);
        }
      set_optional (key_file, group, KEY_LAST_TABLE, connection->last_table);
    }

  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   /* Translators: the first %s is a folder, the second why it cannot be created */
                   _("Cannot create %s: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }

  data = g_key_file_to_data (key_file, &length, NULL);
  return g_file_set_contents_full (self->path, data, length, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

DynConnection *
dyn_connection_store_lookup (DynConnectionStore *self,
                             const char         *id)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < self->items->len; i++)
    {
      DynConnection *connection = g_ptr_array_index (self->items, i);

      if (g_str_equal (connection->id, id))
        return connection;
    }
  return NULL;
}

DynConnection *
dyn_connection_store_lookup_by_name (DynConnectionStore *self,
                                     const char         *name)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->items->len; i++)
    {
      DynConnection *connection = g_ptr_array_index (self->items, i);

      if (g_strcmp0 (connection->name, name) == 0)
        return connection;
    }
  return NULL;
}

static gboolean
find_position (DynConnectionStore *self,
               DynConnection      *connection,
               guint              *position)
{
  return g_ptr_array_find (self->items, connection, position);
}

static gboolean
check_user_connection (DynConnectionStore  *self,
                       DynConnection       *connection,
                       const char          *secret_access_key,
                       GError             **error)
{
  DynConnection *other;

  if (connection->kind != DYN_CONNECTION_KIND_USER)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the connection's name */
                   _("The connection '%s' is an AWS profile; change it in the AWS config files"),
                   connection->name);
      return FALSE;
    }
  if (connection->name == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("A connection needs a name"));
      return FALSE;
    }
  other = dyn_connection_store_lookup_by_name (self, connection->name);
  if (other != NULL && other != connection)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the connection's name */
                   _("There is already a connection named '%s'"), connection->name);
      return FALSE;
    }
  if (secret_access_key != NULL && connection->access_key_id == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("A secret key needs an access key id"));
      return FALSE;
    }
  return TRUE;
}

/* Add, update ------------------------------------------------------------------ */

/* Ends an add or update: an add task carries the new connection as its task
 * data and puts it in the list (unless something else added it meanwhile);
 * then the list is saved. */
static void
add_update_finish_task (GTask *task)
{
  DynConnectionStore *self = g_task_get_source_object (task);
  DynConnection *added = g_task_get_task_data (task);
  GError *error = NULL;

  if (added != NULL && !find_position (self, added, NULL))
    {
      g_ptr_array_add (self->items, g_object_ref (added));
      g_list_model_items_changed (G_LIST_MODEL (self), self->items->len - 1, 0, 1);
    }

  if (!dyn_connection_store_save (self, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
add_update_stored_cb (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!dyn_keyring_store_finish (result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  add_update_finish_task (task);
}

/* Checks @connection, stores its secret (when given) and finishes @task. */
static void
add_update_store (GTask         *task,
                  DynConnection *connection,
                  const char    *secret_access_key,
                  const char    *session_token,
                  GCancellable  *cancellable)
{
  DynConnectionStore *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!check_user_connection (self, connection, secret_access_key, &error))
    g_task_return_error (task, error);
  else if (secret_access_key != NULL)
    dyn_keyring_store_async (connection->id, connection->access_key_id, connection->name,
                             secret_access_key, session_token, cancellable,
                             add_update_stored_cb, g_object_ref (task));
  else
    add_update_finish_task (task);
}

void
dyn_connection_store_add_async (DynConnectionStore  *self,
                                DynConnection       *connection,
                                const char          *secret_access_key,
                                const char          *session_token,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYN_IS_CONNECTION_STORE (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_connection_store_add_async);
  g_task_set_task_data (task, g_object_ref (connection), g_object_unref);

  if (dyn_connection_store_lookup (self, connection->id) != NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               /* Translators: %s is the connection's name */
                               _("The connection '%s' is already saved"), connection->name);
      return;
    }
  add_update_store (task, connection, secret_access_key, session_token, cancellable);
}

gboolean
dyn_connection_store_add_finish (DynConnectionStore  *self,
                                 GAsyncResult        *result,
                                 GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_connection_store_add_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
dyn_connection_store_update_async (DynConnectionStore  *self,
                                   DynConnection       *connection,
                                   const char          *secret_access_key,
                                   const char          *session_token,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYN_IS_CONNECTION_STORE (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_connection_store_update_async);

  if (!find_position (self, connection, NULL))
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               /* Translators: %s is the connection's name */
                               _("The connection '%s' is not in this list"), connection->name);
      return;
    }

  /* Profile connections: only Dynoscope's own settings change. */
  if (connection->kind == DYN_CONNECTION_KIND_PROFILE && secret_access_key == NULL)
    {
      add_update_finish_task (task);
      return;
    }
  add_update_store (task, connection, secret_access_key, session_token, cancellable);
}

gboolean
dyn_connection_store_update_finish (DynConnectionStore  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_connection_store_update_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Remove ----------------------------------------------------------------------- */

static void
remove_cleared_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynConnectionStore *self = g_task_get_source_object (task);
  DynConnection *connection = g_task_get_task_data (task);
  GError *error = NULL;
  guint position;

  /* Without an access key id nothing was stored: a missing keyring does not
   * stop the removal then. Otherwise keep the connection, so that the user
   * can retry rather than leave a secret behind. */
  if (!dyn_keyring_clear_finish (result, &error))
    {
      if (connection->access_key_id != NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, error);
          return;
        }
      g_debug ("ignoring keyring error for connection %s without keys: %s", connection->id, error->message);
      g_clear_error (&error);
    }

  if (find_position (self, connection, &position))
    {
      g_ptr_array_remove_index (self->items, position);
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
    }

  if (!dyn_connection_store_save (self, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
dyn_connection_store_remove_async (DynConnectionStore  *self,
                                   DynConnection       *connection,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYN_IS_CONNECTION_STORE (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_connection_store_remove_async);
  g_task_set_task_data (task, g_object_ref (connection), g_object_unref);

  if (!find_position (self, connection, NULL))
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               /* Translators: %s is the connection's name */
                               _("The connection '%s' is not in this list"), connection->name);
      return;
    }
  if (connection->kind != DYN_CONNECTION_KIND_USER)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               /* Translators: %s is the connection's name */
                               _("The connection '%s' is an AWS profile; remove it from the AWS config files"),
                               connection->name);
      return;
    }

  dyn_keyring_clear_async (connection->id, cancellable, remove_cleared_cb, g_steal_pointer (&task));
}

gboolean
dyn_connection_store_remove_finish (DynConnectionStore  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_connection_store_remove_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
