/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-connection-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-connection-editor.h"
#include "dyn-device-code-dialog.h"
#include "dyn-error.h"
#include "dyn-signin.h"

/* The ways a user-added connection signs in (the rows of method_row). */
enum {
  METHOD_KEYS,
  METHOD_SSO,
};

struct _DynConnectionEditor
{
  AdwWindow           parent_instance;

  DynConnectionStore *store;
  DynConnection      *connection;   /* NULL until a new one is saved */
  GCancellable       *cancellable;
  char               *error;
  gboolean            adding;

  GtkWidget          *save_button;
  GtkSpinner         *spinner;
  GtkRevealer        *error_revealer;
  GtkLabel           *error_label;
  GtkWidget          *where_group;
  GtkWidget          *keys_group;
  GtkEditable        *name_row;
  GtkEditable        *region_row;
  GtkEditable        *endpoint_row;
  GtkEditable        *access_key_row;
  GtkEditable        *secret_row;
  GtkEditable        *token_row;
  GtkSwitch          *read_only_switch;

  /* IAM Identity Center: the portal signed in to, its accounts (DynSsoAccount)
   * and the roles of the selected one. */
  GCancellable       *sso_cancellable;
  DynSignInPrompter  *prompter;
  GPtrArray          *sso_accounts;
  GtkStringList      *sso_account_names;
  GtkStringList      *sso_roles;
  GtkStringList      *sso_sessions;   /* row 0: none */
  char               *wanted_account;
  char               *wanted_role;
  gboolean            sso_busy;
  gboolean            sso_listed;
  gboolean            filling_sso;
  GtkWidget          *method_group;
  AdwComboRow        *method_row;
  GtkWidget          *sso_group;
  AdwComboRow        *sso_session_row;
  GtkEditable        *sso_start_url_row;
  GtkEditable        *sso_region_row;
  AdwActionRow       *sso_sign_in_row;
  GtkSpinner         *sso_spinner;
  AdwComboRow        *sso_account_row;
  AdwComboRow        *sso_role_row;
};

enum {
  SAVED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynConnectionEditor, dyn_connection_editor, ADW_TYPE_WINDOW)

static guint signals[N_SIGNALS];

static void
show_error (DynConnectionEditor *self,
            const char          *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static void
set_busy (DynConnectionEditor *self,
          gboolean             busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.save", !busy);
}

static char *
field (GtkEditable *editable)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (editable)));

  return *text ? g_steal_pointer (&text) : NULL;
}

/* IAM Identity Center ------------------------------------------------------------- */

/* The editor signs in on its own (the window's prompter asks only while a
 * connection is opened): its prompter shows the device flow over the editor. */
#define DYN_TYPE_EDITOR_PROMPTER (dyn_editor_prompter_get_type ())
G_DECLARE_FINAL_TYPE (DynEditorPrompter, dyn_editor_prompter, DYN, EDITOR_PROMPTER, GObject)

struct _DynEditorPrompter
{
  GObject    parent_instance;

  GtkWindow *parent;   /* weak */
  DynDeviceCodeDialog *dialog;   /* weak */
};

static void dyn_editor_prompter_iface_init (DynSignInPrompterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynEditorPrompter, dyn_editor_prompter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYN_TYPE_SIGN_IN_PROMPTER, dyn_editor_prompter_iface_init))

static gboolean
editor_prompter_can_interact (DynSignInPrompter *prompter)
{
  return DYN_EDITOR_PROMPTER (prompter)->parent != NULL;
}

/* Signing in to the portal never assumes a role: no MFA code is asked here. */
static void
editor_prompter_ask_mfa_code (DynSignInPrompter   *prompter,
                              const char          *profile,
                              const char          *mfa_serial,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_task_report_new_error (prompter, callback, user_data, editor_prompter_ask_mfa_code,
                           DYN_ERROR, DYN_ERROR_CREDENTIALS, "%s",
                           _("Signing in to IAM Identity Center needs no MFA code"));
}

