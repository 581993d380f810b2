/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-application"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-application.h"
#include "dyn-connect.h"
#include "dyn-settings.h"
#include "dyn-window-signin.h"

struct _DynApplication
{
  AdwApplication      parent_instance;

  DynConnectionStore *store;
  DynWindowPrompter  *prompter;
};

G_DEFINE_FINAL_TYPE (DynApplication, dyn_application, ADW_TYPE_APPLICATION)

static const GOptionEntry options[] = {
  { "profile", 'p', 0, G_OPTION_ARG_STRING, NULL, N_("The AWS profile to connect with"), N_("PROFILE") },
  { "region", 'r', 0, G_OPTION_ARG_STRING, NULL, N_("The region"), N_("REGION") },
  { "endpoint", 'e', 0, G_OPTION_ARG_STRING, NULL,
    N_("An endpoint URL (DynamoDB Local, Alternator, LocalStack)"), N_("URL") },
  { "query", 'q', 0, G_OPTION_ARG_STRING, NULL,
    N_("Run this expression (the builder's text syntax) on the table"), N_("EXPR") },
  { "limit", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Items in the first page of a read (default: the page-size setting, 50); later pages are full"), N_("N") },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL, NULL, NULL },
  { NULL }
};

static gboolean
open_from_command_line (DynApplication  *self,
                        DynWindow       *window,
                        GVariantDict    *dict,
                        const char      *table,
                        GError         **error)
{
  const char *profile = NULL, *region = NULL, *endpoint = NULL;
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynConnection) connection = NULL;
  g_autofree char *name = NULL;

  g_variant_dict_lookup (dict, "profile", "&s", &profile);
  g_variant_dict_lookup (dict, "region", "&s", &region);
  g_variant_dict_lookup (dict, "endpoint", "&s", &endpoint);

  if (profile == NULL && region == NULL && endpoint == NULL)
    {
      /* The connection and table of last time, unless a table was named. */
      g_autoptr(GSettings) settings = dyn_settings_new ();
      g_autofree char *last = settings ? g_settings_get_string (settings, "last-connection") : g_strdup ("");
      g_autofree char *last_table = settings ? g_settings_get_string (settings, "last-table") : g_strdup ("");
      DynConnection *stored = *last ? dyn_connection_store_lookup (self->store, last) : NULL;

      if (stored == NULL && table != NULL)
        stored = dyn_connection_store_lookup (self->store, "profile:default");
      if (stored != NULL)
        {
          dyn_window_open_connection (window, stored);
          if (table != NULL || *last_table)
            dyn_window_open_table (window, table ? table : last_table);
        }
      return TRUE;
    }

  client = dyn_connect (profile, region, endpoint, FALSE, error);
  if (client == NULL)
    return FALSE;
  name = endpoint ? g_strdup (endpoint) : g_strdup_printf ("%s (%s)", profile ? profile : "default",
                                                           dyn_client_get_region (client));
  connection = dyn_connection_new (name);
  dyn_connection_set_region (connection, dyn_client_get_region (client));
  dyn_connection_set_endpoint_url (connection, endpoint);
  dyn_connection_set_profile_name (connection, profile);
  dyn_window_add_connection (window, connection, client);
  if (table != NULL)
    dyn_window_open_table (window, table);
  return TRUE;
}

static int
dyn_application_command_line (GApplication            *app,
                              GApplicationCommandLine *command_line)
{
  DynApplication *self = DYN_APPLICATION (app);
  GVariantDict *dict = g_application_command_line_get_options_dict (command_line);
  g_autofree const char **rest = NULL;
  g_autoptr(GError) error = NULL;
  DynWindow *window;
  int limit = 0;

  g_variant_dict_lookup (dict, G_OPTION_REMAINING, "^a&s", &rest);
  if (rest != NULL && rest[0] != NULL && rest[1] != NULL)
    {
      g_application_command_line_printerr (command_line, "%s\n", _("Give at most one table"));
      return 2;
    }

  window = dyn_application_new_window (self);
  {
    const char *query = NULL;

    if (g_variant_dict_lookup (dict, "query", "&s", &query))
      dyn_window_set_initial_query (window, query);
  }
  if (g_variant_dict_lookup (dict, "limit", "i", &limit) && limit > 0)
    dyn_window_set_page_limit (window, limit);
  if (!open_from_command_line (self, window, dict, rest ? rest[0] : NULL, &error))
    {
      g_application_command_line_printerr (command_line, "dynoscope: %s\n", error->message);
      gtk_window_destroy (GTK_WINDOW (window));
      return 1;
    }
  gtk_window_present (GTK_WINDOW (window));
  return 0;
}

static void
dyn_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (dyn_application_new_window (DYN_APPLICATION (app)));
  gtk_window_present (window);
}

/* Ctrl+Q closes every window as its close button does: each saves its
 * size, and one with staged changes asks first (commit, discard, cancel).
 * The application ends with its last window, so it ends now only when
 * nothing asked. */
static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free_full (windows, g_object_unref);
  if (gtk_application_get_windows (app) == NULL)
    g_application_quit (G_APPLICATION (app));
}

static void
shortcuts_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  if (window != NULL)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *developers[] = { "The Dynoscope authors", NULL };

  adw_show_about_window (window,
                         "application-name", "Dynoscope",
                         "application-icon", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Browse DynamoDB tables by item collection, build queries visually and edit items safely"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "shortcuts", shortcuts_action },
  { "about", about_action },
};

static void
dyn_application_startup (GApplication *app)
{
  DynApplication *self = DYN_APPLICATION (app);
  g_autoptr(GError) error = NULL;
  const char *quit_accels[] = { "<Control>q", NULL };
  const char *shortcuts_accels[] = { "<Control>question", NULL };

  G_APPLICATION_CLASS (dyn_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.shortcuts", shortcuts_accels);

  /* MFA codes and the IAM Identity Center device flow are asked in the windows. */
  self->prompter = dyn_window_prompter_new (GTK_APPLICATION (app));
  dyn_sign_in_set_default_prompter (DYN_SIGN_IN_PROMPTER (self->prompter));

  self->store = dyn_connection_store_new (g_getenv ("DYN_CONNECTIONS_FILE"));
  if (!dyn_connection_store_load (self->store, &error))
    g_warning ("Could not read the connections: %s", error->message);
}

static void
dyn_application_finalize (GObject *object)
{
  DynApplication *self = DYN_APPLICATION (object);

  g_clear_object (&self->store);
  if (dyn_sign_in_get_default_prompter () == DYN_SIGN_IN_PROMPTER (self->prompter))
    dyn_sign_in_set_default_prompter (NULL);
  g_clear_object (&self->prompter);

  G_OBJECT_CLASS (dyn_application_parent_class)->finalize (object);
}

static void
dyn_application_class_init (DynApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = dyn_application_finalize;
  app_class->startup = dyn_application_startup;
  app_class->activate = dyn_application_activate;
  app_class->command_line = dyn_application_command_line;
}

static void
dyn_application_init (DynApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[TABLE]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Opens DynamoDB tables grouped by item collection."));
}

DynApplication *
dyn_application_new (GApplicationFlags flags)
{
  return g_object_new (DYN_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", flags | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/dynoscope/Dynoscope",
                       NULL);
}

DynConnectionStore *
dyn_application_get_store (DynApplication *self)
{
  g_return_val_if_fail (DYN_IS_APPLICATION (self), NULL);

  return self->store;
}

DynWindow *
dyn_application_new_window (DynApplication *self)
{
  g_return_val_if_fail (DYN_IS_APPLICATION (self), NULL);

  return dyn_window_new (GTK_APPLICATION (self), self->store);
}
