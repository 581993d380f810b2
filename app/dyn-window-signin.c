/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* Signing in from the window: the prompter of the application's windows (MFA
 * codes and the IAM Identity Center device flow in dialogs, only while the
 * user connects or answers the "Sign in again" bar), the bar itself — the
 * requests of a client whose credentials expired wait behind it, so nothing
 * the user has open is lost — and who the connection signs in as. */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-device-code-dialog.h"
#include "dyn-error.h"
#include "dyn-mfa-dialog.h"
#include "dyn-window-private.h"
#include "dyn-window-signin.h"

struct _DynWindowSignin
{
  DynSignInBar  *bar;
  GtkMenuButton *identity_button;
  GtkLabel      *identity_label;
  GtkLabel      *account_label;
  GtkLabel      *arn_label;
  GtkLabel      *user_id_label;
  GtkLabel      *expires_label;
  char          *identity_text;

  /* While > 0 the prompter may ask the user (connecting, Sign In Again). */
  guint          interacting;

  /* The waiting requests of self->client: DynClient's reauth. */
  GTask         *reauth;
  GCancellable  *reauth_cancellable;  /* the client's */
  gulong         reauth_cancel_id;
  guint          reauth_cancel_idle;
  /* Sign In Again's fetch of fresh credentials. */
  GCancellable  *sign_in_cancellable;
  GCancellable  *whoami_cancellable;
};

/* The prompter ------------------------------------------------------------------- */

struct _DynWindowPrompter
{
  GObject    parent_instance;

  GWeakRef   app;
  DynDeviceCodeDialog *device_dialog;  /* weak */
  GtkWidget *mfa_dialog;     /* weak */
};

static void dyn_window_prompter_iface_init (DynSignInPrompterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynWindowPrompter, dyn_window_prompter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYN_TYPE_SIGN_IN_PROMPTER, dyn_window_prompter_iface_init))

/* The window whose user may be asked now: the active one when it is
 * interacting, else the first that is. (transfer full) or %NULL */
static DynWindow *
interacting_window (DynWindowPrompter *self)
{
  g_autoptr(GtkApplication) app = g_weak_ref_get (&self->app);
  GtkWindow *active;

  if (app == NULL)
    return NULL;
  active = gtk_application_get_active_window (app);
  if (DYN_IS_WINDOW (active) && DYN_WINDOW (active)->signin != NULL && DYN_WINDOW (active)->signin->interacting > 0)
    return g_object_ref (DYN_WINDOW (active));
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      if (DYN_IS_WINDOW (l->data) && DYN_WINDOW (l->data)->signin != NULL &&
          DYN_WINDOW (l->data)->signin->interacting > 0)
        return g_object_ref (l->data);
    }
  return NULL;
}

static gboolean
prompter_can_interact (DynSignInPrompter *prompter)
{
  g_autoptr(DynWindow) window = interacting_window (DYN_WINDOW_PROMPTER (prompter));

  return window != NULL;
}

/* One question for an MFA code: the dialog answers it, or the caller's
 * cancellable takes it back (handled from an idle: a "cancelled" handler
 * must not disconnect itself). */
typedef struct {
  GTask        *task;
  DynMfaDialog *dialog;    /* weak */
  GCancellable *cancellable;
  gulong        cancel_id;
  gulong        response_id;
  guint         idle_id;
} MfaAsk;

static void
mfa_ask_end (MfaAsk     *ask,
             const char *code)
{
  g_autoptr(GTask) task = g_steal_pointer (&ask->task);

  g_clear_handle_id (&ask->idle_id, g_source_remove);
  if (ask->cancel_id != 0)
    g_cancellable_disconnect (ask->cancellable, ask->cancel_id);
  g_clear_object (&ask->cancellable);
  if (ask->dialog != NULL)
    {
      GtkWidget *dialog = GTK_WIDGET (ask->dialog);

      g_signal_handler_disconnect (dialog, ask->response_id);
      g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &ask->dialog);
      ask->dialog = NULL;
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  if (code != NULL)
    g_task_return_pointer (task, g_strdup (code), g_free);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                             _("Signing in was cancelled: no MFA code was entered"));
  g_free (ask);
}

static void
mfa_response_cb (DynMfaDialog *dialog,
                 const char   *code,
                 MfaAsk       *ask)
{
  mfa_ask_end (ask, code);
}

static gboolean
mfa_cancelled_idle (gpointer user_data)
{
  MfaAsk *ask = user_data;

  ask->idle_id = 0;
  mfa_ask_end (ask, NULL);
  return G_SOURCE_REMOVE;
}