static char *
editor_prompter_ask_mfa_code_finish (DynSignInPrompter  *prompter,
                                     GAsyncResult       *result,
                                     GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
editor_prompter_show_device_code (DynSignInPrompter    *prompter,
                                  const DynDeviceCode  *code,
                                  GCancellable         *flow,
                                  GError              **error)
{
  DynEditorPrompter *self = DYN_EDITOR_PROMPTER (prompter);

  if (self->parent == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The connection editor was closed"));
      return FALSE;
    }
  dyn_device_code_dialog_show_in (&self->dialog, self->parent, code, flow);
  return TRUE;
}

static void
editor_prompter_hide_device_code (DynSignInPrompter *prompter,
                                  const GError      *error)
{
  DynEditorPrompter *self = DYN_EDITOR_PROMPTER (prompter);

  if (self->dialog != NULL)
    dyn_device_code_dialog_finish (self->dialog, error);
}

static void
dyn_editor_prompter_iface_init (DynSignInPrompterInterface *iface)
{
  iface->can_interact = editor_prompter_can_interact;
  iface->ask_mfa_code = editor_prompter_ask_mfa_code;
  iface->ask_mfa_code_finish = editor_prompter_ask_mfa_code_finish;
  iface->show_device_code = editor_prompter_show_device_code;
  iface->hide_device_code = editor_prompter_hide_device_code;
}

static void
dyn_editor_prompter_dispose (GObject *object)
{
  DynEditorPrompter *self = DYN_EDITOR_PROMPTER (object);

  g_clear_weak_pointer (&self->parent);
  g_clear_weak_pointer (&self->dialog);

  G_OBJECT_CLASS (dyn_editor_prompter_parent_class)->dispose (object);
}

static void
dyn_editor_prompter_class_init (DynEditorPrompterClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = dyn_editor_prompter_dispose;
}

static void
dyn_editor_prompter_init (DynEditorPrompter *self)
{
}

static gboolean
is_sso (DynConnectionEditor *self)
{
  return adw_combo_row_get_selected (self->method_row) == METHOD_SSO;
}

/* The sso-session chosen, or NULL for a start URL of the user's own. */
static const char *
chosen_session (DynConnectionEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->sso_session_row);

  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    return NULL;
  return gtk_string_list_get_string (self->sso_sessions, selected);
}

static void
set_sso_status (DynConnectionEditor *self,
                const char          *status)
{
  adw_action_row_set_subtitle (self->sso_sign_in_row, status);
}

static void
set_sso_busy (DynConnectionEditor *self,
              gboolean             busy)
{
  self->sso_busy = busy;
  gtk_spinner_set_spinning (self->sso_spinner, busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.sso-sign-in", !busy);
}

/* Forgets the accounts and roles listed (another portal, a new sign-in). */
static void
clear_sso_lists (DynConnectionEditor *self)
{
  g_cancellable_cancel (self->sso_cancellable);
  g_clear_object (&self->sso_cancellable);
  self->sso_cancellable = g_cancellable_new ();
  set_sso_busy (self, FALSE);
  self->sso_listed = FALSE;
  self->filling_sso = TRUE;
  g_ptr_array_set_size (self->sso_accounts, 0);
  gtk_string_list_splice (self->sso_account_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sso_account_names)), NULL);
  gtk_string_list_splice (self->sso_roles, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sso_roles)), NULL);
  self->filling_sso = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_account_row), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_role_row), FALSE);
}

/* What the form says, for signing in and listing: the endpoints as the SDKs
 * find them for a connection without a profile (the environment only). */
static DynSsoConfig *
sso_config (DynConnectionEditor  *self,
            GError              **error)
{
  g_autoptr(DynSsoConfig) config = g_new0 (DynSsoConfig, 1);
  g_autoptr(DynSharedConfig) empty = NULL;
  const char *session = chosen_session (self);

  config->start_url = field (self->sso_start_url_row);
  config->sso_region = field (self->sso_region_row);
  if (config->start_url == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("Enter the start URL of your AWS access portal."));
      return NULL;
    }
  if (!g_str_has_prefix (config->start_url, "https://") && !g_str_has_prefix (config->start_url, "http://"))
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The start URL must start with https://."));
      return NULL;
    }
  if (config->sso_region == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("Enter the region of IAM Identity Center."));
      return NULL;
    }
  if (session != NULL)
    {
      DynSharedConfig *shared = dyn_connection_store_get_shared_config (self->store);

      config->session_name = g_strdup (session);
      if (shared != NULL)
        config->registration_scopes = g_strdup (dyn_shared_config_get_sso_session_value (shared, session,
                                                                                         "sso_registration_scopes"));
    }
  if ((empty = dyn_shared_config_load_from_files (NULL, NULL, NULL)) != NULL)
    {
      config->portal_endpoint = dyn_shared_config_dup_service_endpoint (empty, "default", "sso", NULL);
      config->oidc_endpoint = dyn_shared_config_dup_service_endpoint (empty, "default", "sso_oidc", NULL);
    }
  return g_steal_pointer (&config);
}

