/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-config"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-config.h"
#include "dyn-error.h"

/* The ini dialect of the AWS shared files, as botocore's configparser reads
 * it, with the inline comments of the SDKs' file format: a line that is
 * indented deeper than the setting above it continues that setting; a setting
 * whose value is empty and continues on indented "key = value" lines is a
 * sub-section. Error messages name the file and the line, never its text,
 * which may be a secret. */

typedef struct {
  char       *key;
  char       *value;   /* NULL for a sub-section */
  GHashTable *nested;  /* key → value for a sub-section, else NULL */
  guint       line;
} IniProperty;

typedef struct {
  char       *header;      /* the text between the brackets, trimmed */
  guint       line;
  GHashTable *properties;  /* key → IniProperty* */
} IniSection;

typedef struct {
  char       *path;        /* NULL: no file */
  char       *display;     /* the path with $HOME as "~" */
  GPtrArray  *sections;    /* IniSection*, in file order; repeated headers merge */
  GHashTable *by_header;   /* header → IniSection* (borrowed) */
} IniFile;

typedef struct {
  char     *key;
  GString  *value;
  guint     line;
  GPtrArray *pieces;       /* continuation lines, as Piece* */
} PendingProperty;

typedef struct {
  guint  line;
  char  *text;
} Piece;

struct _DynSharedConfig {
  IniFile    *config;
  IniFile    *credentials;
  GHashTable *config_profiles;   /* profile name → merged IniSection* of borrowed properties */
  GPtrArray  *config_order;      /* profile names of the config file, in file order */
  GHashTable *services;          /* services name → IniSection* (borrowed) */
  GHashTable *sso_sessions;      /* sso-session name → IniSection* (borrowed) */
};

struct _DynProfile {
  char                   *name;
  char                   *region;
  char                   *region_source;
  char                   *endpoint_url;
  char                   *endpoint_source;
  DynCredentialsProvider *provider;
};

G_DEFINE_BOXED_TYPE (DynSharedConfig, dyn_shared_config, dyn_shared_config_ref, dyn_shared_config_unref)
G_DEFINE_BOXED_TYPE (DynProfile, dyn_profile, dyn_profile_ref, dyn_profile_unref)

/* Paths */

static const char *
home_dir (void)
{
  /* Not g_get_home_dir(): it caches $HOME once per process. */
  const char *home = g_getenv ("HOME");

  return (home != NULL && *home != '\0') ? home : g_get_home_dir ();
}

static char *
expand_path (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (home_dir ());
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (home_dir (), path + 2, NULL);
  return g_strdup (path);
}

static char *
display_path (const char *path)
{
  g_autofree char *home = g_strdup (home_dir ());
  gsize len;

  while ((len = strlen (home)) > 1 && home[len - 1] == '/')
    home[len - 1] = '\0';

  if (len > 1 && g_str_has_prefix (path, home) && path[len] == '/')
    return g_strconcat ("~", path + len, NULL);

  return g_strdup (path);
}

static const char *
env (const char *name)
{
  const char *value = g_getenv (name);

  return (value != NULL && *value != '\0') ? value : NULL;
}

/* Ini parsing */

static void
ini_property_free (IniProperty *prop)
{
  g_free (prop->key);
  g_free (prop->value);
  g_clear_pointer (&prop->nested, g_hash_table_unref);
  g_free (prop);
}

static void
ini_section_free (IniSection *section)
{
  g_free (section->header);
  g_hash_table_unref (section->properties);
  g_free (section);
}

static void
ini_file_free (IniFile *ini)
{
  g_free (ini->path);
  g_free (ini->display);
  g_ptr_array_unref (ini->sections);
  g_hash_table_unref (ini->by_header);
  g_free (ini);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IniFile, ini_file_free)

static void
piece_free (Piece *piece)
{
  g_free (piece->text);
  g_free (piece);
}

static void
pending_property_free (PendingProperty *pending)
{
  g_free (pending->key);
  g_string_free (pending->value, TRUE);
  g_ptr_array_unref (pending->pieces);
  g_free (pending);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PendingProperty, pending_property_free)

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* Cuts a comment that starts with '#' or ';' after whitespace. */
static void
strip_inline_comment (char *text)
{
  for (char *p = text; *p != '\0'; p++)
    {
      if ((*p == '#' || *p == ';') && p > text && is_blank (p[-1]))
        {
          *p = '\0';
          return;
        }
    }
}

static gboolean
ini_error (IniFile     *ini,
           GError     **error,
           guint        line,
           const char  *message)
{
  /* Translators: a malformed line of an AWS configuration file. The first %s is the file
   * (“~/.aws/config”), %u the line number, the last %s what is wrong with the line */
  g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("%s line %u: %s"), ini->display, line, message);
  return FALSE;
}

