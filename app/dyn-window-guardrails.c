/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's guardrails for production connections: the coloured header
 * with "PRODUCTION", read-only by default, the time-limited unlock with its
 * countdown, the confirmation before every write (DynGuardrail's confirm
 * function), and the hint when DynamoDB Local lists no tables. */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-connection-sidebar.h"
#include "dyn-guardrail.h"
#include "dyn-window-private.h"
#include "dyn-write-confirm-dialog.h"

struct _DynWindowGuardrails
{
  DynGuardrail  *guardrail;
  DynConnection *connection;     /* the one the guardrail is for; weak by id check */
  GtkWidget     *badge;          /* the header's "PRODUCTION" box */
  GtkWidget     *label;
  GtkWidget     *unlock_button;
  GtkWidget     *confirm_dialog; /* weak: the question open now */
  char          *empty_hint;     /* why the connection lists no tables, or NULL */
  guint          tick_id;
  gboolean       syncing;
  GSimpleActionGroup *actions;   /* "guard": production-mode (s), production-patterns */
};

static gboolean
connection_production (DynWindow     *self,
                       DynConnection *connection)
{
  g_auto(GStrv) patterns = NULL;

  if (connection == NULL)
    return FALSE;
  if (self->settings != NULL)
    patterns = g_settings_get_strv (self->settings, "production-patterns");
  return dyn_connection_is_production (connection, (const char * const *) patterns, NULL);
}

gboolean
_dyn_window_is_read_only (DynWindow *self)
{
  if (self->connection != NULL && dyn_connection_get_read_only (self->connection))
    return TRUE;
  return self->guardrails != NULL && dyn_guardrail_get_locked (self->guardrails->guardrail);
}

DynGuardrail *
_dyn_window_get_guardrail (DynWindow *self)
{
  return self->guardrails->guardrail;
}

DynGuardrail *
dyn_window_get_guardrail (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->guardrails->guardrail;
}

GtkWidget *
dyn_window_get_write_confirm_dialog (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->guardrails->confirm_dialog;
}

static void
format_remaining (GString *s,
                  guint    seconds)
{
  g_string_append_printf (s, "%u:%02u", seconds / 60, seconds % 60);
}

static void
update_badge (DynWindow *self)
{
  DynWindowGuardrails *g = self->guardrails;
  gboolean production = dyn_guardrail_get_production (g->guardrail);
  gboolean unlocked = dyn_guardrail_get_unlocked (g->guardrail);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *tooltip = NULL;

  gtk_widget_set_visible (g->badge, production);
  if (production)
    gtk_widget_add_css_class (GTK_WIDGET (self), "dyn-production");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "dyn-production");
  if (!production)
    return;

  if (unlocked)
    {
      /* Translators: the header's countdown; %s is minutes:seconds ("14:32") */
      g_string_append (text, _("Writes unlocked · "));
      format_remaining (text, dyn_guardrail_get_remaining_seconds (g->guardrail));
      gtk_button_set_label (GTK_BUTTON (g->unlock_button), text->str);
      gtk_widget_set_tooltip_text (g->unlock_button, _("Lock writes again now"));
      gtk_widget_add_css_class (GTK_WIDGET (self), "dyn-production-unlocked");
    }
  else
    {
      guint minutes = MAX (1, (dyn_guardrail_get_unlock_seconds (g->guardrail) + 59) / 60);

      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Unlock Writes for %u Minute",
                                                 "Unlock Writes for %u Minutes", minutes), minutes);
      gtk_button_set_label (GTK_BUTTON (g->unlock_button), text->str);
      tooltip = g_strdup (_("This connection is production: it is read-only until you unlock writes"));
      gtk_widget_set_tooltip_text (g->unlock_button, tooltip);
      gtk_widget_remove_css_class (GTK_WIDGET (self), "dyn-production-unlocked");
    }
}

static gboolean
tick_cb (gpointer user_data)
{
  DynWindow *self = user_data;

  update_badge (self);
  return G_SOURCE_CONTINUE;
}