static void
mfa_cancelled_cb (GCancellable *cancellable,
                  MfaAsk       *ask)
{
  if (ask->idle_id == 0)
    ask->idle_id = g_idle_add (mfa_cancelled_idle, ask);
}

static void
prompter_ask_mfa_code (DynSignInPrompter   *prompter,
                       const char          *profile,
                       const char          *mfa_serial,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  DynWindowPrompter *self = DYN_WINDOW_PROMPTER (prompter);
  g_autoptr(DynWindow) window = interacting_window (self);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  MfaAsk *ask;

  g_task_set_source_tag (task, prompter_ask_mfa_code);
  if (window == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS, "%s",
                               _("An MFA code is needed, and nobody can be asked now: sign in again"));
      return;
    }
  ask = g_new0 (MfaAsk, 1);
  ask->task = g_steal_pointer (&task);
  ask->dialog = dyn_mfa_dialog_new (GTK_WINDOW (window), profile, mfa_serial);
  g_object_add_weak_pointer (G_OBJECT (ask->dialog), (gpointer *) &ask->dialog);
  ask->response_id = g_signal_connect (ask->dialog, "response", G_CALLBACK (mfa_response_cb), ask);
  g_set_weak_pointer (&self->mfa_dialog, GTK_WIDGET (ask->dialog));
  if (cancellable != NULL)
    {
      ask->cancellable = g_object_ref (cancellable);
      ask->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (mfa_cancelled_cb), ask, NULL);
    }
  g_debug ("asking for the MFA code of %s", mfa_serial);
  gtk_window_present (GTK_WINDOW (ask->dialog));
}

static char *
prompter_ask_mfa_code_finish (DynSignInPrompter  *prompter,
                              GAsyncResult       *result,
                              GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, prompter), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
prompter_show_device_code (DynSignInPrompter    *prompter,
                           const DynDeviceCode  *code,
                           GCancellable         *flow,
                           GError              **error)
{
  DynWindowPrompter *self = DYN_WINDOW_PROMPTER (prompter);
  g_autoptr(DynWindow) window = interacting_window (self);

  if (window == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                           _("Signing in to IAM Identity Center needs you, and nobody can be asked now: sign in again"));
      return FALSE;
    }
  dyn_device_code_dialog_show_in (&self->device_dialog, GTK_WINDOW (window), code, flow);
  return TRUE;
}

static void
prompter_hide_device_code (DynSignInPrompter *prompter,
                           const GError      *error)
{
  DynWindowPrompter *self = DYN_WINDOW_PROMPTER (prompter);

  if (self->device_dialog != NULL)
    dyn_device_code_dialog_finish (self->device_dialog, error);
}

static void
dyn_window_prompter_iface_init (DynSignInPrompterInterface *iface)
{
  iface->can_interact = prompter_can_interact;
  iface->ask_mfa_code = prompter_ask_mfa_code;
  iface->ask_mfa_code_finish = prompter_ask_mfa_code_finish;
  iface->show_device_code = prompter_show_device_code;
  iface->hide_device_code = prompter_hide_device_code;
}

static void
dyn_window_prompter_dispose (GObject *object)
{
  DynWindowPrompter *self = DYN_WINDOW_PROMPTER (object);

  g_clear_weak_pointer (&self->device_dialog);
  g_clear_weak_pointer (&self->mfa_dialog);

  G_OBJECT_CLASS (dyn_window_prompter_parent_class)->dispose (object);
}

static void
dyn_window_prompter_finalize (GObject *object)
{
  DynWindowPrompter *self = DYN_WINDOW_PROMPTER (object);

  g_weak_ref_clear (&self->app);

  G_OBJECT_CLASS (dyn_window_prompter_parent_class)->finalize (object);
}

static void
dyn_window_prompter_class_init (DynWindowPrompterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_window_prompter_dispose;
  object_class->finalize = dyn_window_prompter_finalize;
}

static void
dyn_window_prompter_init (DynWindowPrompter *self)
{
  g_weak_ref_init (&self->app, NULL);
}

DynWindowPrompter *
dyn_window_prompter_new (GtkApplication *app)
{
  DynWindowPrompter *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (app), NULL);

  self = g_object_new (DYN_TYPE_WINDOW_PROMPTER, NULL);
  g_weak_ref_set (&self->app, app);
  return self;
}

