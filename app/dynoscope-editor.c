/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-editor"
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "dyn-conflict-view.h"
#include "dyn-edit-session.h"
#include "dyn-item-editor.h"
#include "dyn-pager.h"
#include "dyn-staged-changes.h"
#include "dyn-table.h"
#include "dyn-value-format.h"

/* A table's items in a plain list with the editing widgets: in-place cell
 * edits, the JSON editor, duplicate, create, delete, the staged changes and
 * the conflict view. For trying the editing against an endpoint and for the
 * screenshots, until the main window carries these widgets. */

static char *opt_endpoint;
static char *opt_region;
static char *opt_table;
static char *opt_scene;
static char *opt_screenshot;
static gboolean opt_read_only;
static gboolean opt_demo_data;
static gboolean opt_dark;
static int opt_width = 1440;
static int opt_height = 900;

static const GOptionEntry options[] = {
  { "endpoint", 'e', 0, G_OPTION_ARG_STRING, &opt_endpoint,
    N_("Endpoint URL (default: http://localhost:8000)"), N_("URL") },
  { "region", 'r', 0, G_OPTION_ARG_STRING, &opt_region, N_("Signing region (default: us-east-1)"), N_("REGION") },
  { "table", 't', 0, G_OPTION_ARG_STRING, &opt_table, N_("The table (default: Workspaces)"), N_("TABLE") },
  { "read-only", 0, 0, G_OPTION_ARG_NONE, &opt_read_only, N_("Refuse every write"), NULL },
  { "demo-data", 0, 0, G_OPTION_ARG_NONE, &opt_demo_data,
    N_("Create the table when missing and write the demo items into it"), NULL },
  { "scene", 0, 0, G_OPTION_ARG_STRING, &opt_scene,
    N_("Stage example edits: “staged”, or “conflict” (a second writer changes an item first)"), N_("SCENE") },
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &opt_screenshot,
    N_("Render the window (the conflict window for the conflict scene) into a PNG file and quit"), N_("FILE") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, &opt_dark, N_("Use the dark style"), NULL },
  { "width", 0, 0, G_OPTION_ARG_INT, &opt_width, N_("Window width"), N_("PIXELS") },
  { "height", 0, 0, G_OPTION_ARG_INT, &opt_height, N_("Window height"), N_("PIXELS") },
  { NULL }
};

/* Items in the shape of the seeds: a workspace and its projects. */
static const char *demo_items[] = {
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"},\"Name\":{\"S\":\"Acme Corp\"},\"Plan\":{\"S\":\"enterprise\"},\"Owner\":{\"S\":\"owner@acme.example\"},\"Seats\":{\"N\":\"250\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0001\"},\"Name\":{\"S\":\"Website relaunch\"},\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"75606.97\"},\"Tags\":{\"SS\":[\"data\",\"web\"]},\"Owner\":{\"S\":\"lena@acme.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0002\"},\"Name\":{\"S\":\"Data lake\"},\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"65937.97\"},\"Tags\":{\"SS\":[\"infra\",\"ops\"]},\"Owner\":{\"S\":\"emre@acme.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0003\"},\"Name\":{\"S\":\"Mobile app\"},\"Status\":{\"S\":\"draft\"},\"Budget\":{\"N\":\"12000.50\"},\"Tags\":{\"SS\":[\"ios\"]},\"Owner\":{\"S\":\"lena@acme.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0004\"},\"Name\":{\"S\":\"Billing v2\"},\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"48250\"},\"Tags\":{\"SS\":[\"payments\"]},\"Owner\":{\"S\":\"jonas@acme.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#globex\"},\"Detail\":{\"S\":\"META\"},\"Name\":{\"S\":\"Globex\"},\"Plan\":{\"S\":\"free\"},\"Owner\":{\"S\":\"ayse@globex.example\"},\"Seats\":{\"N\":\"12\"}}",
  "{\"EntityRef\":{\"S\":\"WS#globex\"},\"Detail\":{\"S\":\"PROJ#2026-0010\"},\"Name\":{\"S\":\"Audit log\"},\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"9800\"},\"Tags\":{\"SS\":[\"security\"]},\"Owner\":{\"S\":\"ayse@globex.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#globex\"},\"Detail\":{\"S\":\"PROJ#2026-0011\"},\"Name\":{\"S\":\"SSO\"},\"Status\":{\"S\":\"draft\"},\"Budget\":{\"N\":\"15000\"},\"Owner\":{\"S\":\"can@globex.example\"}}",
};