/* The read-only state of every session of the window and of the client. */
static void
apply_read_only (DynWindow *self)
{
  gboolean read_only = _dyn_window_is_read_only (self);
  GHashTableIter iter;
  gpointer value;

  if (self->client != NULL)
    dyn_client_set_read_only (self->client, read_only);
  if (self->session != NULL)
    dyn_edit_session_set_read_only (self->session, read_only);
  g_hash_table_iter_init (&iter, self->states);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      DynTableState *state = value;

      if (state->session != NULL)
        dyn_edit_session_set_read_only (DYN_EDIT_SESSION (state->session), read_only);
    }
}

static void
locked_changed_cb (DynGuardrail *guardrail,
                   GParamSpec   *pspec,
                   DynWindow    *self)
{
  DynWindowGuardrails *g = self->guardrails;

  if (dyn_guardrail_get_unlocked (guardrail) && g->tick_id == 0)
    g->tick_id = g_timeout_add_seconds (1, tick_cb, self);
  else if (!dyn_guardrail_get_unlocked (guardrail))
    g_clear_handle_id (&g->tick_id, g_source_remove);
  /* An unlock that ran out closes the question: nothing is written. */
  if (dyn_guardrail_get_locked (guardrail) && g->confirm_dialog != NULL)
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (g->confirm_dialog), "cancel");
  update_badge (self);
  apply_read_only (self);
  if (!g->syncing)
    _dyn_window_update_actions (self);
}

void _dyn_window_guardrails_watch (DynWindow *self, DynConnection *connection);
static void sync_mode_action (DynWindow *self);

void
_dyn_window_guardrails_sync (DynWindow *self)
{
  DynWindowGuardrails *g = self->guardrails;
  gboolean production;

  if (g == NULL || g->syncing)
    return;
  g->syncing = TRUE;
  /* Another connection starts locked, also when both are production. */
  _dyn_window_guardrails_watch (self, self->connection);
  if (g->connection != self->connection)
    {
      g->connection = self->connection;
      g_clear_pointer (&g->empty_hint, g_free);
      dyn_guardrail_set_production (g->guardrail, FALSE);
    }
  production = connection_production (self, self->connection);
  dyn_guardrail_set_production (g->guardrail, production);
  update_badge (self);
  apply_read_only (self);
  sync_mode_action (self);
  g->syncing = FALSE;
}

void
_dyn_window_guardrails_attach_session (DynWindow      *self,
                                       DynEditSession *session)
{
  dyn_edit_session_set_guardrail (session, self->guardrails->guardrail);
  dyn_edit_session_set_read_only (session, _dyn_window_is_read_only (self));
}

/* The confirmation ------------------------------------------------------------- */

static void
confirm_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     gpointer          user_data)
{
  g_autoptr(GTask) request = g_object_steal_data (G_OBJECT (dialog), "dyn-request");
  DynWindow *self = DYN_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));
  gboolean confirmed = g_strcmp0 (response, "write") == 0;

  if (request == NULL)
    return;
  if (!confirmed && self != NULL)
    _dyn_window_set_status (self, _("Cancelled: nothing was written"));
  dyn_guardrail_reply (request, confirmed);
}

