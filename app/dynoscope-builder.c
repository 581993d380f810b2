/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-builder"
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "dyn-expression-builder.h"
#include "dyn-table.h"
#include "dyn-widgets-enums.h"

/* The expression builder alone in a window: for trying expressions against a
 * key schema, for screenshots, and for the widget's manual testing. */

static char *opt_schema;
static char *opt_kind;
static char *opt_text;
static char *opt_index;
static char *opt_language;
static char *opt_screenshot;
static gboolean opt_dark;
static int opt_width = 1280;
static int opt_height = 800;

static const GOptionEntry options[] = {
  { "table-schema", 's', 0, G_OPTION_ARG_STRING, &opt_schema,
    N_("DescribeTable JSON (the response or its “Table” object); default: a demo schema"), N_("JSON") },
  { "kind", 'k', 0, G_OPTION_ARG_STRING, &opt_kind,
    N_("key, filter, condition, update or projection"), N_("KIND") },
  { "text", 't', 0, G_OPTION_ARG_STRING, &opt_text, N_("The expression to start with"), N_("EXPR") },
  { "index", 'i', 0, G_OPTION_ARG_STRING, &opt_index, N_("The index to read"), N_("NAME") },
  { "language", 'l', 0, G_OPTION_ARG_STRING, &opt_language,
    N_("Snippet language: cli, boto3, js, go or java"), N_("LANG") },
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &opt_screenshot,
    N_("Render the window into a PNG file and quit"), N_("FILE") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, &opt_dark, N_("Use the dark style"), NULL },
  { "width", 0, 0, G_OPTION_ARG_INT, &opt_width, N_("Window width"), N_("PIXELS") },
  { "height", 0, 0, G_OPTION_ARG_INT, &opt_height, N_("Window height"), N_("PIXELS") },
  { NULL }
};

static const struct {
  const char  *name;
  DynExprRole  role;
} kinds[] = {
  { "key", DYN_EXPR_ROLE_KEY_CONDITION },
  { "filter", DYN_EXPR_ROLE_FILTER },
  { "condition", DYN_EXPR_ROLE_CONDITION },
  { "update", DYN_EXPR_ROLE_UPDATE },
  { "projection", DYN_EXPR_ROLE_PROJECTION },
};

static DynTableKeys *
demo_table (void)
{
  DynTableKeys *table = dyn_table_keys_new ("Workspaces", "EntityRef", DYN_VALUE_S, "Detail", DYN_VALUE_S);

  dyn_table_keys_add_index (table, "GSI1", DYN_INDEX_GLOBAL, "GSI1PK", DYN_VALUE_S, "GSI1SK", DYN_VALUE_S,
                            DYN_PROJECTION_ALL);
  return table;
}

static DynTableKeys *
load_table (const char  *json,
            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;

  if (!json_parser_load_from_data (parser, json, -1, error))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("The table schema is not a JSON object"));
      return NULL;
    }
  object = json_node_get_object (json_parser_get_root (parser));
  if (json_object_has_member (object, "Table"))
    object = json_object_get_object_member (object, "Table");
  return dyn_table_keys_from_description (object, error);
}

typedef struct {
  GtkWindow *window;
  guint      frames;
  int        status;
} Screenshot;

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
  GskRenderer *renderer;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "nothing was drawn");
      return FALSE;
    }
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
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
  Screenshot *shot = user_data;
  g_autoptr(GError) error = NULL;

  /* A few frames let the layout and the fonts settle. */
  if (++shot->frames < 10)
    return G_SOURCE_CONTINUE;
  if (!save_screenshot (shot->window, opt_screenshot, &error))
    {
      g_printerr ("%s\n", error->message);
      shot->status = 1;
    }
  gtk_window_destroy (shot->window);
  return G_SOURCE_REMOVE;
}

static void
activate_cb (GtkApplication *app,
             gpointer        user_data)
{
  Screenshot *shot = user_data;
  g_autoptr(DynTableKeys) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkStringList) kind_names = gtk_string_list_new (NULL);
  DynExprRole role = DYN_EXPR_ROLE_KEY_CONDITION;
  GtkWidget *window, *box, *header, *title, *kind_dropdown, *builder;

  if (opt_dark)
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);

  table = opt_schema ? load_table (opt_schema, &error) : demo_table ();
  if (table == NULL)
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      shot->status = 1;
      return;
    }
  if (opt_kind != NULL)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
        if (g_ascii_strcasecmp (opt_kind, kinds[i].name) == 0)
          {
            role = kinds[i].role;
            found = TRUE;
          }
      if (!found)
        {
          g_printerr (_("%s: unknown kind “%s”\n"), g_get_prgname (), opt_kind);
          shot->status = 1;
          return;
        }
    }

  builder = dyn_expression_builder_new (role);
  dyn_expression_builder_set_table (DYN_EXPRESSION_BUILDER (builder), table);
  dyn_expression_builder_set_endpoint (DYN_EXPRESSION_BUILDER (builder), NULL, "us-east-1");
  if (opt_index != NULL)
    dyn_expression_builder_set_index (DYN_EXPRESSION_BUILDER (builder), opt_index);
  if (opt_language != NULL)
    {
      DynSnippetLanguage lang;

      if (!dyn_snippet_language_from_string (opt_language, &lang))
        {
          g_printerr (_("%s: unknown snippet language “%s”\n"), g_get_prgname (), opt_language);
          shot->status = 1;
          return;
        }
      dyn_expression_builder_set_snippet_language (DYN_EXPRESSION_BUILDER (builder), lang);
    }
  if (opt_text != NULL)
    dyn_expression_builder_set_text (DYN_EXPRESSION_BUILDER (builder), opt_text);

  window = adw_application_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), opt_width, opt_height);
  gtk_window_set_title (GTK_WINDOW (window), _("Expression Builder"));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  title = adw_window_title_new (_("Expression Builder"), table->table.name);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);

  gtk_string_list_append (kind_names, _("Key Condition"));
  gtk_string_list_append (kind_names, _("Filter"));
  gtk_string_list_append (kind_names, _("Condition"));
  gtk_string_list_append (kind_names, _("Update"));
  gtk_string_list_append (kind_names, _("Projection"));
  kind_dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (kind_names)), NULL);
  gtk_widget_set_tooltip_text (kind_dropdown, _("Expression kind"));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (kind_dropdown), role);
  /* DynExprRole counts in the same order as the drop-down. */
  g_object_bind_property (kind_dropdown, "selected", builder, "kind", G_BINDING_BIDIRECTIONAL);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), kind_dropdown);

  gtk_box_append (GTK_BOX (box), header);
  gtk_widget_set_vexpand (builder, TRUE);
  gtk_box_append (GTK_BOX (box), builder);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);

  if (opt_screenshot != NULL)
    {
      shot->window = GTK_WINDOW (window);
      gtk_widget_add_tick_callback (window, screenshot_tick_cb, shot, NULL);
    }
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(AdwApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  Screenshot shot = { 0 };
  int status;

  setlocale (LC_ALL, "");
  /* DYN_LOCALEDIR: translations of an uninstalled build. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("DYN_LOCALEDIR") ? g_getenv ("DYN_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Build a DynamoDB expression from rows or text."));
  g_option_context_add_main_entries (context, options, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      return 2;
    }

  app = adw_application_new (APPLICATION_ID ".Builder", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), &shot);
  status = g_application_run (G_APPLICATION (app), 1, argv);
  return status != 0 ? status : shot.status;
}