typedef struct {
  AdwApplication     *app;
  DynClient          *client;
  DynTableKeys       *keys;
  DynCollectionModel *model;
  DynEditSession     *session;
  GtkWindow          *window;
  GtkSingleSelection *selection;
  AdwToastOverlay    *toasts;
  DynStagedChanges   *staged;
  GCancellable       *cancellable;
  GtkWindow          *shot_window;
  guint               frames;
  int                 status;
} Demo;

static void
fail (Demo       *demo,
      const char *what,
      GError     *error)
{
  g_printerr ("%s: %s: %s\n", g_get_prgname (), what, error->message);
  demo->status = 1;
  g_application_release (G_APPLICATION (demo->app));
}

static void
toast (Demo       *demo,
       const char *text)
{
  if (demo->toasts != NULL)
    adw_toast_overlay_add_toast (demo->toasts, adw_toast_new (text));
}

/* ------------------------------------------------------------------------ */
/* Screenshots */

static gboolean
save_screenshot (GtkWindow  *window,
                 const char *path,
                 GError    **error)
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
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "nothing was drawn");
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
  Demo *demo = user_data;
  g_autoptr(GError) error = NULL;

  /* A few frames let the layout and the fonts settle. */
  if (++demo->frames < 12)
    return G_SOURCE_CONTINUE;
  if (!save_screenshot (GTK_WINDOW (widget), opt_screenshot, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      demo->status = 1;
    }
  g_application_quit (G_APPLICATION (demo->app));
  return G_SOURCE_REMOVE;
}

static void
take_screenshot (Demo      *demo,
                 GtkWindow *window)
{
  if (opt_screenshot == NULL || demo->shot_window != NULL)
    return;
  demo->shot_window = window;
  demo->frames = 0;
  gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick_cb, demo, NULL);
}

/* ------------------------------------------------------------------------ */
/* The item list */

static DynItemObject *
selected_row (Demo *demo)
{
  return gtk_single_selection_get_selected_item (demo->selection);
}

static void
cell_editing_cb (GtkEditableLabel *label,
                 GParamSpec       *pspec,
                 Demo             *demo)
{
  DynItemObject *object = g_object_get_data (G_OBJECT (label), "row");
  const char *attribute = g_object_get_data (G_OBJECT (label), "attribute");
  const char *bound = g_object_get_data (G_OBJECT (label), "bound-text");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (label));
  g_autoptr(GError) error = NULL;

  if (gtk_editable_label_get_editing (label) || object == NULL || g_strcmp0 (text, bound) == 0)
    return;
  if (!dyn_edit_session_stage_cell_text (demo->session, object, attribute, text, &error))
    {
      toast (demo, error->message);
      gtk_editable_set_text (GTK_EDITABLE (label), bound);
    }
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               Demo                     *demo)
{
  GtkWidget *label = gtk_editable_label_new ("");

  gtk_editable_set_width_chars (GTK_EDITABLE (label), 6);
  g_signal_connect (label, "notify::editing", G_CALLBACK (cell_editing_cb), demo);
  gtk_list_item_set_child (item, label);
}