static void
confirm_cb (DynGuardrail    *guardrail,
            DynWriteSummary *summary,
            GTask           *request,
            gpointer         user_data)
{
  DynWindow *self = user_data;
  DynWindowGuardrails *g = self->guardrails;
  GtkWidget *dialog;

  /* One question at a time: a second write while one is asked is refused. */
  if (g->confirm_dialog != NULL)
    {
      dyn_guardrail_reply (request, FALSE);
      return;
    }
  dialog = dyn_write_confirm_dialog_new (GTK_WINDOW (self), summary);
  g_object_set_data_full (G_OBJECT (dialog), "dyn-request", g_object_ref (request), g_object_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (confirm_response_cb), NULL);
  g->confirm_dialog = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &g->confirm_dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Starts a write that is not a commit of staged changes (import, truncate,
 * delete table …): @then runs with the guardrail's answer. */
void
_dyn_window_approve_write (DynWindow           *self,
                           DynWriteSummary     *summary,
                           GAsyncReadyCallback  then,
                           gpointer             user_data)
{
  dyn_guardrail_approve_async (self->guardrails->guardrail, summary, self->cancellable, then, user_data);
}

typedef struct {
  DynWindow          *self;
  DynWindowWriteFunc  func;
  gpointer            data;
  GDestroyNotify      destroy;
} GuardedWrite;

static void
guarded_approved_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GuardedWrite *w = user_data;
  g_autoptr(GError) error = NULL;

  if (dyn_guardrail_approve_finish (DYN_GUARDRAIL (source), result, &error))
    w->func (w->self, w->data);
  else if (g_error_matches (error, DYN_ERROR, DYN_ERROR_READ_ONLY))
    _dyn_window_refuse_read_only (w->self);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _dyn_window_show_error (w->self, _("The write"), error);
  if (w->destroy != NULL)
    w->destroy (w->data);
  g_object_unref (w->self);
  g_free (w);
}

void
_dyn_window_guard_write (DynWindow          *self,
                         DynWriteSummary    *summary,
                         DynWindowWriteFunc  func,
                         gpointer            data,
                         GDestroyNotify      destroy)
{
  GuardedWrite *w;

  /* Not production: the write starts now, as it always did. */
  if (!dyn_guardrail_get_production (self->guardrails->guardrail))
    {
      func (self, data);
      if (destroy != NULL)
        destroy (data);
      return;
    }
  w = g_new0 (GuardedWrite, 1);
  w->self = g_object_ref (self);
  w->func = func;
  w->data = data;
  w->destroy = destroy;
  dyn_guardrail_approve_async (self->guardrails->guardrail, summary, NULL, guarded_approved_cb, w);
}

/* Unlock and lock ---------------------------------------------------------------- */

static void
unlock_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  if (g_strcmp0 (response, "unlock") == 0)
    dyn_guardrail_unlock (self->guardrails->guardrail);
}

static void
unlock_writes_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynGuardrail *guardrail = self->guardrails->guardrail;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;
  guint minutes;

  if (!dyn_guardrail_get_production (guardrail))
    return;
  if (dyn_guardrail_get_unlocked (guardrail))
    {
      dyn_guardrail_lock (guardrail);
      return;
    }
  minutes = MAX (1, (dyn_guardrail_get_unlock_seconds (guardrail) + 59) / 60);
  heading = g_strdup_printf (_("Unlock Writes to “%s”?"),
                             self->connection ? dyn_connection_get_name (self->connection) : "");
  body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "This is a production connection. For %u minute, writes are allowed; "
                                       "each one is shown with its tables, keys, guard and estimated cost "
                                       "and sent only when you confirm it. Then writes lock again by themselves.",
                                       "This is a production connection. For %u minutes, writes are allowed; "
                                       "each one is shown with its tables, keys, guard and estimated cost "
                                       "and sent only when you confirm it. Then writes lock again by themselves.",
                                       minutes), minutes);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "unlock", _("_Unlock Writes"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "unlock", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (unlock_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
lock_writes_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  dyn_guardrail_lock (DYN_WINDOW (widget)->guardrails->guardrail);
}

/* DynamoDB Local's per-key databases --------------------------------------------- */

void
_dyn_window_guardrails_tables_listed (DynWindow *self)
{
  DynWindowGuardrails *g = self->guardrails;

  g_clear_pointer (&g->empty_hint, g_free);
  if (self->client != NULL && self->connection != NULL && (self->tables == NULL || self->tables[0] == NULL))
    g->empty_hint = dyn_local_no_tables_hint (dyn_client_get_endpoint (self->client),
                                              dyn_connection_get_client_access_key_id (self->client),
                                              dyn_client_get_region (self->client));
  if (g->empty_hint != NULL)
    dyn_connection_sidebar_set_status (self->sidebar, self->connection,
                                       _("No tables for this access key and region"));
  _dyn_window_update_actions (self);
}

const char *
_dyn_window_guardrails_get_empty_hint (DynWindow *self)
{
  DynWindowGuardrails *g = self->guardrails;

  /* Only for the connection whose tables were listed, while there are none. */
  if (g == NULL || g->empty_hint == NULL || self->client == NULL || (self->tables != NULL && self->tables[0] != NULL))
    return NULL;
  return g->empty_hint;
}

/* The Production menu ------------------------------------------------------------ */

static const char *
mode_nick (DynProductionMode mode)
{
  return mode == DYN_PRODUCTION_MODE_ON ? "on" : mode == DYN_PRODUCTION_MODE_OFF ? "off" : "auto";
}

static void
sync_mode_action (DynWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self->guardrails->actions), "production-mode");
  DynProductionMode mode = self->connection ? dyn_connection_get_production_mode (self->connection)
                                            : DYN_PRODUCTION_MODE_AUTO;

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->connection != NULL);
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (mode_nick (mode)));
}