static void list_accounts (DynConnectionEditor *self, gboolean after_login);

static void
roles_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(DynConnectionEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) roles = dyn_sso_list_account_roles_finish (result, &error);
  guint wanted = 0;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_sso_busy (self, FALSE);
  if (roles == NULL)
    {
      g_autofree char *status = g_strdup_printf (_("Could not list the roles: %s"), error->message);

      set_sso_status (self, status);
      return;
    }
  self->filling_sso = TRUE;
  gtk_string_list_splice (self->sso_roles, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sso_roles)),
                          (const char * const *) roles);
  self->filling_sso = FALSE;
  for (guint i = 0; roles[i] != NULL; i++)
    if (g_strcmp0 (roles[i], self->wanted_role) == 0)
      wanted = i;
  adw_combo_row_set_selected (self->sso_role_row, wanted);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_role_row), roles[0] != NULL);
  if (roles[0] == NULL)
    set_sso_status (self, _("You have no role in this account"));
  else
    set_sso_status (self, _("Signed in: pick the account and role"));
}

static void
list_roles (DynConnectionEditor *self)
{
  g_autoptr(DynSsoConfig) config = NULL;
  guint selected = adw_combo_row_get_selected (self->sso_account_row);
  DynSsoAccount *account;

  if (!self->sso_listed || selected >= self->sso_accounts->len)
    return;
  account = g_ptr_array_index (self->sso_accounts, selected);
  if ((config = sso_config (self, NULL)) == NULL)
    return;
  /* A listing of another account still under way is dropped. */
  g_cancellable_cancel (self->sso_cancellable);
  g_clear_object (&self->sso_cancellable);
  self->sso_cancellable = g_cancellable_new ();
  self->filling_sso = TRUE;
  gtk_string_list_splice (self->sso_roles, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sso_roles)), NULL);
  self->filling_sso = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_role_row), FALSE);
  set_sso_busy (self, TRUE);
  set_sso_status (self, _("Listing the roles…"));
  dyn_sso_list_account_roles_async (config, account->account_id, self->sso_cancellable, roles_cb, g_object_ref (self));
}

static void
login_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(DynConnectionEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_sso_login_finish (result, &error))
    {
      g_autofree char *status = NULL;

      if (g_cancellable_is_cancelled (self->sso_cancellable))
        return;
      set_sso_busy (self, FALSE);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        status = g_strdup (_("Signing in was cancelled"));
      else
        status = g_strdup_printf (_("Could not sign in: %s"), error->message);
      set_sso_status (self, status);
      return;
    }
  list_accounts (self, TRUE);
}