static void
update_cell (GtkWidget *label)
{
  Demo *demo = g_object_get_data (G_OBJECT (label), "demo");
  DynItemObject *object = g_object_get_data (G_OBJECT (label), "row");
  const char *attribute = g_object_get_data (G_OBJECT (label), "attribute");
  DynValue *value = dyn_value_map_lookup (dyn_item_object_get_item (object), attribute);
  DynItemState state = dyn_item_object_get_state (object);
  g_autofree char *text = value ? dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, 40) : g_strdup ("");
  DynValueType type = value ? dyn_value_get_value_type (value) : DYN_VALUE_S;
  const char *classes[] = { "accent", "success", "error", "dim-label", "heading" };

  g_object_set_data_full (G_OBJECT (label), "bound-text", g_strdup (text), g_free);
  gtk_editable_set_text (GTK_EDITABLE (label), text);
  gtk_editable_set_editable (GTK_EDITABLE (label),
                             state != DYN_ITEM_STATE_DELETED && type != DYN_VALUE_M && type != DYN_VALUE_L &&
                             type != DYN_VALUE_SS && type != DYN_VALUE_NS && type != DYN_VALUE_BS);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (label, classes[i]);
  if (state == DYN_ITEM_STATE_DELETED)
    gtk_widget_add_css_class (label, "error");
  else if (state == DYN_ITEM_STATE_ADDED)
    gtk_widget_add_css_class (label, "success");
  else if (dyn_edit_session_is_attribute_changed (demo->session, object, attribute))
    {
      gtk_widget_add_css_class (label, "accent");
      gtk_widget_add_css_class (label, "heading");
    }
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              Demo                     *demo)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  DynItemObject *object = gtk_list_item_get_item (item);

  g_object_set_data (G_OBJECT (label), "demo", demo);
  g_object_set_data_full (G_OBJECT (label), "row", g_object_ref (object), g_object_unref);
  g_object_set_data_full (G_OBJECT (label), "attribute",
                          g_strdup (g_object_get_data (G_OBJECT (factory), "attribute")), g_free);
  g_signal_connect_object (object, "notify::state", G_CALLBACK (update_cell), label, G_CONNECT_SWAPPED);
  update_cell (label);
}

static void
cell_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                Demo                     *demo)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  DynItemObject *object = gtk_list_item_get_item (item);

  g_signal_handlers_disconnect_by_func (object, update_cell, label);
  g_object_set_data (G_OBJECT (label), "row", NULL);
}

static void
mark_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

static void
update_mark (GtkLabel      *label,
             GParamSpec    *pspec,
             DynItemObject *object)
{
  static const struct { const char *text; const char *css; } marks[] = {
    { "", NULL }, { "+", "success" }, { "●", "accent" }, { "−", "error" },
  };
  DynItemState state = dyn_item_object_get_state (object);

  gtk_label_set_text (label, marks[state].text);
  gtk_widget_remove_css_class (GTK_WIDGET (label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (label), "accent");
  gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
  if (marks[state].css != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (label), marks[state].css);
}

static void
mark_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  DynItemObject *object = gtk_list_item_get_item (item);

  g_signal_connect_object (object, "notify::state", G_CALLBACK (update_mark), label, G_CONNECT_SWAPPED);
  update_mark (GTK_LABEL (label), NULL, object);
}

static void
mark_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  g_signal_handlers_disconnect_by_func (gtk_list_item_get_item (item), update_mark, gtk_list_item_get_child (item));
}

static GtkWidget *
build_list (Demo *demo)
{
  g_autoptr(GtkListItemFactory) mark_factory = gtk_signal_list_item_factory_new ();
  GtkWidget *view, *scrolled;
  const char * const *attributes;
  guint n_attributes;

  demo->selection = gtk_single_selection_new (g_object_ref (dyn_collection_model_get_flat_model (demo->model)));
  view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (demo->selection)));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), TRUE);
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (view), TRUE);

  g_signal_connect (mark_factory, "setup", G_CALLBACK (mark_setup_cb), NULL);
  g_signal_connect (mark_factory, "bind", G_CALLBACK (mark_bind_cb), NULL);
  g_signal_connect (mark_factory, "unbind", G_CALLBACK (mark_unbind_cb), NULL);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (view),
                                 g_object_ref_sink (gtk_column_view_column_new (NULL, g_object_ref (mark_factory))));

  attributes = dyn_collection_model_get_attributes (demo->model, &n_attributes);
  for (guint i = 0; i < n_attributes; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data_full (G_OBJECT (factory), "attribute", g_strdup (attributes[i]), g_free);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), demo);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), demo);
      g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind_cb), demo);
      column = gtk_column_view_column_new (attributes[i], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
    }

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_set_hexpand (scrolled, TRUE);
  return scrolled;
}

/* ------------------------------------------------------------------------ */
/* Actions */

