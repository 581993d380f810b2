/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-application"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-application.h"
#include "dyn-connect.h"
#include "dyn-settings.h"

struct _DynApplication
{
  AdwApplication      parent_instance;

  DynConnectionStore *store;

  /* --screenshot */
  char               *screenshot;
  int                 select_row;
  char               *detail_view;
  char               *scene;
  GtkWindow          *shot_main;     /* destroyed with the shot window */
  guint               settle_frames;
  gulong              busy_handler;
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
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Save the window as a PNG file once the table is loaded, then quit"), N_("FILE") },
  { "select-row", 0, 0, G_OPTION_ARG_INT, NULL, N_("Select this row, counted from the end when negative (for --screenshot)"), N_("N") },
  { "detail-view", 0, 0, G_OPTION_ARG_STRING, NULL, N_("tree, json or ddb-json (for --screenshot)"), N_("VIEW") },
  { "scene", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Stage example edits before the screenshot: “staged”, or “conflict” (a second writer changes an item first)"),
    N_("SCENE") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Use the dark style"), NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL, NULL, N_("[TABLE]") },
  { NULL }
};

gboolean
dyn_window_save_png (GtkWindow   *window,
                     const char  *path,
                     GError     **error)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, "nothing was drawn");
      return FALSE;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "could not write %s", path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
screenshot_tick_cb (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       user_data)
{
  DynApplication *self = DYN_APPLICATION (user_data);
  g_autoptr(GError) error = NULL;

  /* Let the layout, the row widgets and the fonts settle for a few frames. */
  if (++self->settle_frames < 12)
    return G_SOURCE_CONTINUE;
  if (!dyn_window_save_png (GTK_WINDOW (widget), self->screenshot, &error))
    {
      /* A frame in the middle of a relayout has no render node yet. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PENDING) && self->settle_frames < 240)
        return G_SOURCE_CONTINUE;
      g_printerr ("%s (frame %u)\n", error->message, self->settle_frames);
    }
  if (self->shot_main != NULL && self->shot_main != GTK_WINDOW (widget))
    gtk_window_destroy (self->shot_main);
  gtk_window_destroy (GTK_WINDOW (widget));
  return G_SOURCE_REMOVE;
}

/* Scenes for the editing screenshots, on the demo data (data/demo). */

static DynItemObject *
scene_row (DynWindow  *window,
           const char *pk,
           const char *sk)
{
  const DynTableKeys *keys = dyn_window_get_table_keys (window);
  g_autoptr(DynValue) key = dyn_value_new_map ();

  dyn_value_map_take (key, keys->table.keys.partition_key, dyn_value_new_string (pk));
  dyn_value_map_take (key, keys->table.keys.sort_key, dyn_value_new_string (sk));
  return dyn_collection_model_lookup (dyn_window_get_model (window), key);
}

static void
scene_check (gboolean  ok,
             GError   *error)
{
  if (!ok)
    g_printerr ("scene: %s\n", error ? error->message : "no such row");
}

/* Room for the staged list: the builder closed, the key columns (the Item
 * column shows the key) hidden. */
static void
scene_layout (DynWindow *window)
{
  const char *shown[] = { "Name", "Status", "Budget", "Tags", NULL };
  g_auto(GStrv) columns = dyn_item_grid_dup_column_names (dyn_window_get_grid (window));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-builder", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  for (guint i = 0; columns[i] != NULL; i++)
    dyn_item_grid_set_column_visible (dyn_window_get_grid (window), columns[i],
                                      g_strv_contains (shown, columns[i]));
}

static void
staged_scene (DynWindow *window)
{
  DynEditSession *session = dyn_window_get_edit_session (window);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) created = NULL;
  g_autoptr(DynValue) tags = NULL;
  const char *new_tags[] = { "data", "web", "ml" };
  DynItemObject *row;

  row = scene_row (window, "WS#acme", "PROJ#2026-0001");
  scene_check (row && dyn_edit_session_stage_cell_text (session, row, "Status", "paused", &error), error);
  row = scene_row (window, "WS#acme", "PROJ#2026-0001");
  scene_check (row && dyn_edit_session_stage_cell_text (session, row, "Budget", "80000", &error), error);
  tags = dyn_value_new_string_set (new_tags, 3, NULL);
  row = scene_row (window, "WS#acme", "PROJ#2026-0001");
  scene_check (row && dyn_edit_session_stage_attribute (session, row, "Tags", tags, &error), error);
  /* A duplicate: sorted right after its original. */
  row = scene_row (window, "WS#acme", "PROJ#2026-0004");
  if (row != NULL)
    {
      created = dyn_edit_session_dup_for_duplicate (session, row);
      dyn_value_map_take (created, "Name", dyn_value_new_string ("Search"));
      dyn_value_map_take (created, "Status", dyn_value_new_string ("draft"));
      scene_check (dyn_edit_session_stage_create (session, created, &error) != NULL, error);
    }
  row = scene_row (window, "WS#acme", "PROJ#2026-0003");
  scene_check (row && dyn_edit_session_stage_delete (session, row, &error), error);
  scene_layout (window);
  row = scene_row (window, "WS#acme", "PROJ#2026-0001");
  if (row != NULL)
    dyn_item_grid_select_item (dyn_window_get_grid (window), row, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-changes", NULL);
}

static gboolean
conflict_window_cb (gpointer user_data)
{
  DynApplication *self = DYN_APPLICATION (user_data);
  DynWindow *window = DYN_WINDOW (self->shot_main);
  DynConflictView *view = dyn_staged_changes_get_conflict_view (dyn_window_get_staged_changes (window));

  if (view == NULL)
    return G_SOURCE_CONTINUE;
  gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", "Budget", "server");
  self->settle_frames = 0;
  gtk_widget_add_tick_callback (gtk_widget_get_root (GTK_WIDGET (view)) ? GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (view)))
                                                                        : GTK_WIDGET (window),
                                screenshot_tick_cb, self, NULL);
  return G_SOURCE_REMOVE;
}