static void
mode_saved_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_connection_store_update_finish (DYN_CONNECTION_STORE (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _dyn_window_show_error (self, _("Saving the connection"), error);
}

static void
production_mode_change_cb (GSimpleAction *action,
                           GVariant      *value,
                           gpointer       user_data)
{
  DynWindow *self = user_data;
  const char *nick = g_variant_get_string (value, NULL);
  DynProductionMode mode = g_str_equal (nick, "on") ? DYN_PRODUCTION_MODE_ON
                         : g_str_equal (nick, "off") ? DYN_PRODUCTION_MODE_OFF : DYN_PRODUCTION_MODE_AUTO;

  if (self->connection == NULL)
    return;
  g_simple_action_set_state (action, value);
  if (dyn_connection_get_production_mode (self->connection) == mode)
    return;
  dyn_connection_set_production_mode (self->connection, mode);
  if (dyn_connection_store_lookup (self->store, dyn_connection_get_id (self->connection)) == self->connection)
    dyn_connection_store_update_async (self->store, self->connection, NULL, NULL, self->cancellable,
                                       mode_saved_cb, g_object_ref (self));
}

static void
patterns_response_cb (AdwMessageDialog *dialog,
                      const char       *response,
                      DynWindow        *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "dyn-entry");
  g_auto(GStrv) parts = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) patterns = NULL;

  if (g_strcmp0 (response, "save") != 0 || self->settings == NULL)
    return;
  parts = g_strsplit (gtk_editable_get_text (entry), ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (*parts[i] != '\0')
        g_strv_builder_add (builder, parts[i]);
    }
  patterns = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "production-patterns", (const char * const *) patterns);
}