static void
present_editor (Demo      *demo,
                GtkWidget *editor)
{
  gtk_window_set_transient_for (GTK_WINDOW (editor), demo->window);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
new_item_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  Demo *demo = user_data;

  present_editor (demo, dyn_item_editor_new_for_create (demo->session, NULL));
}

static void
edit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  Demo *demo = user_data;
  DynItemObject *row = selected_row (demo);

  if (row != NULL)
    present_editor (demo, dyn_item_editor_new (demo->session, row));
}

static void
duplicate_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  Demo *demo = user_data;
  DynItemObject *row = selected_row (demo);
  g_autoptr(DynValue) copy = NULL;

  if (row == NULL)
    return;
  copy = dyn_edit_session_dup_for_duplicate (demo->session, row);
  present_editor (demo, dyn_item_editor_new_for_create (demo->session, copy));
}

static void
delete_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  Demo *demo = user_data;
  DynItemObject *row = selected_row (demo);
  g_autoptr(GError) error = NULL;

  if (row != NULL && !dyn_edit_session_stage_delete (demo->session, row, &error))
    toast (demo, error->message);
}

static const GActionEntry win_actions[] = {
  { "new-item", new_item_activated },
  { "edit", edit_activated },
  { "duplicate", duplicate_activated },
  { "delete", delete_activated },
};

/* ------------------------------------------------------------------------ */
/* Scenes */

static DynItemObject *
row_for (Demo       *demo,
         const char *pk,
         const char *sk)
{
  g_autoptr(DynValue) key = dyn_value_new_map ();

  dyn_value_map_take (key, demo->keys->table.keys.partition_key, dyn_value_new_string (pk));
  dyn_value_map_take (key, demo->keys->table.keys.sort_key, dyn_value_new_string (sk));
  return dyn_collection_model_lookup (demo->model, key);
}

static void
stage_or_warn (gboolean ok,
               GError  *error)
{
  if (!ok)
    g_warning ("scene: %s", error->message);
}

static void
staged_scene (Demo *demo)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) created = NULL;
  g_autoptr(DynValue) tags = NULL;
  const char *new_tags[] = { "data", "web", "ml" };
  DynItemObject *row;

  row = row_for (demo, "WS#acme", "PROJ#2026-0001");
  stage_or_warn (dyn_edit_session_stage_cell_text (demo->session, row, "Status", "paused", &error), error);
  row = row_for (demo, "WS#acme", "PROJ#2026-0001");
  stage_or_warn (dyn_edit_session_stage_cell_text (demo->session, row, "Budget", "80000", &error), error);
  tags = dyn_value_new_string_set (new_tags, 3, NULL);
  row = row_for (demo, "WS#acme", "PROJ#2026-0001");
  stage_or_warn (dyn_edit_session_stage_attribute (demo->session, row, "Tags", tags, &error), error);

  created = dyn_item_from_ddb_json_string ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0099\"},"
                                           "\"Name\":{\"S\":\"Search\"},\"Status\":{\"S\":\"draft\"},"
                                           "\"Budget\":{\"N\":\"20000\"},\"Owner\":{\"S\":\"emre@acme.example\"}}",
                                           -1, NULL);
  stage_or_warn (dyn_edit_session_stage_create (demo->session, created, &error) != NULL, error);
  row = row_for (demo, "WS#acme", "PROJ#2026-0003");
  stage_or_warn (dyn_edit_session_stage_delete (demo->session, row, &error), error);
}

static void
conflict_update_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Demo *demo = user_data;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  if (response == NULL)
    {
      fail (demo, "the second writer", error);
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (demo->staged), "staged.commit", NULL);
}