static gboolean
finish_property (IniFile          *ini,
                 IniSection       *section,
                 PendingProperty  *pending,
                 GError          **error)
{
  IniProperty *prop = g_new0 (IniProperty, 1);

  prop->key = g_strdup (pending->key);
  prop->line = pending->line;

  if (pending->value->len == 0 && pending->pieces->len > 0)
    {
      prop->nested = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint i = 0; i < pending->pieces->len; i++)
        {
          Piece *piece = g_ptr_array_index (pending->pieces, i);
          char *eq = strchr (piece->text, '=');
          g_autofree char *key = NULL;

          if (eq != NULL)
            {
              g_autofree char *raw = g_strndup (piece->text, eq - piece->text);

              key = g_ascii_strdown (g_strstrip (raw), -1);
            }
          if (key == NULL || *key == '\0')
            {
              ini_property_free (prop);
              return ini_error (ini, error, piece->line,
                                /* Translators: “key = value” is the syntax of the file; keep it */
                                _("expected 'key = value' in the indented block"));
            }
          g_hash_table_replace (prop->nested, g_steal_pointer (&key), g_strstrip (g_strdup (eq + 1)));
        }
    }
  else
    {
      for (guint i = 0; i < pending->pieces->len; i++)
        {
          Piece *piece = g_ptr_array_index (pending->pieces, i);

          g_string_append_c (pending->value, '\n');
          g_string_append (pending->value, piece->text);
        }
      prop->value = g_strdup (pending->value->str);
    }

  /* A repeated key replaces the earlier one, as in the SDKs. */
  g_hash_table_replace (section->properties, prop->key, prop);
  return TRUE;
}

static IniSection *
get_section (IniFile    *ini,
             const char *header,
             guint       line)
{
  IniSection *section = g_hash_table_lookup (ini->by_header, header);

  if (section != NULL)
    {
      g_debug ("%s line %u: section [%s] again; merging", ini->display, line, header);
      return section;
    }

  section = g_new0 (IniSection, 1);
  section->header = g_strdup (header);
  section->line = line;
  section->properties = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ini_property_free);
  g_ptr_array_add (ini->sections, section);
  g_hash_table_insert (ini->by_header, section->header, section);

  return section;
}

static gboolean
ini_parse (IniFile     *ini,
           const char  *data,
           gsize        len,
           GError     **error)
{
  g_autoptr(PendingProperty) pending = NULL;
  IniSection *section = NULL;
  gsize indent_level = 0;
  const char *p = data;
  const char *end = data + len;
  guint lineno = 0;

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    p += 3;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *line_end = nl != NULL ? nl : end;
      g_autofree char *line = NULL;
      gsize line_len = line_end - p;
      gsize indent = 0;
      char *rest;

      lineno++;
      if (line_len > 0 && p[line_len - 1] == '\r')
        line_len--;
      if (memchr (p, '\0', line_len) != NULL || !g_utf8_validate_len (p, line_len, NULL))
        return ini_error (ini, error, lineno, _("not valid UTF-8 text"));
      line = g_strndup (p, line_len);
      p = line_end + 1;

      while (is_blank (line[indent]))
        indent++;
      rest = g_strchomp (line + indent);

      if (*rest == '\0' || *rest == '#' || *rest == ';')
        continue;

      if (pending != NULL && indent > indent_level)
        {
          Piece *piece = g_new0 (Piece, 1);

          strip_inline_comment (rest);
          piece->line = lineno;
          piece->text = g_strdup (g_strchomp (rest));
          g_ptr_array_add (pending->pieces, piece);
          continue;
        }

      if (pending != NULL)
        {
          if (!finish_property (ini, section, pending, error))
            return FALSE;
          g_clear_pointer (&pending, pending_property_free);
        }

      indent_level = indent;

      if (*rest == '[')
        {
          char *close = strchr (rest, ']');
          char *after;

          if (close == NULL)
            return ini_error (ini, error, lineno, _("expected ']' at the end of the section header"));
          *close = '\0';
          after = close + 1;
          while (is_blank (*after))
            after++;
          if (*after != '\0' && *after != '#' && *after != ';')
            return ini_error (ini, error, lineno, _("unexpected text after the section header"));
          g_strstrip (rest + 1);
          if (rest[1] == '\0')
            return ini_error (ini, error, lineno, _("empty section name"));
          section = get_section (ini, rest + 1, lineno);
        }
      else if (section == NULL)
        {
          /* Translators: “[default]” is the syntax of the file; keep it */
          return ini_error (ini, error, lineno,
                            _("expected a section header such as '[default]' before the first setting"));
        }
      else
        {
          char *delim = strpbrk (rest, "=:");
          g_autofree char *key = NULL;

          if (delim != NULL)
            {
              g_autofree char *raw = g_strndup (rest, delim - rest);

              key = g_ascii_strdown (g_strchomp (raw), -1);
            }
          if (key == NULL || *key == '\0')
            /* Translators: “key = value” is the syntax of the file; keep it */
            return ini_error (ini, error, lineno, _("expected 'key = value'"));

          strip_inline_comment (delim + 1);
          pending = g_new0 (PendingProperty, 1);
          pending->key = g_steal_pointer (&key);
          pending->value = g_string_new (g_strstrip (delim + 1));
          pending->line = lineno;
          pending->pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) piece_free);
        }
    }

  if (pending != NULL && !finish_property (ini, section, pending, error))
    return FALSE;

  return TRUE;
}

