/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-settings"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "dyn-settings-resources.h"
#include "dyn-settings.h"

#define COMPILED_SCHEMA "/io/github/dynoscope/Dynoscope/schema/gschemas.compiled"

/* A schema source can only be read from a directory: the compiled schema is
 * written to a private one, mapped, and the files removed again (the mapping
 * outlives them). */
static GSettingsSchema *
load_builtin_schema (GError **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GSettingsSchemaSource) source = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  GSettingsSchema *schema = NULL;
  gsize len;
  const char *data;

  bytes = g_resource_lookup_data (dyn_settings_get_resource (), COMPILED_SCHEMA,
                                  G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  dir = g_dir_make_tmp ("dynoscope-schema-XXXXXX", error);
  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, "gschemas.compiled", NULL);
  data = g_bytes_get_data (bytes, &len);
  if (g_file_set_contents (path, data, len, error))
    {
      source = g_settings_schema_source_new_from_directory (dir, NULL, TRUE, error);
      if (source != NULL)
        schema = g_settings_schema_source_lookup (source, APPLICATION_ID, FALSE);
      if (source != NULL && schema == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no schema %s in %s",
                     APPLICATION_ID, COMPILED_SCHEMA);
    }
  g_unlink (path);
  g_rmdir (dir);
  return schema;
}

GSettings *
dyn_settings_new (void)
{
  static GSettingsSchema *fallback;
  static GSettingsBackend *memory;
  static gboolean tried;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema != NULL)
    return g_settings_new_full (schema, NULL, NULL);

  if (!tried)
    {
      g_autoptr(GError) error = NULL;

      tried = TRUE;
      fallback = load_builtin_schema (&error);
      if (fallback == NULL)
        {
          g_warning (_("The settings schema %s is not installed, and the built-in copy could not be read "
                       "(%s): settings are not kept"), APPLICATION_ID, error->message);
          return NULL;
        }
      memory = g_memory_settings_backend_new ();
      g_warning (_("The settings schema %s is not installed: using its defaults, and saving nothing. "
                   "To run from a build tree, use “meson devenv -C _build dynoscope”."), APPLICATION_ID);
    }
  if (fallback == NULL)
    return NULL;
  return g_settings_new_full (fallback, memory, NULL);
}