static void
login (DynConnectionEditor *self)
{
  g_autoptr(DynSsoConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  if ((config = sso_config (self, &error)) == NULL)
    {
      set_sso_busy (self, FALSE);
      set_sso_status (self, error->message);
      return;
    }
  set_sso_status (self, _("Signing in…"));
  dyn_sso_login_async (config, self->prompter, self->sso_cancellable, login_cb, g_object_ref (self));
}

typedef struct {
  DynConnectionEditor *self;
  gboolean             after_login;
} ListData;

static void
accounts_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  ListData *data = user_data;
  g_autoptr(DynConnectionEditor) self = data->self;
  gboolean after_login = data->after_login;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) accounts = NULL;
  guint wanted = 0;

  g_free (data);
  accounts = dyn_sso_list_accounts_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (accounts == NULL)
    {
      g_autofree char *status = NULL;

      /* No valid sign-in cached: the device flow, then the list again. */
      if (!after_login && g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS))
        {
          login (self);
          return;
        }
      set_sso_busy (self, FALSE);
      status = g_strdup_printf (_("Could not list the accounts: %s"), error->message);
      set_sso_status (self, status);
      return;
    }

  self->filling_sso = TRUE;
  g_ptr_array_set_size (self->sso_accounts, 0);
  gtk_string_list_splice (self->sso_account_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sso_account_names)), NULL);
  for (guint i = 0; i < accounts->len; i++)
    {
      DynSsoAccount *account = g_ptr_array_index (accounts, i);
      g_autofree char *name = NULL;

      if (account->account_name != NULL && *account->account_name)
        /* Translators: an account's name and its 12-digit id */
        name = g_strdup_printf (_("%s (%s)"), account->account_name, account->account_id);
      else
        name = g_strdup (account->account_id);
      gtk_string_list_append (self->sso_account_names, name);
      if (g_strcmp0 (account->account_id, self->wanted_account) == 0)
        wanted = i;
    }
  g_ptr_array_extend_and_steal (self->sso_accounts, g_steal_pointer (&accounts));
  self->filling_sso = FALSE;
  self->sso_listed = TRUE;
  set_sso_busy (self, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_account_row), self->sso_accounts->len > 0);
  if (self->sso_accounts->len == 0)
    {
      set_sso_status (self, _("Signed in, but no account is assigned to you"));
      return;
    }
  adw_combo_row_set_selected (self->sso_account_row, wanted);
  list_roles (self);
}

/* The accounts of the cached sign-in; without one, the device flow first. */
static void
list_accounts (DynConnectionEditor *self,
               gboolean             after_login)
{
  g_autoptr(DynSsoConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  ListData *data;

  if ((config = sso_config (self, &error)) == NULL)
    {
      set_sso_busy (self, FALSE);
      set_sso_status (self, error->message);
      return;
    }
  set_sso_busy (self, TRUE);
  set_sso_status (self, _("Listing the accounts…"));
  data = g_new0 (ListData, 1);
  data->self = g_object_ref (self);
  data->after_login = after_login;
  dyn_sso_list_accounts_async (config, self->sso_cancellable, accounts_cb, data);
}

static void
sso_sign_in_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynConnectionEditor *self = DYN_CONNECTION_EDITOR (widget);

  if (self->sso_busy)
    return;
  /* Keep the choice made so far when the same portal lists again. */
  if (self->sso_listed)
    {
      guint account = adw_combo_row_get_selected (self->sso_account_row);
      const char *role = NULL;

      if (account < self->sso_accounts->len)
        {
          g_free (self->wanted_account);
          self->wanted_account = g_strdup (((DynSsoAccount *) g_ptr_array_index (self->sso_accounts, account))->account_id);
        }
      if (adw_combo_row_get_selected (self->sso_role_row) != GTK_INVALID_LIST_POSITION)
        role = gtk_string_list_get_string (self->sso_roles, adw_combo_row_get_selected (self->sso_role_row));
      if (role != NULL)
        {
          g_free (self->wanted_role);
          self->wanted_role = g_strdup (role);
        }
    }
  clear_sso_lists (self);
  list_accounts (self, FALSE);
}

static void
method_changed_cb (AdwComboRow         *row,
                   GParamSpec          *pspec,
                   DynConnectionEditor *self)
{
  gboolean profile = self->connection != NULL && dyn_connection_get_kind (self->connection) == DYN_CONNECTION_KIND_PROFILE;

  gtk_widget_set_visible (self->sso_group, !profile && is_sso (self));
  gtk_widget_set_visible (self->keys_group, !profile && !is_sso (self));
}