static IniFile *
ini_file_new (const char *path)
{
  IniFile *ini = g_new0 (IniFile, 1);

  ini->path = g_strdup (path);
  /* Translators: in place of a file name, when no such file is used */
  ini->display = path != NULL ? display_path (path) : g_strdup (_("(none)"));
  ini->sections = g_ptr_array_new_with_free_func ((GDestroyNotify) ini_section_free);
  ini->by_header = g_hash_table_new (g_str_hash, g_str_equal);

  return ini;
}

static IniFile *
ini_load (const char  *path,
          GError     **error)
{
  g_autoptr(IniFile) ini = ini_file_new (path);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;

  if (path == NULL)
    return g_steal_pointer (&ini);

  if (!g_file_get_contents (path, &data, &len, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_debug ("%s does not exist; reading it as empty", ini->display);
          return g_steal_pointer (&ini);
        }
      /* Translators: the first %s is a file, the second why it cannot be read */
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("%s cannot be read: %s"),
                   ini->display, local_error->message);
      return NULL;
    }

  if (!ini_parse (ini, data, len, error))
    return NULL;

  return g_steal_pointer (&ini);
}

static const char *
section_value (IniSection *section,
               const char *key)
{
  IniProperty *prop;

  if (section == NULL)
    return NULL;

  prop = g_hash_table_lookup (section->properties, key);
  return prop != NULL ? prop->value : NULL;
}

/* "profile dev" → "dev", as botocore reads it (shlex.split, two words). */
static char *
section_name (const char *header,
              const char *prefix)
{
  g_auto(GStrv) argv = NULL;
  int argc = 0;

  if (!g_str_has_prefix (header, prefix) || !is_blank (header[strlen (prefix)]))
    return NULL;
  if (!g_shell_parse_argv (header, &argc, &argv, NULL) || argc != 2)
    return NULL;

  return g_strdup (argv[1]);
}

/* DynSharedConfig */

/* The name of the profile a config file section holds, or NULL. An empty
 * name ([profile ""]) is none: no profile can be chosen by it (an empty
 * DynResolveOptions.profile means "not given"), so it is not listed either. */
static char *
config_profile_name (const char *header,
                     gboolean   *is_profile_default)
{
  char *name;

  *is_profile_default = FALSE;
  if (g_str_equal (header, "default"))
    return g_strdup ("default");

  name = section_name (header, "profile");
  if (name != NULL && *name == '\0')
    g_clear_pointer (&name, g_free);
  *is_profile_default = name != NULL && g_str_equal (name, "default");
  return name;
}

static void
index_config_file (DynSharedConfig *self)
{
  gboolean have_profile_default = FALSE;

  for (guint i = 0; i < self->config->sections->len && !have_profile_default; i++)
    {
      IniSection *section = g_ptr_array_index (self->config->sections, i);

      g_free (config_profile_name (section->header, &have_profile_default));
    }

  /* Sections of one profile merge (a later key wins), whichever way the
   * header is spelt; [profile default] wins over [default], as in the SDKs. */
  for (guint i = 0; i < self->config->sections->len; i++)
    {
      IniSection *section = g_ptr_array_index (self->config->sections, i);
      IniSection *merged;
      gboolean is_profile_default;
      g_autofree char *name = config_profile_name (section->header, &is_profile_default);
      GHashTableIter iter;
      gpointer key, value;

      if (name == NULL)
        {
          g_autofree char *services = section_name (section->header, "services");
          g_autofree char *sso_session = section_name (section->header, "sso-session");

          if (services != NULL)
            g_hash_table_replace (self->services, g_steal_pointer (&services), section);
          else if (sso_session != NULL)
            g_hash_table_replace (self->sso_sessions, g_steal_pointer (&sso_session), section);
          else
            g_debug ("%s line %u: section [%s] is not a profile; ignored",
                     self->config->display, section->line, section->header);
          continue;
        }

      if (have_profile_default && g_str_equal (name, "default") && !is_profile_default)
        continue;

      merged = g_hash_table_lookup (self->config_profiles, name);
      if (merged == NULL)
        {
          merged = g_new0 (IniSection, 1);
          merged->header = g_strdup (section->header);
          merged->line = section->line;
          merged->properties = g_hash_table_new (g_str_hash, g_str_equal);  /* borrowed */
          g_ptr_array_add (self->config_order, g_strdup (name));
          g_hash_table_insert (self->config_profiles, g_steal_pointer (&name), merged);
        }

      g_hash_table_iter_init (&iter, section->properties);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_replace (merged->properties, key, value);
    }
}