static gboolean
conflict_window_cb (gpointer user_data)
{
  Demo *demo = user_data;
  DynConflictView *view = dyn_staged_changes_get_conflict_view (demo->staged);

  if (view == NULL)
    return G_SOURCE_CONTINUE;
  gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", "Budget", "server");
  take_screenshot (demo, GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
  return G_SOURCE_REMOVE;
}

static void
conflict_scene (Demo *demo)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autofree char *json = NULL;
  DynItemObject *row;

  row = row_for (demo, "WS#acme", "PROJ#2026-0002");
  stage_or_warn (dyn_edit_session_stage_cell_text (demo->session, row, "Status", "paused", &error), error);
  row = row_for (demo, "WS#acme", "PROJ#2026-0002");
  stage_or_warn (dyn_edit_session_stage_cell_text (demo->session, row, "Budget", "80000", &error), error);

  /* A second writer changes the item between staging and commit. */
  json = g_strdup_printf ("{\"TableName\":\"%s\",\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},"
                          "\"Detail\":{\"S\":\"PROJ#2026-0002\"}},"
                          "\"UpdateExpression\":\"SET #n = :n, #b = :b, #o = :o\","
                          "\"ExpressionAttributeNames\":{\"#n\":\"Name\",\"#b\":\"Budget\",\"#o\":\"Owner\"},"
                          "\"ExpressionAttributeValues\":{\":n\":{\"S\":\"Data lake (EU)\"},"
                          "\":b\":{\"N\":\"70000\"},\":o\":{\"S\":\"ayse@acme.example\"}}}",
                          demo->keys->table.name);
  params = json_from_string (json, NULL);
  dyn_client_call_async (demo->client, "UpdateItem", params, demo->cancellable, conflict_update_cb, demo);
  g_timeout_add (50, conflict_window_cb, demo);
}

/* ------------------------------------------------------------------------ */
/* Startup: demo data, DescribeTable, Scan, the window */

static void
build_window (Demo *demo)
{
  GtkWidget *window, *box, *header, *title, *paned, *button, *buttons;
  g_autofree char *subtitle = NULL;
  const struct { const char *label; const char *action; } header_buttons[] = {
    { N_("_New Item"), "win.new-item" },
    { N_("_Edit as JSON"), "win.edit" },
    { N_("D_uplicate"), "win.duplicate" },
    { N_("_Delete"), "win.delete" },
  };

  window = adw_application_window_new (GTK_APPLICATION (demo->app));
  demo->window = GTK_WINDOW (window);
  gtk_window_set_default_size (GTK_WINDOW (window), opt_width, opt_height);
  gtk_window_set_title (GTK_WINDOW (window), demo->keys->table.name);
  g_action_map_add_action_entries (G_ACTION_MAP (window), win_actions, G_N_ELEMENTS (win_actions), demo);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  subtitle = g_strdup_printf ("%s%s", dyn_client_get_endpoint (demo->client) ? dyn_client_get_endpoint (demo->client) : "",
                              opt_read_only ? _(" · read-only") : "");
  title = adw_window_title_new (demo->keys->table.name, subtitle);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  for (guint i = 0; i < G_N_ELEMENTS (header_buttons); i++)
    {
      button = gtk_button_new_with_mnemonic (_(header_buttons[i].label));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), header_buttons[i].action);
      gtk_box_append (GTK_BOX (buttons), button);
    }
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), buttons);
  gtk_box_append (GTK_BOX (box), header);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_paned_set_start_child (GTK_PANED (paned), build_list (demo));
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  demo->staged = DYN_STAGED_CHANGES (dyn_staged_changes_new (demo->session));
  gtk_widget_set_size_request (GTK_WIDGET (demo->staged), 560, -1);
  gtk_paned_set_end_child (GTK_PANED (paned), GTK_WIDGET (demo->staged));
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);

  demo->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (demo->toasts, paned);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (demo->toasts));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));

  if (g_strcmp0 (opt_scene, "staged") == 0)
    {
      staged_scene (demo);
      take_screenshot (demo, GTK_WINDOW (window));
    }
  else if (g_strcmp0 (opt_scene, "conflict") == 0)
    conflict_scene (demo);
  else
    take_screenshot (demo, GTK_WINDOW (window));
  /* The window holds the application from here on. */
  g_application_release (G_APPLICATION (demo->app));
}

static void
scan_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Demo *demo = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_pager_run_finish (DYN_PAGER (source), result, &error))
    {
      fail (demo, "Scan", error);
      return;
    }
  build_window (demo);
}