static void
sso_session_changed_cb (AdwComboRow         *row,
                        GParamSpec          *pspec,
                        DynConnectionEditor *self)
{
  const char *session = chosen_session (self);
  DynSharedConfig *shared = dyn_connection_store_get_shared_config (self->store);

  if (session != NULL && shared != NULL)
    {
      const char *start_url = dyn_shared_config_get_sso_session_value (shared, session, "sso_start_url");
      const char *region = dyn_shared_config_get_sso_session_value (shared, session, "sso_region");

      gtk_editable_set_text (self->sso_start_url_row, start_url != NULL ? start_url : "");
      gtk_editable_set_text (self->sso_region_row, region != NULL ? region : "");
    }
  /* The session's settings come from ~/.aws/config. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_start_url_row), session == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sso_region_row), session == NULL);
  if (!self->filling_sso)
    clear_sso_lists (self);
}

/* Another portal: what was listed is not its accounts. */
static void
sso_portal_changed_cb (GtkEditable         *editable,
                       DynConnectionEditor *self)
{
  if (!self->filling_sso && self->sso_listed)
    clear_sso_lists (self);
}

static void
sso_account_changed_cb (AdwComboRow         *row,
                        GParamSpec          *pspec,
                        DynConnectionEditor *self)
{
  if (!self->filling_sso)
    list_roles (self);
}

static void
setup_sso (DynConnectionEditor *self)
{
  DynSharedConfig *shared = dyn_connection_store_get_shared_config (self->store);
  g_auto(GStrv) sessions = shared != NULL ? dyn_shared_config_list_sso_sessions (shared) : NULL;
  DynEditorPrompter *prompter = g_object_new (DYN_TYPE_EDITOR_PROMPTER, NULL);

  g_set_weak_pointer (&prompter->parent, GTK_WINDOW (self));
  self->prompter = DYN_SIGN_IN_PROMPTER (prompter);
  self->sso_cancellable = g_cancellable_new ();
  self->sso_accounts = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sso_account_free);
  self->sso_account_names = gtk_string_list_new (NULL);
  self->sso_roles = gtk_string_list_new (NULL);
  self->sso_sessions = gtk_string_list_new (NULL);
  gtk_string_list_append (self->sso_sessions, _("None: enter the start URL"));
  for (guint i = 0; sessions != NULL && sessions[i] != NULL; i++)
    gtk_string_list_append (self->sso_sessions, sessions[i]);
  adw_combo_row_set_model (self->sso_session_row, G_LIST_MODEL (self->sso_sessions));
  adw_combo_row_set_model (self->sso_account_row, G_LIST_MODEL (self->sso_account_names));
  adw_combo_row_set_model (self->sso_role_row, G_LIST_MODEL (self->sso_roles));
  g_signal_connect (self->method_row, "notify::selected", G_CALLBACK (method_changed_cb), self);
  g_signal_connect (self->sso_session_row, "notify::selected", G_CALLBACK (sso_session_changed_cb), self);
  g_signal_connect (self->sso_start_url_row, "changed", G_CALLBACK (sso_portal_changed_cb), self);
  g_signal_connect (self->sso_region_row, "changed", G_CALLBACK (sso_portal_changed_cb), self);
  g_signal_connect (self->sso_account_row, "notify::selected", G_CALLBACK (sso_account_changed_cb), self);
}

/* An IAM Identity Center connection being edited: its account and role stay
 * chosen (listed alone) until the user signs in to list the others. */
static void
show_sso_connection (DynConnectionEditor *self,
                     DynConnection       *connection)
{
  const char *session = dyn_connection_get_sso_session (connection);
  const char *account = dyn_connection_get_sso_account_id (connection);
  const char *role = dyn_connection_get_sso_role_name (connection);

  adw_combo_row_set_selected (self->method_row, METHOD_SSO);
  self->filling_sso = TRUE;
  if (session != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sso_sessions));

      for (guint i = 1; i < n; i++)
        if (g_strcmp0 (gtk_string_list_get_string (self->sso_sessions, i), session) == 0)
          adw_combo_row_set_selected (self->sso_session_row, i);
    }
  gtk_editable_set_text (self->sso_start_url_row, dyn_connection_get_sso_start_url (connection));
  gtk_editable_set_text (self->sso_region_row, dyn_connection_get_sso_region (connection) ?: "");
  if (account != NULL && role != NULL)
    {
      DynSsoAccount *item = g_new0 (DynSsoAccount, 1);

      item->account_id = g_strdup (account);
      g_ptr_array_add (self->sso_accounts, item);
      gtk_string_list_append (self->sso_account_names, account);
      gtk_string_list_append (self->sso_roles, role);
      self->wanted_account = g_strdup (account);
      self->wanted_role = g_strdup (role);
    }
  self->filling_sso = FALSE;
  set_sso_status (self, _("Sign in to choose another account or role"));
}