/**
 * dyn_shared_config_load_from_files:
 * @config_path: (nullable): the config file
 * @credentials_path: (nullable): the credentials file
 * @error: return location for a %DYN_ERROR_CONFIG error
 *
 * Returns: (transfer full): the parsed files, or %NULL with @error set
 */
DynSharedConfig *
dyn_shared_config_load_from_files (const char  *config_path,
                                   const char  *credentials_path,
                                   GError     **error)
{
  g_autoptr(DynSharedConfig) self = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_atomic_rc_box_new0 (DynSharedConfig);
  self->config_profiles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ini_section_free);
  self->config_order = g_ptr_array_new_with_free_func (g_free);
  self->services = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->sso_sessions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if ((self->config = ini_load (config_path, error)) == NULL)
    return NULL;
  if ((self->credentials = ini_load (credentials_path, error)) == NULL)
    return NULL;

  index_config_file (self);

  return g_steal_pointer (&self);
}

/**
 * dyn_shared_config_load:
 * @error: return location for a %DYN_ERROR_CONFIG error
 *
 * Returns: (transfer full): the parsed files, or %NULL with @error set
 */
DynSharedConfig *
dyn_shared_config_load (GError **error)
{
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;
  const char *value;

  if ((value = env ("AWS_CONFIG_FILE")) != NULL)
    config_path = expand_path (value);
  else
    config_path = g_build_filename (home_dir (), ".aws", "config", NULL);

  if ((value = env ("AWS_SHARED_CREDENTIALS_FILE")) != NULL)
    credentials_path = expand_path (value);
  else
    credentials_path = g_build_filename (home_dir (), ".aws", "credentials", NULL);

  return dyn_shared_config_load_from_files (config_path, credentials_path, error);
}

DynSharedConfig *
dyn_shared_config_ref (DynSharedConfig *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

static void
shared_config_clear (DynSharedConfig *self)
{
  g_clear_pointer (&self->config_profiles, g_hash_table_unref);
  g_clear_pointer (&self->config_order, g_ptr_array_unref);
  g_clear_pointer (&self->services, g_hash_table_unref);
  g_clear_pointer (&self->sso_sessions, g_hash_table_unref);
  g_clear_pointer (&self->config, ini_file_free);
  g_clear_pointer (&self->credentials, ini_file_free);
}

void
dyn_shared_config_unref (DynSharedConfig *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, (GDestroyNotify) shared_config_clear);
}

const char *
dyn_shared_config_get_config_path (DynSharedConfig *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->config->path;
}

const char *
dyn_shared_config_get_credentials_path (DynSharedConfig *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->credentials->path;
}

static IniSection *
config_section (DynSharedConfig *self,
                const char      *profile)
{
  return g_hash_table_lookup (self->config_profiles, profile);
}

static IniSection *
credentials_section (DynSharedConfig *self,
                     const char      *profile)
{
  return g_hash_table_lookup (self->credentials->by_header, profile);
}

gboolean
dyn_shared_config_has_profile (DynSharedConfig *self,
                               const char      *profile)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (profile != NULL, FALSE);

  return config_section (self, profile) != NULL || credentials_section (self, profile) != NULL;
}

/* Like dyn_shared_config_get_value(), and says which file it came from. */
static const char *
profile_value (DynSharedConfig  *self,
               const char       *profile,
               const char       *key,
               const char      **file)
{
  const char *value;

  if ((value = section_value (credentials_section (self, profile), key)) != NULL)
    {
      if (file != NULL)
        *file = self->credentials->display;
      return value;
    }

  if ((value = section_value (config_section (self, profile), key)) != NULL)
    {
      if (file != NULL)
        *file = self->config->display;
      return value;
    }

  return NULL;
}

const char *
dyn_shared_config_get_value (DynSharedConfig *self,
                             const char      *profile,
                             const char      *key)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  lower = g_ascii_strdown (key, -1);
  return profile_value (self, profile, lower, NULL);
}

const char *
dyn_shared_config_get_sso_session_value (DynSharedConfig *self,
                                         const char      *session,
                                         const char      *key)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (session != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  lower = g_ascii_strdown (key, -1);
  return section_value (g_hash_table_lookup (self->sso_sessions, session), lower);
}

gboolean
dyn_shared_config_has_sso_session (DynSharedConfig *self,
                                   const char      *session)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (session != NULL, FALSE);

  return g_hash_table_contains (self->sso_sessions, session);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

GStrv
dyn_shared_config_list_sso_sessions (DynSharedConfig *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (self != NULL, NULL);

  g_hash_table_iter_init (&iter, self->sso_sessions);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, g_strdup (key));
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

static gboolean
is_true (const char *value)
{
  g_autofree char *copy = NULL;

  if (value == NULL)
    return FALSE;

  copy = g_strstrip (g_strdup (value));
  return g_ascii_strcasecmp (copy, "true") == 0;
}