/* The prompter's dialogs over @window, for the bar's Cancel. */
static void
close_dialogs_of (DynWindow *window)
{
  DynSignInPrompter *prompter = dyn_sign_in_get_default_prompter ();
  DynWindowPrompter *self;

  if (!DYN_IS_WINDOW_PROMPTER (prompter))
    return;
  self = DYN_WINDOW_PROMPTER (prompter);
  if (self->mfa_dialog != NULL && gtk_window_get_transient_for (GTK_WINDOW (self->mfa_dialog)) == GTK_WINDOW (window))
    gtk_window_close (GTK_WINDOW (self->mfa_dialog));
  if (self->device_dialog != NULL && gtk_window_get_transient_for (GTK_WINDOW (self->device_dialog)) == GTK_WINDOW (window))
    gtk_window_close (GTK_WINDOW (self->device_dialog));
}

/* Interacting ----------------------------------------------------------------- */

void
_dyn_window_signin_begin (DynWindow *self)
{
  if (self->signin != NULL)
    self->signin->interacting++;
}

/* (The window may be disposed already: a connect cancelled by closing it.) */
void
_dyn_window_signin_end (DynWindow *self)
{
  if (self->signin == NULL)
    return;
  g_return_if_fail (self->signin->interacting > 0);

  self->signin->interacting--;
}

/* Who the connection signs in as ------------------------------------------------ */

static gboolean
endpoint_is_loopback (const char *url)
{
  g_autofree char *host = NULL;
  g_autoptr(GInetAddress) address = NULL;

  if (url == NULL || !g_uri_split_network (url, G_URI_FLAGS_NONE, NULL, &host, NULL, NULL))
    return FALSE;
  if (g_ascii_strcasecmp (host, "localhost") == 0 || g_str_has_suffix (host, ".localhost"))
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

/* GetCallerIdentity goes to AWS's STS, which knows nothing of the keys of
 * DynamoDB Local: it runs for connections to AWS, and for local ones only
 * when an STS endpoint of its own is configured (AWS_ENDPOINT_URL_STS, a
 * services section's sts), as with LocalStack. */
static char *
whoami_endpoint (DynWindow *self)
{
  DynSharedConfig *shared = dyn_connection_store_get_shared_config (self->store);
  const char *profile = self->connection != NULL ? dyn_connection_get_profile_name (self->connection) : NULL;
  const char *region = dyn_client_get_region (self->client);

  if (endpoint_is_loopback (dyn_client_get_endpoint (self->client)))
    {
      g_autofree char *sts = NULL;
      g_autofree char *dynamodb = NULL;

      const char *name = profile;

      if (shared == NULL)
        return NULL;
      if (name == NULL && ((name = g_getenv ("AWS_PROFILE")) == NULL || *name == '\0'))
        name = "default";
      sts = dyn_shared_config_dup_service_endpoint (shared, name, "sts", NULL);
      dynamodb = dyn_shared_config_dup_service_endpoint (shared, name, "dynamodb", NULL);
      if (sts == NULL || g_strcmp0 (sts, dynamodb) == 0)
        return NULL;
    }
  return dyn_sign_in_sts_endpoint (shared, profile, region, NULL);
}

/* "assumed-role/Admin/alice" of "arn:aws:sts::123456789012:assumed-role/Admin/alice". */
static const char *
arn_resource (const char *arn)
{
  const char *p = arn;

  for (guint i = 0; i < 5 && p != NULL; i++)
    {
      p = strchr (p, ':');
      if (p != NULL)
        p++;
    }
  return p != NULL && *p ? p : arn;
}

static char *
format_expiry (GDateTime *expiration)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (expiration);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  if (g_date_time_difference (local, now) < 20 * G_TIME_SPAN_HOUR)
    return g_date_time_format (local, "%H:%M");
  return g_date_time_format (local, "%x %H:%M");
}