/* The account and role chosen, or FALSE. */
static gboolean
chosen_account_and_role (DynConnectionEditor  *self,
                         const char          **account_id,
                         const char          **role)
{
  guint account = adw_combo_row_get_selected (self->sso_account_row);
  guint role_position = adw_combo_row_get_selected (self->sso_role_row);

  if (account >= self->sso_accounts->len ||
      role_position >= g_list_model_get_n_items (G_LIST_MODEL (self->sso_roles)))
    return FALSE;
  *account_id = ((DynSsoAccount *) g_ptr_array_index (self->sso_accounts, account))->account_id;
  *role = gtk_string_list_get_string (self->sso_roles, role_position);
  return TRUE;
}

static void
saved_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(DynConnectionEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (self->adding)
    ok = dyn_connection_store_add_finish (DYN_CONNECTION_STORE (source), result, &error);
  else
    ok = dyn_connection_store_update_finish (DYN_CONNECTION_STORE (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (!ok)
    {
      g_autofree char *message = g_strdup_printf (_("The connection was not saved: %s"), error->message);

      if (self->adding)
        g_clear_object (&self->connection);
      show_error (self, message);
      return;
    }
  g_signal_emit (self, signals[SAVED], 0, self->connection);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynConnectionEditor *self = DYN_CONNECTION_EDITOR (widget);
  g_autofree char *name = field (self->name_row);
  g_autofree char *region = field (self->region_row);
  g_autofree char *endpoint = field (self->endpoint_row);
  g_autofree char *access_key = field (self->access_key_row);
  g_autofree char *secret = field (self->secret_row);
  g_autofree char *token = field (self->token_row);
  gboolean is_new = self->connection == NULL;
  gboolean read_only = gtk_switch_get_active (self->read_only_switch);
  g_autoptr(DynSsoConfig) sso = NULL;
  const char *sso_account = NULL, *sso_role = NULL;

  if (!is_new && dyn_connection_get_kind (self->connection) == DYN_CONNECTION_KIND_PROFILE)
    {
      dyn_connection_set_read_only (self->connection, read_only);
      set_busy (self, TRUE);
      self->adding = FALSE;
      dyn_connection_store_update_async (self->store, self->connection, NULL, NULL, self->cancellable,
                                         saved_cb, g_object_ref (self));
      return;
    }

  if (name == NULL)
    {
      show_error (self, _("A connection needs a name."));
      return;
    }
  if (region == NULL && endpoint == NULL)
    {
      show_error (self, _("A connection needs a region or an endpoint URL."));
      return;
    }
  if (endpoint != NULL && !g_str_has_prefix (endpoint, "http://") && !g_str_has_prefix (endpoint, "https://"))
    {
      show_error (self, _("The endpoint URL must start with http:// or https://."));
      return;
    }
  if (is_sso (self))
    {
      g_autoptr(GError) error = NULL;

      /* Signed in with IAM Identity Center: no keys of its own. */
      g_clear_pointer (&access_key, g_free);
      g_clear_pointer (&secret, g_free);
      g_clear_pointer (&token, g_free);
      if ((sso = sso_config (self, &error)) == NULL)
        {
          show_error (self, error->message);
          return;
        }
      if (!chosen_account_and_role (self, &sso_account, &sso_role))
        {
          show_error (self, _("Sign in to IAM Identity Center and pick the account and role."));
          return;
        }
    }
  if ((secret != NULL || token != NULL) && access_key == NULL)
    {
      show_error (self, _("A secret key needs an access key ID."));
      return;
    }
  if (access_key != NULL && secret == NULL &&
      (is_new || g_strcmp0 (access_key, dyn_connection_get_access_key_id (self->connection)) != 0))
    {
      show_error (self, _("A new access key ID needs its secret access key."));
      return;
    }
  if (is_new && dyn_connection_store_lookup_by_name (self->store, name) != NULL)
    {
      show_error (self, _("A connection of that name exists already."));
      return;
    }

  show_error (self, NULL);
  set_busy (self, TRUE);
  if (is_new)
    self->connection = dyn_connection_new (name);
  else
    dyn_connection_set_name (self->connection, name);
  dyn_connection_set_region (self->connection, region ? region : "us-east-1");
  dyn_connection_set_endpoint_url (self->connection, endpoint);
  dyn_connection_set_access_key_id (self->connection, access_key);
  dyn_connection_set_read_only (self->connection, read_only);
  dyn_connection_set_sso_start_url (self->connection, sso ? sso->start_url : NULL);
  dyn_connection_set_sso_region (self->connection, sso ? sso->sso_region : NULL);
  dyn_connection_set_sso_session (self->connection, sso ? sso->session_name : NULL);
  dyn_connection_set_sso_account_id (self->connection, sso_account);
  dyn_connection_set_sso_role_name (self->connection, sso_role);

  self->adding = is_new;
  if (is_new)
    dyn_connection_store_add_async (self->store, self->connection, secret, token, self->cancellable,
                                    saved_cb, g_object_ref (self));
  else
    dyn_connection_store_update_async (self->store, self->connection, secret, token, self->cancellable,
                                       saved_cb, g_object_ref (self));
}

static void
dyn_connection_editor_dispose (GObject *object)
{
  DynConnectionEditor *self = DYN_CONNECTION_EDITOR (object);

  g_cancellable_cancel (self->cancellable);
  if (self->sso_cancellable != NULL)
    g_cancellable_cancel (self->sso_cancellable);
  g_clear_object (&self->sso_cancellable);
  g_clear_object (&self->prompter);
  g_clear_object (&self->sso_account_names);
  g_clear_object (&self->sso_roles);
  g_clear_object (&self->sso_sessions);
  g_clear_object (&self->store);
  g_clear_object (&self->connection);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_CONNECTION_EDITOR);

  G_OBJECT_CLASS (dyn_connection_editor_parent_class)->dispose (object);
}

static void
dyn_connection_editor_finalize (GObject *object)
{
  DynConnectionEditor *self = DYN_CONNECTION_EDITOR (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->sso_accounts, g_ptr_array_unref);
  g_free (self->wanted_account);
  g_free (self->wanted_role);
  g_free (self->error);

  G_OBJECT_CLASS (dyn_connection_editor_parent_class)->finalize (object);
}

static void
dyn_connection_editor_class_init (DynConnectionEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_connection_editor_dispose;
  object_class->finalize = dyn_connection_editor_finalize;

  /**
   * DynConnectionEditor::saved:
   * @connection: the connection as saved
   */
  signals[SAVED] =
    g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_CONNECTION);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-connection-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, where_group);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, keys_group);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, region_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, endpoint_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, access_key_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, secret_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, token_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, read_only_switch);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, method_group);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, method_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_group);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_session_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_start_url_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_region_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_sign_in_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_spinner);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_account_row);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionEditor, sso_role_row);
  gtk_widget_class_install_action (widget_class, "editor.sso-sign-in", NULL, sso_sign_in_action);

  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dyn_connection_editor_init (DynConnectionEditor *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}