static const char *
nonempty (const char *value)
{
  return (value != NULL && *value != '\0') ? value : NULL;
}

/* The endpoint_url of @service ("dynamodb", "sts", "sso", "sso_oidc") in the profile's services section. */
static const char *
services_endpoint (DynSharedConfig  *self,
                   const char       *profile,
                   const char       *service,
                   const char      **services_name)
{
  const char *name = nonempty (profile_value (self, profile, "services", NULL));
  IniSection *section;
  IniProperty *prop;

  if (name == NULL)
    return NULL;

  section = g_hash_table_lookup (self->services, name);
  if (section == NULL)
    {
      g_debug ("Profile '%s' names services section '%s', which %s does not have",
               profile, name, self->config->display);
      return NULL;
    }

  prop = g_hash_table_lookup (section->properties, service);
  if (prop == NULL || prop->nested == NULL)
    return NULL;

  if (services_name != NULL)
    *services_name = name;
  return nonempty (g_hash_table_lookup (prop->nested, "endpoint_url"));
}

static const char *
file_endpoint (DynSharedConfig *self,
               const char      *profile)
{
  const char *endpoint;

  if (is_true (profile_value (self, profile, "ignore_configured_endpoint_urls", NULL)))
    return NULL;

  if ((endpoint = services_endpoint (self, profile, "dynamodb", NULL)) != NULL)
    return endpoint;

  return nonempty (profile_value (self, profile, "endpoint_url", NULL));
}

char *
dyn_shared_config_dup_service_endpoint (DynSharedConfig  *self,
                                        const char       *profile,
                                        const char       *service,
                                        char            **source)
{
  g_autofree char *upper = NULL;
  g_autofree char *env_name = NULL;
  const char *ignore_text;
  const char *services_name = NULL;
  const char *file = NULL;
  const char *value;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (service != NULL, NULL);

  if (source != NULL)
    *source = NULL;

  if ((ignore_text = env ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) == NULL)
    ignore_text = profile_value (self, profile, "ignore_configured_endpoint_urls", NULL);
  if (is_true (ignore_text))
    return NULL;

  upper = g_ascii_strup (service, -1);
  env_name = g_strconcat ("AWS_ENDPOINT_URL_", upper, NULL);
  if ((value = env (env_name)) != NULL)
    {
      if (source != NULL)
        *source = g_steal_pointer (&env_name);
      return g_strdup (value);
    }
  if ((value = env ("AWS_ENDPOINT_URL")) != NULL)
    {
      if (source != NULL)
        *source = g_strdup ("AWS_ENDPOINT_URL");
      return g_strdup (value);
    }
  if ((value = services_endpoint (self, profile, service, &services_name)) != NULL)
    {
      if (source != NULL)
        *source = g_strdup_printf (_("services section '%s' in %s"), services_name, self->config->display);
      return g_strdup (value);
    }
  if ((value = nonempty (profile_value (self, profile, "endpoint_url", &file))) != NULL)
    {
      if (source != NULL)
        *source = g_strdup_printf (_("profile '%s' in %s"), profile, file);
      return g_strdup (value);
    }
  return NULL;
}

static DynProfileInfo *
profile_info_new (DynSharedConfig *self,
                  const char      *name)
{
  DynProfileInfo *info = g_new0 (DynProfileInfo, 1);

  info->name = g_strdup (name);
  info->region = g_strdup (nonempty (profile_value (self, name, "region", NULL)));
  info->endpoint_url = g_strdup (file_endpoint (self, name));
  info->in_config_file = config_section (self, name) != NULL;
  info->in_credentials_file = credentials_section (self, name) != NULL;
  info->has_static_keys = nonempty (profile_value (self, name, "aws_access_key_id", NULL)) != NULL;
  info->has_credential_process = nonempty (profile_value (self, name, "credential_process", NULL)) != NULL;

  return info;
}

GPtrArray *
dyn_shared_config_list_profiles (DynSharedConfig *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *infos;

  g_return_val_if_fail (self != NULL, NULL);

  if (dyn_shared_config_has_profile (self, "default"))
    {
      g_ptr_array_add (names, (gpointer) "default");
      g_hash_table_add (seen, (gpointer) "default");
    }

  for (guint i = 0; i < self->config_order->len; i++)
    {
      const char *name = g_ptr_array_index (self->config_order, i);

      if (g_hash_table_add (seen, (gpointer) name))
        g_ptr_array_add (names, (gpointer) name);
    }

  for (guint i = 0; i < self->credentials->sections->len; i++)
    {
      IniSection *section = g_ptr_array_index (self->credentials->sections, i);

      if (g_hash_table_add (seen, section->header))
        g_ptr_array_add (names, section->header);
    }

  infos = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_profile_info_free);
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (infos, profile_info_new (self, g_ptr_array_index (names, i)));

  return infos;
}

void
dyn_profile_info_free (DynProfileInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->name);
  g_free (info->region);
  g_free (info->endpoint_url);
  g_free (info);
}