static void
conflict_update_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(DynApplication) self = user_data;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  if (response == NULL)
    {
      g_printerr ("scene: the second writer: %s\n", error->message);
      gtk_window_destroy (self->shot_main);
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (self->shot_main), "win.commit-changes", NULL);
  g_timeout_add (50, conflict_window_cb, self);
}

static void
conflict_scene (DynApplication *self,
                DynWindow      *window)
{
  DynEditSession *session = dyn_window_get_edit_session (window);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autofree char *json = NULL;
  DynItemObject *row;

  scene_layout (window);
  row = scene_row (window, "WS#acme", "PROJ#2026-0002");
  scene_check (row && dyn_edit_session_stage_cell_text (session, row, "Status", "paused", &error), error);
  row = scene_row (window, "WS#acme", "PROJ#2026-0002");
  scene_check (row && dyn_edit_session_stage_cell_text (session, row, "Budget", "80000", &error), error);

  /* A second writer changes the item between staging and commit. */
  json = g_strdup_printf ("{\"TableName\":\"%s\",\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},"
                          "\"Detail\":{\"S\":\"PROJ#2026-0002\"}},"
                          "\"UpdateExpression\":\"SET #n = :n, #b = :b, #o = :o\","
                          "\"ExpressionAttributeNames\":{\"#n\":\"Name\",\"#b\":\"Budget\",\"#o\":\"Owner\"},"
                          "\"ExpressionAttributeValues\":{\":n\":{\"S\":\"Data lake (EU)\"},"
                          "\":b\":{\"N\":\"70000\"},\":o\":{\"S\":\"ayse@acme.example\"}}}",
                          dyn_window_get_table (window));
  params = json_from_string (json, NULL);
  dyn_client_call_async (dyn_window_get_client (window), "UpdateItem", params, NULL, conflict_update_cb,
                         g_object_ref (self));
}

static void
screenshot_busy_cb (DynWindow      *window,
                    GParamSpec     *pspec,
                    DynApplication *self)
{
  if (dyn_window_is_busy (window) || dyn_window_get_pager (window) == NULL)
    {
      if (dyn_window_get_error_text (window) == NULL || dyn_window_is_busy (window))
        return;
    }
  g_clear_signal_handler (&self->busy_handler, window);
  if (self->select_row != G_MININT)
    {
      guint n = g_list_model_get_n_items (dyn_item_grid_get_rows (dyn_window_get_grid (window)));
      /* Negative: from the end. */
      int row = self->select_row < 0 ? (int) n + self->select_row : self->select_row;

      if (row >= 0 && row < (int) n)
        dyn_item_grid_select_row (dyn_window_get_grid (window), row);
    }
  if (self->detail_view != NULL)
    dyn_item_detail_set_view (dyn_window_get_detail (window), self->detail_view);
  self->shot_main = GTK_WINDOW (window);
  if (g_strcmp0 (self->scene, "conflict") == 0 && dyn_window_get_edit_session (window) != NULL)
    {
      conflict_scene (self, window);
      return;
    }
  if (g_strcmp0 (self->scene, "staged") == 0 && dyn_window_get_edit_session (window) != NULL)
    staged_scene (window);
  gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick_cb, self, NULL);
}

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
  if (g_variant_dict_contains (dict, "dark"))
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);

  window = dyn_application_new_window (self);
  {
    const char *query = NULL;

    if (g_variant_dict_lookup (dict, "query", "&s", &query))
      dyn_window_set_initial_query (window, query);
  }
  if (g_variant_dict_lookup (dict, "limit", "i", &limit) && limit > 0)
    dyn_window_set_page_limit (window, limit);
  if (g_variant_dict_lookup (dict, "screenshot", "^ay", &self->screenshot))
    {
      self->select_row = G_MININT;
      g_variant_dict_lookup (dict, "select-row", "i", &self->select_row);
      g_variant_dict_lookup (dict, "detail-view", "s", &self->detail_view);
      g_variant_dict_lookup (dict, "scene", "s", &self->scene);
      /* The same size for every screenshot, whatever the settings say. */
      gtk_window_set_default_size (GTK_WINDOW (window), 1440, 900);
      self->busy_handler = g_signal_connect (window, "notify::busy", G_CALLBACK (screenshot_busy_cb), self);
    }
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

  self->store = dyn_connection_store_new (g_getenv ("DYN_CONNECTIONS_FILE"));
  if (!dyn_connection_store_load (self->store, &error))
    g_warning ("Could not read the connections: %s", error->message);
}

static void
dyn_application_finalize (GObject *object)
{
  DynApplication *self = DYN_APPLICATION (object);

  g_clear_object (&self->store);
  g_free (self->screenshot);
  g_free (self->detail_view);
  g_free (self->scene);

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
  self->select_row = G_MININT;
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