static void
show_identity (DynWindow               *self,
               const DynCallerIdentity *identity)
{
  DynWindowSignin *signin = self->signin;
  g_autofree char *expires = NULL;

  g_clear_pointer (&signin->identity_text, g_free);
  gtk_widget_set_visible (GTK_WIDGET (signin->identity_button), identity != NULL);
  if (identity == NULL)
    return;

  if (identity->expiration != NULL)
    expires = format_expiry (identity->expiration);
  if (expires != NULL)
    /* Translators: the account, the user or role of the credentials, when they expire (“14:05”) */
    signin->identity_text = g_strdup_printf (_("%s · %s · expires %s"), identity->account,
                                             arn_resource (identity->arn), expires);
  else
    signin->identity_text = g_strdup_printf ("%s · %s", identity->account, arn_resource (identity->arn));
  gtk_label_set_label (signin->identity_label, identity->account);
  gtk_label_set_label (signin->account_label, identity->account);
  gtk_label_set_label (signin->arn_label, identity->arn);
  gtk_label_set_label (signin->user_id_label, identity->user_id != NULL ? identity->user_id : "");
  gtk_label_set_label (signin->expires_label, expires != NULL ? expires : _("Does not expire"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (signin->identity_button), signin->identity_text);
}

typedef struct {
  DynWindow *self;
  DynClient *client;
} WhoamiData;

static void
whoami_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WhoamiData *data = user_data;
  g_autoptr(DynWindow) self = data->self;
  g_autoptr(DynClient) client = data->client;
  g_autoptr(DynCallerIdentity) identity = NULL;
  g_autoptr(GError) error = NULL;

  g_free (data);
  identity = dyn_sign_in_whoami_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || client != self->client || self->signin == NULL)
    return;
  if (identity == NULL)
    {
      /* Not worth a message: the connection works without knowing. */
      g_debug ("GetCallerIdentity failed: %s", error->message);
      return;
    }
  show_identity (self, identity);
}

static void
start_whoami (DynWindow *self)
{
  DynWindowSignin *signin = self->signin;
  g_autofree char *endpoint = NULL;
  WhoamiData *data;

  if (signin->whoami_cancellable != NULL)
    g_cancellable_cancel (signin->whoami_cancellable);
  g_clear_object (&signin->whoami_cancellable);
  if (self->client == NULL || (endpoint = whoami_endpoint (self)) == NULL)
    return;
  signin->whoami_cancellable = g_cancellable_new ();
  data = g_new0 (WhoamiData, 1);
  data->self = g_object_ref (self);
  data->client = g_object_ref (self->client);
  dyn_sign_in_whoami_async (dyn_client_get_credentials_provider (self->client), dyn_client_get_region (self->client),
                            endpoint, signin->whoami_cancellable, whoami_cb, data);
}

/* Sign in again ---------------------------------------------------------------- */

/* Ends the wait of the requests: %TRUE sends them again, else they fail with @error. */
static void
finish_reauth (DynWindow    *self,
               gboolean      signed_in,
               const GError *error)
{
  DynWindowSignin *signin = self->signin;
  g_autoptr(GTask) task = g_steal_pointer (&signin->reauth);

  g_clear_handle_id (&signin->reauth_cancel_idle, g_source_remove);
  if (signin->reauth_cancel_id != 0)
    g_cancellable_disconnect (signin->reauth_cancellable, signin->reauth_cancel_id);
  signin->reauth_cancel_id = 0;
  g_clear_object (&signin->reauth_cancellable);
  if (signin->sign_in_cancellable != NULL)
    g_cancellable_cancel (signin->sign_in_cancellable);
  g_clear_object (&signin->sign_in_cancellable);
  dyn_sign_in_bar_dismiss (signin->bar);
  if (task == NULL)
    return;
  if (signed_in)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_error_copy (error));
}

static gboolean
reauth_cancelled_idle (gpointer user_data)
{
  DynWindow *self = user_data;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The connection was closed"));

  self->signin->reauth_cancel_idle = 0;
  finish_reauth (self, FALSE, error);
  return G_SOURCE_REMOVE;
}

/* The client went away: its waiting requests are gone too. */
static void
reauth_cancelled_cb (GCancellable *cancellable,
                     DynWindow    *self)
{
  if (self->signin->reauth_cancel_idle == 0)
    self->signin->reauth_cancel_idle = g_idle_add (reauth_cancelled_idle, self);
}

/* DynClientReauthFunc: shows the bar; the requests wait until the user
 * answers it. @user_data is a GWeakRef to the window (the client is the
 * window's: no reference back). */
static void
reauth_cb (DynClient           *client,
           const GError        *error,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  g_autoptr(DynWindow) self = g_weak_ref_get (user_data);
  g_autoptr(GTask) task = g_task_new (client, cancellable, callback, callback_data);
  DynWindowSignin *signin;

  g_task_set_source_tag (task, reauth_cb);
  if (self == NULL || self->client != client || self->signin->reauth != NULL)
    {
      g_task_return_error (task, g_error_copy (error));
      return;
    }
  signin = self->signin;
  g_debug ("the credentials of %s expired: %s", dyn_connection_get_name (self->connection), error->message);
  signin->reauth = g_steal_pointer (&task);
  if (cancellable != NULL)
    {
      signin->reauth_cancellable = g_object_ref (cancellable);
      signin->reauth_cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (reauth_cancelled_cb), self, NULL);
    }
  dyn_sign_in_bar_reveal (signin->bar, dyn_connection_get_name (self->connection));
}