/* DynProfile */

static void
profile_clear (DynProfile *self)
{
  g_free (self->name);
  g_free (self->region);
  g_free (self->region_source);
  g_free (self->endpoint_url);
  g_free (self->endpoint_source);
  g_clear_object (&self->provider);
}

DynProfile *
dyn_profile_ref (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
dyn_profile_unref (DynProfile *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, (GDestroyNotify) profile_clear);
}

static void
resolve_endpoint (DynSharedConfig         *shared,
                  const char              *name,
                  const DynResolveOptions *options,
                  DynProfile              *self)
{
  const char *ignore_text;
  const char *file = NULL;
  const char *services_name = NULL;
  const char *value;

  if ((value = nonempty (options->endpoint_url)) != NULL)
    {
      self->endpoint_url = g_strdup (value);
      /* Translators: where the endpoint came from: the one given on the command line or in the connection */
      self->endpoint_source = g_strdup (_("the given endpoint"));
      return;
    }

  if ((ignore_text = env ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) == NULL)
    ignore_text = profile_value (shared, name, "ignore_configured_endpoint_urls", NULL);
  if (is_true (ignore_text))
    {
      g_debug ("Ignoring configured endpoint URLs for profile '%s'", name);
      return;
    }

  if ((value = env ("AWS_ENDPOINT_URL_DYNAMODB")) != NULL)
    {
      self->endpoint_url = g_strdup (value);
      self->endpoint_source = g_strdup ("AWS_ENDPOINT_URL_DYNAMODB");
    }
  else if ((value = env ("AWS_ENDPOINT_URL")) != NULL)
    {
      self->endpoint_url = g_strdup (value);
      self->endpoint_source = g_strdup ("AWS_ENDPOINT_URL");
    }
  else if ((value = services_endpoint (shared, name, "dynamodb", &services_name)) != NULL)
    {
      self->endpoint_url = g_strdup (value);
      /* Translators: where the endpoint came from. “services” is a kind of section of
       * ~/.aws/config; keep it. The first %s is the section's name, the second the file */
      self->endpoint_source = g_strdup_printf (_("services section '%s' in %s"), services_name,
                                               shared->config->display);
    }
  else if ((value = nonempty (profile_value (shared, name, "endpoint_url", &file))) != NULL)
    {
      self->endpoint_url = g_strdup (value);
      /* Translators: where a setting came from. The first %s is an AWS profile, the second a file */
      self->endpoint_source = g_strdup_printf (_("profile '%s' in %s"), name, file);
    }
}

static gboolean
resolve_region (DynSharedConfig          *shared,
                const char               *name,
                const DynResolveOptions  *options,
                DynProfile               *self,
                GError                  **error)
{
  const char *file = NULL;
  const char *value;

  if ((value = nonempty (options->region)) != NULL)
    {
      self->region = g_strdup (value);
      /* Translators: where the region came from: the one given on the command line or in the connection */
      self->region_source = g_strdup (_("the given region"));
    }
  else if ((value = env ("AWS_REGION")) != NULL)
    {
      self->region = g_strdup (value);
      self->region_source = g_strdup ("AWS_REGION");
    }
  else if ((value = env ("AWS_DEFAULT_REGION")) != NULL)
    {
      self->region = g_strdup (value);
      self->region_source = g_strdup ("AWS_DEFAULT_REGION");
    }
  else if ((value = nonempty (profile_value (shared, name, "region", &file))) != NULL)
    {
      self->region = g_strdup (value);
      /* Translators: where a setting came from. The first %s is an AWS profile, the second a file */
      self->region_source = g_strdup_printf (_("profile '%s' in %s"), name, file);
    }
  else if (self->endpoint_url != NULL)
    {
      /* DynamoDB Local and friends accept any region; signing needs one. */
      g_debug ("No region configured for profile '%s'; using us-east-1 for the endpoint %s",
               name, self->endpoint_url);
      self->region = g_strdup ("us-east-1");
      /* Translators: where the region came from: none is configured, so us-east-1 is used */
      self->region_source = g_strdup (_("the default for a custom endpoint"));
    }
  else
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: AWS_REGION, AWS_DEFAULT_REGION and “region” are names; keep them.
                    * The first %s is an AWS profile, the other two are files */
                   _("No region is configured: tried AWS_REGION, AWS_DEFAULT_REGION "
                     "and the 'region' of profile '%s' in %s and %s"),
                   name, shared->config->display, shared->credentials->display);
      return FALSE;
    }

  return TRUE;
}