DynConnectionEditor *
dyn_connection_editor_new (GtkWindow          *parent,
                           DynConnectionStore *store,
                           DynConnection      *connection)
{
  DynConnectionEditor *self;

  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (store), NULL);
  g_return_val_if_fail (connection == NULL || DYN_IS_CONNECTION (connection), NULL);

  self = g_object_new (DYN_TYPE_CONNECTION_EDITOR, "transient-for", parent, NULL);
  self->store = g_object_ref (store);
  /* After the store is known: its shared config lists the sso-sessions. */
  setup_sso (self);
  if (connection != NULL)
    {
      gboolean profile = dyn_connection_get_kind (connection) == DYN_CONNECTION_KIND_PROFILE;
      const char *text;

      self->connection = g_object_ref (connection);
      gtk_window_set_title (GTK_WINDOW (self), _("Edit Connection"));
      gtk_editable_set_text (self->name_row, dyn_connection_get_name (connection));
      text = dyn_connection_get_region (connection);
      gtk_editable_set_text (self->region_row, text ? text : "");
      text = dyn_connection_get_endpoint_url (connection);
      gtk_editable_set_text (self->endpoint_row, text ? text : "");
      text = dyn_connection_get_access_key_id (connection);
      gtk_editable_set_text (self->access_key_row, text ? text : "");
      gtk_switch_set_active (self->read_only_switch, dyn_connection_get_read_only (connection));
      /* The AWS files are never written: for a profile only our own settings change. */
      gtk_widget_set_sensitive (self->where_group, !profile);
      gtk_widget_set_visible (self->keys_group, !profile);
      /* A profile's sign-in is what ~/.aws/config says. */
      gtk_widget_set_visible (self->method_group, !profile);
      if (!profile && dyn_connection_get_sso_start_url (connection) != NULL)
        show_sso_connection (self, connection);
    }
  else
    {
      gtk_window_set_title (GTK_WINDOW (self), _("New Connection"));
      gtk_editable_set_text (self->region_row, "us-east-1");
    }
  return self;
}