static gboolean
reauth_finish_cb (GAsyncResult  *result,
                  GError       **error,
                  gpointer       user_data)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
weak_ref_free (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

typedef struct {
  DynWindow    *self;
  GCancellable *cancellable;
} SignInData;

static void
sign_in_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SignInData *data = user_data;
  g_autoptr(DynWindow) self = data->self;
  g_autoptr(GCancellable) cancellable = data->cancellable;
  g_autoptr(DynCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;
  DynWindowSignin *signin = self->signin;

  g_free (data);
  credentials = dyn_credentials_provider_get_finish (DYN_CREDENTIALS_PROVIDER (source), result, &error);
  if (signin == NULL)
    return;
  _dyn_window_signin_end (self);
  /* Cancel in the bar, another connection, the window closing: handled there. */
  if (g_cancellable_is_cancelled (cancellable) || cancellable != signin->sign_in_cancellable)
    return;
  g_clear_object (&signin->sign_in_cancellable);
  if (credentials == NULL)
    {
      g_autofree char *problem = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        problem = g_strdup (_("Signing in was cancelled. Sign in again, or cancel to fail the waiting requests."));
      else
        /* Translators: %s says why */
        problem = g_strdup_printf (_("Could not sign in: %s"), error->message);
      dyn_sign_in_bar_set_busy (signin->bar, FALSE);
      dyn_sign_in_bar_set_problem (signin->bar, problem);
      return;
    }
  finish_reauth (self, TRUE, NULL);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Signed in again")));
  start_whoami (self);
}

static void
bar_sign_in_cb (DynSignInBar *bar,
                DynWindow    *self)
{
  DynWindowSignin *signin = self->signin;
  DynCredentialsProvider *provider;
  SignInData *data;

  if (signin->reauth == NULL || signin->sign_in_cancellable != NULL || self->client == NULL)
    return;
  provider = dyn_client_get_credentials_provider (self->client);
  dyn_sign_in_bar_set_problem (bar, NULL);
  dyn_sign_in_bar_set_busy (bar, TRUE);
  /* The user answered: the provider may ask (device flow, MFA) until it is done. */
  _dyn_window_signin_begin (self);
  signin->sign_in_cancellable = g_cancellable_new ();
  data = g_new0 (SignInData, 1);
  data->self = g_object_ref (self);
  data->cancellable = g_object_ref (signin->sign_in_cancellable);
  dyn_credentials_provider_invalidate (provider);
  dyn_credentials_provider_get_async (provider, signin->sign_in_cancellable, sign_in_cb, data);
}

static void
bar_cancel_cb (DynSignInBar *bar,
               DynWindow    *self)
{
  g_autoptr(GError) error = g_error_new_literal (DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                                                 _("Sign-in cancelled: the waiting requests failed"));

  close_dialogs_of (self);
  finish_reauth (self, FALSE, error);
}

/* The window's client changed (or went): a wait of the old one ends, the
 * new one gets the handler, and who it signs in as is asked. */
void
_dyn_window_signin_client_changed (DynWindow *self)
{
  DynWindowSignin *signin = self->signin;

  if (signin == NULL)
    return;
  if (signin->reauth != NULL && (DynClient *) g_task_get_source_object (signin->reauth) != self->client)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The connection was closed"));

      close_dialogs_of (self);
      finish_reauth (self, FALSE, error);
    }
  show_identity (self, NULL);
  if (self->client == NULL)
    {
      start_whoami (self);
      return;
    }
  {
    GWeakRef *ref = g_new0 (GWeakRef, 1);

    g_weak_ref_init (ref, self);
    dyn_client_set_reauth_handler (self->client, reauth_cb, reauth_finish_cb, ref, weak_ref_free);
  }
  start_whoami (self);
}

/* The window's part ---------------------------------------------------------------- */

static GtkLabel *
add_identity_row (GtkGrid    *grid,
                  int         row,
                  const char *title)
{
  GtkWidget *name = gtk_label_new (title);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 1);
  gtk_widget_add_css_class (name, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (value), 48);
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, value, 1, row, 1, 1);
  return GTK_LABEL (value);
}