/* Static keys of one file's section. */
static DynCredentialsProvider *
section_keys (IniSection            *section,
              const char            *file,
              const char            *name,
              DynCredentialsSource   source,
              gboolean              *found,
              GError               **error)
{
  const char *access_key_id = nonempty (section_value (section, "aws_access_key_id"));
  const char *secret = nonempty (section_value (section, "aws_secret_access_key"));
  const char *token = nonempty (section_value (section, "aws_session_token"));
  g_autoptr(DynCredentials) creds = NULL;
  g_autofree char *description = NULL;

  *found = FALSE;
  if (access_key_id == NULL && secret == NULL)
    return NULL;

  *found = TRUE;
  if (access_key_id == NULL || secret == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: the first %s is an AWS profile, the second a file, the others are
                    * aws_access_key_id and aws_secret_access_key (one of each) */
                   _("Profile '%s' in %s has %s but no %s"),
                   name, file,
                   access_key_id != NULL ? "aws_access_key_id" : "aws_secret_access_key",
                   access_key_id != NULL ? "aws_secret_access_key" : "aws_access_key_id");
      return NULL;
    }

  if (token == NULL)
    token = nonempty (section_value (section, "aws_security_token"));

  creds = dyn_credentials_new (access_key_id, secret, token, NULL);
  /* Translators: where a setting came from. The first %s is an AWS profile, the second a file */
  description = g_strdup_printf (_("profile '%s' in %s"), name, file);
  return dyn_credentials_provider_new_for_credentials (creds, source, description);
}

static DynCredentialsProvider *
resolve_credentials (DynSharedConfig          *shared,
                     const char               *name,
                     gboolean                  explicit_profile,
                     const DynResolveOptions  *options,
                     GError                  **error)
{
  static const char * const unsupported[][2] = {
    /* Translators: %s is an AWS profile; keep the names in parentheses */
    { "role_arn", N_("Profile '%s' assumes a role (role_arn), which Dynoscope does not support yet.") },
    /* Translators: %s is an AWS profile */
    { "web_identity_token_file", N_("Profile '%s' uses a web identity token, which Dynoscope does not "
                                    "support yet.") },
    /* Translators: %s is an AWS profile; keep the names in parentheses */
    { "sso_session", N_("Profile '%s' uses AWS IAM Identity Center (sso_session), which Dynoscope does not "
                        "support yet.") },
    /* Translators: %s is an AWS profile; keep the names in parentheses */
    { "sso_start_url", N_("Profile '%s' uses AWS IAM Identity Center (sso_start_url), which Dynoscope does not "
                          "support yet.") },
  };
  DynCredentialsProvider *provider;
  const char *process;
  gboolean found;

  if (options->provider != NULL)
    return g_object_ref (options->provider);

  if (options->access_key_id != NULL || options->secret_access_key != NULL)
    {
      if (nonempty (options->access_key_id) == NULL || nonempty (options->secret_access_key) == NULL)
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               _("Both an access key id and a secret access key are needed"));
          return NULL;
        }
      return dyn_credentials_provider_new_static (options->access_key_id, options->secret_access_key,
                                                  options->session_token);
    }

  /* An explicitly chosen profile disables the environment's keys; AWS_PROFILE does not. */
  if (!explicit_profile && env ("AWS_ACCESS_KEY_ID") != NULL)
    {
      g_autoptr(DynCredentials) creds = NULL;
      const char *token = env ("AWS_SESSION_TOKEN");

      if (env ("AWS_SECRET_ACCESS_KEY") == NULL)
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: the names of two environment variables; keep them */
                               _("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"));
          return NULL;
        }
      if (token == NULL)
        token = env ("AWS_SECURITY_TOKEN");

      creds = dyn_credentials_new (env ("AWS_ACCESS_KEY_ID"), env ("AWS_SECRET_ACCESS_KEY"), token, NULL);
      return dyn_credentials_provider_new_for_credentials (creds, DYN_CREDENTIALS_SOURCE_ENVIRONMENT,
                                                           /* Translators: where the credentials came from */
                                                           _("environment variables"));
    }

  if (options->profile_credentials != NULL)
    {
      gboolean handled = FALSE;

      provider = options->profile_credentials (shared, name, explicit_profile,
                                               DYN_PROFILE_CREDENTIALS_BEFORE_KEYS, &handled,
                                               options->profile_credentials_data, error);
      if (handled)
        return provider;
    }

  /* Using the profile's keys instead of the role it names would be a different identity. */
  for (guint i = 0; i < 2; i++)
    {
      if (nonempty (profile_value (shared, name, unsupported[i][0], NULL)) != NULL)
        goto unsupported_profile;
    }

  provider = section_keys (credentials_section (shared, name), shared->credentials->display, name,
                           DYN_CREDENTIALS_SOURCE_CREDENTIALS_FILE, &found, error);
  if (found)
    return provider;

  provider = section_keys (config_section (shared, name), shared->config->display, name,
                           DYN_CREDENTIALS_SOURCE_CONFIG_FILE, &found, error);
  if (found)
    return provider;

  if ((process = nonempty (profile_value (shared, name, "credential_process", NULL))) != NULL)
    return dyn_credentials_provider_new_process (process, name, error);

  for (guint i = 2; i < G_N_ELEMENTS (unsupported); i++)
    {
      if (nonempty (profile_value (shared, name, unsupported[i][0], NULL)) != NULL)
        goto unsupported_profile;
    }

  if (options->profile_credentials != NULL)
    {
      gboolean handled = FALSE;

      provider = options->profile_credentials (shared, name, explicit_profile,
                                               DYN_PROFILE_CREDENTIALS_LAST, &handled,
                                               options->profile_credentials_data, error);
      if (handled)
        return provider;
    }

  if (explicit_profile)
    g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                 /* Translators: aws_access_key_id and credential_process are settings; keep them.
                  * The first %s is an AWS profile, the other two are files */
                 _("No credentials found: tried aws_access_key_id of profile '%s' in %s and %s, "
                   "and its credential_process"),
                 name, shared->credentials->display, shared->config->display);
  else
    g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                 /* Translators: AWS_ACCESS_KEY_ID, aws_access_key_id and credential_process are names;
                  * keep them. The first %s is an AWS profile, the other two are files */
                 _("No credentials found: tried AWS_ACCESS_KEY_ID, aws_access_key_id of profile '%s' in %s "
                   "and %s, and its credential_process"),
                 name, shared->credentials->display, shared->config->display);
  return NULL;