static void
production_patterns_cb (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  DynWindow *self = user_data;
  g_auto(GStrv) patterns = NULL;
  g_autofree char *text = NULL;
  GtkWidget *dialog, *entry;

  if (self->settings == NULL)
    return;
  patterns = g_settings_get_strv (self->settings, "production-patterns");
  text = g_strjoinv (", ", patterns);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Production Patterns"),
                                   _("A connection set to “Automatic” is production when its profile, its name or "
                                     "its account matches one of these patterns (* and ?, any case), separated by commas."));
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "save", _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "dyn-entry", entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (patterns_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Set-up ---------------------------------------------------------------------------- */

static void
patterns_changed_cb (GSettings  *settings,
                     const char *key,
                     DynWindow  *self)
{
  _dyn_window_guardrails_sync (self);
}

static void
unlock_minutes_changed_cb (GSettings  *settings,
                           const char *key,
                           DynWindow  *self)
{
  dyn_guardrail_set_unlock_seconds (self->guardrails->guardrail, g_settings_get_uint (settings, "unlock-minutes") * 60);
  update_badge (self);
}

static void
connection_notify_cb (DynConnection *connection,
                      GParamSpec    *pspec,
                      DynWindow     *self)
{
  if (connection == self->connection)
    _dyn_window_guardrails_sync (self);
}

void
_dyn_window_guardrails_init (DynWindow *self)
{
  DynWindowGuardrails *g = g_new0 (DynWindowGuardrails, 1);
  GtkWidget *header;

  self->guardrails = g;
  g->guardrail = dyn_guardrail_new ();
  dyn_guardrail_set_confirm_func (g->guardrail, confirm_cb, self, NULL);
  g_signal_connect (g->guardrail, "notify::locked", G_CALLBACK (locked_changed_cb), self);

  {
    static const GActionEntry entries[] = {
      { .name = "production-mode", .parameter_type = "s", .state = "'auto'", .change_state = production_mode_change_cb },
      { .name = "production-patterns", .activate = production_patterns_cb },
    };

    g->actions = g_simple_action_group_new ();
    g_action_map_add_action_entries (G_ACTION_MAP (g->actions), entries, G_N_ELEMENTS (entries), self);
    gtk_widget_insert_action_group (GTK_WIDGET (self), "guard", G_ACTION_GROUP (g->actions));
  }
  g->badge = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (g->badge, "dyn-production-badge");
  g->label = gtk_label_new (_("PRODUCTION"));
  gtk_widget_add_css_class (g->label, "dyn-production-label");
  gtk_box_append (GTK_BOX (g->badge), g->label);
  g->unlock_button = gtk_button_new ();
  gtk_actionable_set_action_name (GTK_ACTIONABLE (g->unlock_button), "win.unlock-writes");
  gtk_widget_add_css_class (g->unlock_button, "dyn-production-unlock");
  gtk_box_append (GTK_BOX (g->badge), g->unlock_button);
  gtk_widget_set_visible (g->badge, FALSE);
  header = gtk_widget_get_ancestor (GTK_WIDGET (self->window_title), ADW_TYPE_HEADER_BAR);
  if (header != NULL)
    adw_header_bar_pack_start (ADW_HEADER_BAR (header), g->badge);

  if (self->settings != NULL)
    {
      g_signal_connect_object (self->settings, "changed::production-patterns", G_CALLBACK (patterns_changed_cb),
                               self, 0);
      g_signal_connect_object (self->settings, "changed::unlock-minutes", G_CALLBACK (unlock_minutes_changed_cb),
                               self, 0);
      unlock_minutes_changed_cb (self->settings, "unlock-minutes", self);
    }
  update_badge (self);
  sync_mode_action (self);
}

/* Connections change their production setting, name or profile in the editor. */
void
_dyn_window_guardrails_watch (DynWindow     *self,
                              DynConnection *connection)
{
  if (connection == NULL || g_object_get_data (G_OBJECT (connection), "dyn-guardrails-watched") == self)
    return;
  g_object_set_data (G_OBJECT (connection), "dyn-guardrails-watched", self);
  g_signal_connect_object (connection, "notify::production-mode", G_CALLBACK (connection_notify_cb), self, 0);
  g_signal_connect_object (connection, "notify::name", G_CALLBACK (connection_notify_cb), self, 0);
  g_signal_connect_object (connection, "notify::profile-name", G_CALLBACK (connection_notify_cb), self, 0);
  g_signal_connect_object (connection, "notify::sso-account-id", G_CALLBACK (connection_notify_cb), self, 0);
}

void
_dyn_window_guardrails_dispose (DynWindow *self)
{
  DynWindowGuardrails *g = self->guardrails;

  if (g == NULL)
    return;
  g_clear_handle_id (&g->tick_id, g_source_remove);
  if (g->confirm_dialog != NULL)
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (g->confirm_dialog), "cancel");
  g_signal_handlers_disconnect_by_data (g->guardrail, self);
  dyn_guardrail_set_confirm_func (g->guardrail, NULL, NULL, NULL);
  g_clear_object (&g->guardrail);
  g_clear_object (&g->actions);
  g_free (g->empty_hint);
  g_free (g);
  self->guardrails = NULL;
}

void
_dyn_window_class_guardrails_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.unlock-writes", NULL, unlock_writes_action);
  gtk_widget_class_install_action (widget_class, "win.lock-writes", NULL, lock_writes_action);
}