/* The bar's place in the overlay: the width of the content, under the header. */
static gboolean
bar_position_cb (GtkOverlay   *overlay,
                 GtkWidget    *widget,
                 GdkRectangle *allocation,
                 GtkWidget    *header)
{
  graphene_point_t bottom;
  int width = gtk_widget_get_width (GTK_WIDGET (overlay));
  int natural = 0;

  if (!gtk_widget_compute_point (header, GTK_WIDGET (overlay),
                                 &GRAPHENE_POINT_INIT (0, gtk_widget_get_height (header)), &bottom))
    bottom.y = 0;
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, NULL, &natural, NULL, NULL);
  allocation->x = 0;
  allocation->y = (int) bottom.y;
  allocation->width = width;
  allocation->height = natural;
  return TRUE;
}

void
_dyn_window_signin_init (DynWindow *self)
{
  DynWindowSignin *signin = g_new0 (DynWindowSignin, 1);
  GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->error_revealer));
  GtkWidget *header = gtk_widget_get_ancestor (GTK_WIDGET (self->window_title), ADW_TYPE_HEADER_BAR);
  GtkWidget *box, *popover, *grid, *title, *overlay;

  self->signin = signin;

  /* The bar lies over the content just below the header: it takes no room
   * from what is open, so the grid does not scroll when it comes. */
  signin->bar = dyn_sign_in_bar_new ();
  g_object_ref (content);
  overlay = gtk_overlay_new ();
  adw_flap_set_content (self->flap, overlay);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), content);
  g_object_unref (content);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (signin->bar));
  g_signal_connect (overlay, "get-child-position", G_CALLBACK (bar_position_cb), header);
  g_signal_connect (signin->bar, "sign-in", G_CALLBACK (bar_sign_in_cb), self);
  g_signal_connect (signin->bar, "cancel", G_CALLBACK (bar_cancel_cb), self);

  /* Who the connection signs in as: the account in the header, the rest in its popover. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("avatar-default-symbolic"));
  signin->identity_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (signin->identity_label), "dyn-identity-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (signin->identity_label));
  signin->identity_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (signin->identity_button, box);
  gtk_widget_set_visible (GTK_WIDGET (signin->identity_button), FALSE);

  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 6);
  gtk_widget_set_margin_end (grid, 6);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_margin_bottom (grid, 6);
  title = gtk_label_new (_("Signed In As"));
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_grid_attach (GTK_GRID (grid), title, 0, 0, 2, 1);
  signin->account_label = add_identity_row (GTK_GRID (grid), 1, _("Account"));
  signin->arn_label = add_identity_row (GTK_GRID (grid), 2, _("ARN"));
  signin->user_id_label = add_identity_row (GTK_GRID (grid), 3, _("User ID"));
  signin->expires_label = add_identity_row (GTK_GRID (grid), 4, _("Expires"));
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), grid);
  gtk_menu_button_set_popover (signin->identity_button, popover);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (signin->identity_button));
}

void
_dyn_window_signin_dispose (DynWindow *self)
{
  DynWindowSignin *signin = self->signin;
  g_autoptr(GError) error = NULL;

  if (signin == NULL)
    return;
  error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The window was closed"));
  close_dialogs_of (self);
  finish_reauth (self, FALSE, error);
  if (signin->whoami_cancellable != NULL)
    g_cancellable_cancel (signin->whoami_cancellable);
  g_clear_object (&signin->whoami_cancellable);
  g_free (signin->identity_text);
  g_free (signin);
  self->signin = NULL;
}

DynSignInBar *
dyn_window_get_sign_in_bar (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);

  return self->signin->bar;
}

GtkWindow *
dyn_window_get_sign_in_dialog (DynWindow *self)
{
  DynSignInPrompter *prompter = dyn_sign_in_get_default_prompter ();
  DynWindowPrompter *windows;

  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);

  if (!DYN_IS_WINDOW_PROMPTER (prompter))
    return NULL;
  windows = DYN_WINDOW_PROMPTER (prompter);
  if (windows->mfa_dialog != NULL && gtk_window_get_transient_for (GTK_WINDOW (windows->mfa_dialog)) == GTK_WINDOW (self))
    return GTK_WINDOW (windows->mfa_dialog);
  if (windows->device_dialog != NULL && gtk_window_get_transient_for (GTK_WINDOW (windows->device_dialog)) == GTK_WINDOW (self))
    return GTK_WINDOW (windows->device_dialog);
  return NULL;
}

const char *
dyn_window_get_identity_text (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);

  return self->signin->identity_text;
}