unsupported_profile:
  for (guint i = 0; i < G_N_ELEMENTS (unsupported); i++)
    {
      if (nonempty (profile_value (shared, name, unsupported[i][0], NULL)) != NULL)
        {
          g_autofree char *what = g_strdup_printf (_(unsupported[i][1]), name);

          g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                       /* Translators: the first %s is a sentence such as “Profile 'x' assumes a role
                        * (role_arn), which Dynoscope does not support yet.”, the second an AWS profile.
                        * Keep the command line as it is */
                       _("%s With AWS CLI v2, add to another profile: credential_process = aws configure "
                         "export-credentials --profile %s --format process"),
                       what, name);
          break;
        }
    }
  return NULL;
}

/**
 * dyn_profile_resolve:
 * @shared: (nullable): the parsed shared files, or %NULL to load them
 * @options: (nullable): what the caller chose
 * @error: return location for an error
 *
 * Works out the profile name, region, endpoint and credentials provider.
 * Nothing is fetched yet: a credential_process runs on the first
 * dyn_credentials_provider_get_async().
 *
 * Returns: (transfer full): the resolved profile, or %NULL with @error set
 */
DynProfile *
dyn_profile_resolve (DynSharedConfig          *shared,
                     const DynResolveOptions  *options,
                     GError                  **error)
{
  static const DynResolveOptions no_options = { NULL };
  g_autoptr(DynSharedConfig) loaded = NULL;
  g_autoptr(DynProfile) self = NULL;
  gboolean explicit_profile;
  const char *name;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options == NULL)
    options = &no_options;

  if (shared == NULL)
    {
      if ((loaded = dyn_shared_config_load (error)) == NULL)
        return NULL;
      shared = loaded;
    }

  explicit_profile = nonempty (options->profile) != NULL;
  if (explicit_profile)
    name = options->profile;
  else if ((name = env ("AWS_PROFILE")) == NULL)
    name = "default";

  if (!g_str_equal (name, "default") && !dyn_shared_config_has_profile (shared, name))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: the first %s is an AWS profile, the other two are files */
                   _("The profile '%s' is in neither %s nor %s"),
                   name, shared->config->display, shared->credentials->display);
      return NULL;
    }

  self = g_atomic_rc_box_new0 (DynProfile);
  self->name = g_strdup (name);

  resolve_endpoint (shared, name, options, self);
  if (!resolve_region (shared, name, options, self, error))
    return NULL;
  if ((self->provider = resolve_credentials (shared, name, explicit_profile, options, error)) == NULL)
    return NULL;

  g_debug ("Profile '%s': region %s (%s), endpoint %s (%s), credentials from %s",
           self->name, self->region, self->region_source,
           self->endpoint_url != NULL ? self->endpoint_url : "AWS",
           self->endpoint_source != NULL ? self->endpoint_source : "default",
           dyn_credentials_provider_get_description (self->provider));

  return g_steal_pointer (&self);
}

const char *
dyn_profile_get_name (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->name;
}

const char *
dyn_profile_get_region (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->region;
}

const char *
dyn_profile_get_region_source (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->region_source;
}

const char *
dyn_profile_get_endpoint_url (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->endpoint_url;
}

const char *
dyn_profile_get_endpoint_source (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->endpoint_source;
}

char *
dyn_profile_dup_effective_endpoint_url (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->endpoint_url != NULL)
    return g_strdup (self->endpoint_url);

  return g_strdup_printf ("https://dynamodb.%s.amazonaws.com%s",
                          self->region, g_str_has_prefix (self->region, "cn-") ? ".cn" : "");
}

DynCredentialsProvider *
dyn_profile_get_credentials_provider (DynProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->provider;
}
