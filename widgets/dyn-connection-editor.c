/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-connection-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-connection-editor.h"

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