static void
describe_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Demo *demo = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) table = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;

  table = dyn_client_describe_table_finish (DYN_CLIENT (source), result, &demo->keys, &error);
  if (table == NULL)
    {
      fail (demo, "DescribeTable", error);
      return;
    }
  demo->model = dyn_collection_model_new_for_schema (&demo->keys->table.keys, FALSE);
  demo->session = dyn_edit_session_new (demo->client, demo->keys->table.name, &demo->keys->table.keys);
  dyn_edit_session_set_model (demo->session, demo->model);
  dyn_edit_session_set_read_only (demo->session, opt_read_only);

  request = dyn_request_new (DYN_OP_SCAN, demo->keys->table.name);
  request->consistent_read = TRUE;
  pager = dyn_pager_new (demo->client, request);
  dyn_pager_run_async (pager, 1, 0, dyn_collection_model_page_func, demo->model, demo->cancellable, scan_cb, demo);
}

static void
describe (Demo *demo)
{
  dyn_client_describe_table_async (demo->client, opt_table, demo->cancellable, describe_cb, demo);
}

static void
batch_write_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Demo *demo = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_client_batch_write_finish (DYN_CLIENT (source), result, NULL, &error))
    {
      fail (demo, "BatchWriteItem", error);
      return;
    }
  describe (demo);
}

static void
create_table_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Demo *demo = user_data;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  if (response == NULL && !g_error_matches (error, DYN_ERROR, DYN_ERROR_IN_USE))
    {
      fail (demo, "CreateTable", error);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (demo_items); i++)
    {
      DynValue *item = dyn_item_from_ddb_json_string (demo_items[i], -1, &error);

      g_assert (item != NULL);
      g_ptr_array_add (puts, item);
    }
  dyn_client_batch_write_async (demo->client, opt_table, puts, NULL, demo->cancellable, batch_write_cb, demo);
}

static void
activate_cb (GApplication *app,
             Demo         *demo)
{
  g_autoptr(DynCredentialsProvider) credentials = NULL;
  g_autoptr(GError) error = NULL;
  const char *access_key = g_getenv ("AWS_ACCESS_KEY_ID");
  const char *secret_key = g_getenv ("AWS_SECRET_ACCESS_KEY");

  if (demo->client != NULL)
    return;
  if (opt_dark)
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);

  credentials = dyn_credentials_provider_new_static (access_key ? access_key : "dynoscopedemo",
                                                     secret_key ? secret_key : "dynoscopedemo", NULL);
  demo->client = dyn_client_new (opt_endpoint ? opt_endpoint : "http://localhost:8000",
                                 opt_region ? opt_region : "us-east-1", credentials, &error);
  if (demo->client == NULL)
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      demo->status = 1;
      return;
    }
  dyn_client_set_read_only (demo->client, opt_read_only);
  demo->cancellable = g_cancellable_new ();

  /* Held until the window exists. */
  g_application_hold (app);
  if (opt_demo_data && !opt_read_only)
    {
      g_autoptr(JsonNode) params = dyn_create_table_params (opt_table, "EntityRef:S", "Detail:S", NULL, &error);

      dyn_client_call_async (demo->client, "CreateTable", params, demo->cancellable, create_table_cb, demo);
    }
  else
    describe (demo);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  Demo demo = { 0 };
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("DYN_LOCALEDIR") ? g_getenv ("DYN_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Edit a table’s items with guarded writes."));
  g_option_context_add_main_entries (context, options, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      return 2;
    }
  if (opt_table == NULL)
    opt_table = g_strdup ("Workspaces");

  demo.app = adw_application_new (APPLICATION_ID ".Editor", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (demo.app, "activate", G_CALLBACK (activate_cb), &demo);
  status = g_application_run (G_APPLICATION (demo.app), 1, argv);

  if (demo.cancellable != NULL)
    g_cancellable_cancel (demo.cancellable);
  g_clear_object (&demo.session);
  g_clear_object (&demo.model);
  g_clear_object (&demo.selection);
  g_clear_pointer (&demo.keys, dyn_table_keys_free);
  g_clear_object (&demo.client);
  g_clear_object (&demo.cancellable);
  g_clear_object (&demo.app);
  return status != 0 ? status : demo.status;
}