DynConnection *
dyn_connection_editor_get_connection (DynConnectionEditor *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), NULL);

  return self->connection;
}

void
dyn_connection_editor_fill (DynConnectionEditor *self,
                            const char          *name,
                            const char          *region,
                            const char          *endpoint_url,
                            const char          *access_key_id,
                            const char          *secret_access_key,
                            const char          *session_token,
                            gboolean             read_only)
{
  g_return_if_fail (DYN_IS_CONNECTION_EDITOR (self));

  if (name != NULL)
    gtk_editable_set_text (self->name_row, name);
  if (region != NULL)
    gtk_editable_set_text (self->region_row, region);
  if (endpoint_url != NULL)
    gtk_editable_set_text (self->endpoint_row, endpoint_url);
  if (access_key_id != NULL)
    gtk_editable_set_text (self->access_key_row, access_key_id);
  if (secret_access_key != NULL)
    gtk_editable_set_text (self->secret_row, secret_access_key);
  if (session_token != NULL)
    gtk_editable_set_text (self->token_row, session_token);
  gtk_switch_set_active (self->read_only_switch, read_only);
}

const char *
dyn_connection_editor_get_error (DynConnectionEditor *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), NULL);

  return self->error;
}

void
dyn_connection_editor_fill_sso (DynConnectionEditor *self,
                                const char          *session,
                                const char          *start_url,
                                const char          *sso_region)
{
  g_return_if_fail (DYN_IS_CONNECTION_EDITOR (self));

  adw_combo_row_set_selected (self->method_row, METHOD_SSO);
  if (session != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sso_sessions));

      for (guint i = 1; i < n; i++)
        if (g_strcmp0 (gtk_string_list_get_string (self->sso_sessions, i), session) == 0)
          adw_combo_row_set_selected (self->sso_session_row, i);
    }
  if (start_url != NULL)
    gtk_editable_set_text (self->sso_start_url_row, start_url);
  if (sso_region != NULL)
    gtk_editable_set_text (self->sso_region_row, sso_region);
}

gboolean
dyn_connection_editor_choose_sso (DynConnectionEditor *self,
                                  const char          *account_id,
                                  const char          *role_name)
{
  guint n;

  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), FALSE);

  if (account_id != NULL)
    {
      guint i;

      for (i = 0; i < self->sso_accounts->len; i++)
        if (g_strcmp0 (((DynSsoAccount *) g_ptr_array_index (self->sso_accounts, i))->account_id, account_id) == 0)
          break;
      if (i == self->sso_accounts->len)
        return FALSE;
      if (adw_combo_row_get_selected (self->sso_account_row) != i)
        {
          g_free (self->wanted_role);
          self->wanted_role = g_strdup (role_name);
          adw_combo_row_set_selected (self->sso_account_row, i);
          /* The roles of that account are being listed: chosen when they come. */
          return TRUE;
        }
    }
  if (role_name == NULL)
    return TRUE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sso_roles));
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->sso_roles, i), role_name) == 0)
      {
        adw_combo_row_set_selected (self->sso_role_row, i);
        return TRUE;
      }
  return FALSE;
}

gboolean
dyn_connection_editor_get_sso_busy (DynConnectionEditor *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), FALSE);

  return self->sso_busy;
}

const char *
dyn_connection_editor_get_sso_status (DynConnectionEditor *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), NULL);

  return adw_action_row_get_subtitle (self->sso_sign_in_row);
}

/* (element-type utf8) the accounts listed, as shown */
GListModel *
dyn_connection_editor_get_sso_accounts (DynConnectionEditor *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), NULL);

  return G_LIST_MODEL (self->sso_account_names);
}

GListModel *
dyn_connection_editor_get_sso_roles (DynConnectionEditor *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_EDITOR (self), NULL);

  return G_LIST_MODEL (self->sso_roles);
}
