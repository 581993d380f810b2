/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"
#include "dyn-sso-private.h"

/* The token cache of ~/.aws/sso/cache as the AWS CLI v2 (botocore's SSOTokenLoader and
 * SSOTokenProvider) reads and writes it, and DynSsoConfig from a profile as botocore's
 * SSOProvider and SSOTokenProvider work it out. */

void
dyn_sso_config_free (DynSsoConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->profile);
  g_free (config->session_name);
  g_free (config->start_url);
  g_free (config->sso_region);
  g_free (config->registration_scopes);
  g_free (config->account_id);
  g_free (config->role_name);
  g_free (config->oidc_endpoint);
  g_free (config->portal_endpoint);
  g_free (config);
}

DynSsoConfig *
_dyn_sso_config_copy (const DynSsoConfig *config)
{
  DynSsoConfig *copy = g_new0 (DynSsoConfig, 1);

  copy->profile = g_strdup (config->profile);
  copy->session_name = g_strdup (config->session_name);
  copy->start_url = g_strdup (config->start_url);
  copy->sso_region = g_strdup (config->sso_region);
  copy->registration_scopes = g_strdup (config->registration_scopes);
  copy->account_id = g_strdup (config->account_id);
  copy->role_name = g_strdup (config->role_name);
  copy->oidc_endpoint = g_strdup (config->oidc_endpoint);
  copy->portal_endpoint = g_strdup (config->portal_endpoint);
  return copy;
}

static const char *
nonempty (const char *value)
{
  return value != NULL && *value != '\0' ? value : NULL;
}

gboolean
_dyn_sso_profile_is_sso (DynSharedConfig *shared,
                         const char      *profile)
{
  static const char * const keys[] = { "sso_session", "sso_start_url", "sso_account_id", "sso_role_name" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (nonempty (dyn_shared_config_get_value (shared, profile, keys[i])) != NULL)
      return TRUE;
  return FALSE;
}

static void
set_missing (GError     **error,
             const char  *profile,
             const char  *session,
             const char  *setting)
{
  if (session != NULL)
    g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                 /* Translators: the first %s is an AWS profile, the second an sso-session name, the
                  * third a setting such as sso_region */
                 _("The profile '%s' uses the IAM Identity Center session '%s', which does not set %s"),
                 profile, session, setting);
  else
    g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                 /* Translators: the first %s is an AWS profile, the second a setting such as sso_region */
                 _("The profile '%s' uses IAM Identity Center but does not set %s"), profile, setting);
}

/* The default endpoints of IAM Identity Center: https://oidc.REGION.amazonaws.com and
 * https://portal.sso.REGION.amazonaws.com, .com.cn in the China regions. */
char *
_dyn_sso_default_endpoint (const char *host_prefix,
                           const char *region)
{
  const char *suffix = g_str_has_prefix (region, "cn-") ? "amazonaws.com.cn" : "amazonaws.com";

  return g_strdup_printf ("https://%s.%s.%s", host_prefix, region, suffix);
}

static gboolean
valid_region (const char *region)
{
  for (const char *p = region; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      return FALSE;
  return *region != '\0';
}

DynSsoConfig *
dyn_sso_config_from_profile (DynSharedConfig *shared,
                             const char      *profile,
                             GError         **error)
{
  g_autoptr(DynSsoConfig) config = NULL;
  const char *session;
  const char *start_url;
  const char *region;
  const char *scopes = NULL;
  g_autofree char *what_oidc = NULL;
  g_autofree char *what_portal = NULL;

  g_return_val_if_fail (shared != NULL, NULL);
  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_dyn_sso_profile_is_sso (shared, profile))
    return NULL;

  session = nonempty (dyn_shared_config_get_value (shared, profile, "sso_session"));
  start_url = nonempty (dyn_shared_config_get_value (shared, profile, "sso_start_url"));
  region = nonempty (dyn_shared_config_get_value (shared, profile, "sso_region"));

  if (session != NULL)
    {
      const char *session_url;
      const char *session_region;

      if (!dyn_shared_config_has_sso_session (shared, session))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                       /* Translators: the first %s is an AWS profile, the second an sso-session name */
                       _("The profile '%s' uses the IAM Identity Center session '%s', but the config file has no [sso-session %s] section"),
                       profile, session, session);
          return NULL;
        }
      session_url = nonempty (dyn_shared_config_get_sso_session_value (shared, session, "sso_start_url"));
      session_region = nonempty (dyn_shared_config_get_sso_session_value (shared, session, "sso_region"));
      scopes = nonempty (dyn_shared_config_get_sso_session_value (shared, session, "sso_registration_scopes"));

      /* botocore refuses a profile whose own settings disagree with its sso-session's. */
      if (start_url != NULL && session_url != NULL && g_strcmp0 (start_url, session_url) != 0)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                       /* Translators: the first %s is a setting (sso_start_url), the second an AWS
                        * profile, the third an sso-session name */
                       _("The value of %s differs between the profile '%s' and its IAM Identity Center session '%s'"),
                       "sso_start_url", profile, session);
          return NULL;
        }
      if (region != NULL && session_region != NULL && g_strcmp0 (region, session_region) != 0)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                       _("The value of %s differs between the profile '%s' and its IAM Identity Center session '%s'"),
                       "sso_region", profile, session);
          return NULL;
        }
      if (session_url == NULL && start_url == NULL)
        {
          set_missing (error, profile, session, "sso_start_url");
          return NULL;
        }
      if (session_region == NULL && region == NULL)
        {
          set_missing (error, profile, session, "sso_region");
          return NULL;
        }
      start_url = session_url != NULL ? session_url : start_url;
      region = session_region != NULL ? session_region : region;
    }
  else
    {
      if (start_url == NULL)
        {
          set_missing (error, profile, NULL, "sso_start_url");
          return NULL;
        }
      if (region == NULL)
        {
          set_missing (error, profile, NULL, "sso_region");
          return NULL;
        }
    }

  if (!valid_region (region))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: %s is an AWS profile */
                   _("The sso_region of the profile '%s' is not a region name"), profile);
      return NULL;
    }

  config = g_new0 (DynSsoConfig, 1);
  config->profile = g_strdup (profile);
  config->session_name = g_strdup (session);
  config->start_url = g_strdup (start_url);
  config->sso_region = g_strdup (region);
  config->registration_scopes = g_strdup (scopes);
  config->account_id = g_strdup (nonempty (dyn_shared_config_get_value (shared, profile, "sso_account_id")));
  config->role_name = g_strdup (nonempty (dyn_shared_config_get_value (shared, profile, "sso_role_name")));
  config->oidc_endpoint = dyn_shared_config_dup_service_endpoint (shared, profile, "sso_oidc", NULL);
  config->portal_endpoint = dyn_shared_config_dup_service_endpoint (shared, profile, "sso", NULL);

  /* Translators: what an endpoint is for, in “Cannot use %s: …”; %s is an AWS profile */
  what_oidc = g_strdup_printf (_("the IAM Identity Center OIDC endpoint of the profile '%s'"), profile);
  /* Translators: likewise; %s is an AWS profile */
  what_portal = g_strdup_printf (_("the IAM Identity Center portal endpoint of the profile '%s'"), profile);
  if ((config->oidc_endpoint != NULL && !_dyn_sign_in_check_endpoint (config->oidc_endpoint, what_oidc, error))
      || (config->portal_endpoint != NULL && !_dyn_sign_in_check_endpoint (config->portal_endpoint, what_portal, error)))
    return NULL;

  return g_steal_pointer (&config);
}

/* ------------------------------------------------------------------------ */
/* Token files                                                                */

static void
wipe_free (char *secret)
{
  if (secret != NULL)
    memset (secret, 0, strlen (secret));
  g_free (secret);
}

void
dyn_sso_token_free (DynSsoToken *token)
{
  if (token == NULL)
    return;
  g_free (token->start_url);
  g_free (token->region);
  wipe_free (token->access_token);
  g_clear_pointer (&token->expires_at, g_date_time_unref);
  g_free (token->client_id);
  wipe_free (token->client_secret);
  g_clear_pointer (&token->registration_expires_at, g_date_time_unref);
  wipe_free (token->refresh_token);
  g_free (token);
}

char *
dyn_sso_token_cache_path (const char *session_name,
                          const char *start_url)
{
  const char *key = session_name != NULL ? session_name : start_url;
  const char *home = g_getenv ("HOME");
  g_autofree char *sha1 = NULL;
  g_autofree char *file = NULL;

  g_return_val_if_fail (key != NULL, NULL);

  /* botocore expands ~ with os.path.expanduser, which takes $HOME first. */
  if (home == NULL || *home == '\0')
    home = g_get_home_dir ();
  sha1 = g_compute_checksum_for_string (G_CHECKSUM_SHA1, key, -1);
  file = g_strconcat (sha1, ".json", NULL);
  return g_build_filename (home, ".aws", "sso", "cache", file, NULL);
}

static int
digits (const char **p,
        guint        n)
{
  int value = 0;

  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit ((*p)[i]))
        return -1;
      value = value * 10 + ((*p)[i] - '0');
    }
  *p += n;
  return value;
}

/* The timestamps botocore reads from a token file with dateutil.parser.parse and then compares
 * with an aware "now": ISO 8601 dates and times with a zone — "2026-12-02T10:00:00Z" (what the
 * CLI writes), fractions of a second, "+00:00", "+0000", "-05:00" — and the older CLI's
 * "2026-12-02T10:00:00UTC" (also " UTC", "GMT"), with "T" or a space between date and time.
 * A time without a zone makes botocore fail, so it is refused here too. */
GDateTime *
_dyn_sso_parse_timestamp (const char *text)
{
  const char *p = text;
  int year, month, day, hour, minute, second;
  double fraction = 0;
  GTimeSpan offset = 0;
  g_autoptr(GTimeZone) utc = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (text == NULL)
    return NULL;
  if ((year = digits (&p, 4)) < 0 || *p++ != '-' || (month = digits (&p, 2)) < 0 || *p++ != '-'
      || (day = digits (&p, 2)) < 0)
    return NULL;
  if (*p != 'T' && *p != 't' && *p != ' ')
    return NULL;
  p++;
  if ((hour = digits (&p, 2)) < 0 || *p++ != ':' || (minute = digits (&p, 2)) < 0 || *p++ != ':'
      || (second = digits (&p, 2)) < 0)
    return NULL;
  if (*p == '.' || *p == ',')
    {
      double scale = 0.1;

      p++;
      if (!g_ascii_isdigit (*p))
        return NULL;
      for (; g_ascii_isdigit (*p); p++, scale /= 10)
        fraction += (*p - '0') * scale;
    }
  if (*p == ' ' && (g_ascii_strcasecmp (p + 1, "UTC") == 0 || g_ascii_strcasecmp (p + 1, "GMT") == 0))
    p += 4;
  else if (*p == 'Z' || *p == 'z')
    p++;
  else if (g_ascii_strncasecmp (p, "UTC", 3) == 0 || g_ascii_strncasecmp (p, "GMT", 3) == 0)
    p += 3;
  else if (*p == '+' || *p == '-')
    {
      int sign = *p++ == '-' ? -1 : 1;
      int oh, om;

      if ((oh = digits (&p, 2)) < 0)
        return NULL;
      if (*p == ':')
        p++;
      if ((om = digits (&p, 2)) < 0 || oh > 23 || om > 59)
        return NULL;
      offset = sign * (oh * G_TIME_SPAN_HOUR + om * G_TIME_SPAN_MINUTE);
    }
  else
    return NULL;
  if (*p != '\0')
    return NULL;

  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59 || year < 1)
    return NULL;
  utc = g_time_zone_new_utc ();
  local = g_date_time_new (utc, year, month, day, hour, minute, second + fraction);
  if (local == NULL)
    return NULL;
  return g_date_time_add (local, -offset);
}

char *
_dyn_sso_format_timestamp (GDateTime *time)
{
  g_autoptr(GDateTime) utc = g_date_time_to_utc (time);

  return g_date_time_format (utc, "%Y-%m-%dT%H:%M:%SZ");
}

static gboolean
optional_string (JsonObject  *object,
                 const char  *member,
                 char       **out,
                 gboolean     required)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return !required;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  *out = g_strdup (json_node_get_string (node));
  return !required || **out != '\0';
}

static gboolean
optional_time (JsonObject  *object,
               const char  *member,
               GDateTime  **out,
               gboolean     required)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return !required;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  *out = _dyn_sso_parse_timestamp (json_node_get_string (node));
  return *out != NULL;
}

JsonNode *
_dyn_sso_parse_json_object (const char *text,
                            gsize       length)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;

  if (text == NULL || memchr (text, '\0', length) != NULL || !g_utf8_validate_len (text, length, NULL))
    return NULL;
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, length, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  return json_node_ref (root);
}

DynSsoToken *
_dyn_sso_token_parse (const char  *text,
                      gsize        length,
                      const char  *display,
                      GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(DynSsoToken) token = NULL;
  JsonObject *object;
  const char *what = NULL;

  if (display == NULL)
    display = _("the token cache file");

  if ((root = _dyn_sso_parse_json_object (text, length)) == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: %s is a file name */
                   _("%s is not an IAM Identity Center token: it is no JSON object"), display);
      return NULL;
    }
  object = json_node_get_object (root);
  token = g_new0 (DynSsoToken, 1);
  /* As botocore's SSOTokenLoader: a token needs accessToken and expiresAt. */
  if (!optional_string (object, "accessToken", &token->access_token, TRUE))
    what = "accessToken";
  else if (!optional_time (object, "expiresAt", &token->expires_at, TRUE))
    what = "expiresAt";
  else if (!optional_string (object, "startUrl", &token->start_url, FALSE))
    what = "startUrl";
  else if (!optional_string (object, "region", &token->region, FALSE))
    what = "region";
  else if (!optional_string (object, "clientId", &token->client_id, FALSE))
    what = "clientId";
  else if (!optional_string (object, "clientSecret", &token->client_secret, FALSE))
    what = "clientSecret";
  else if (!optional_time (object, "registrationExpiresAt", &token->registration_expires_at, FALSE))
    what = "registrationExpiresAt";
  else if (!optional_string (object, "refreshToken", &token->refresh_token, FALSE))
    what = "refreshToken";

  if (what != NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: the first %s is a file name, the second a field (expiresAt) */
                   _("%s is not an IAM Identity Center token: its %s is missing or not valid"), display, what);
      return NULL;
    }
  return g_steal_pointer (&token);
}

DynSsoToken *
dyn_sso_token_load (const char  *path,
                    GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length;
  DynSsoToken *token;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_get_contents (path, &text, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     /* Translators: %s is a file name */
                     _("There is no IAM Identity Center token in %s"), path);
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                     /* Translators: the first %s is a file name, the second the reason */
                     _("Cannot read %s: %s"), path, local_error->message);
      return NULL;
    }
  token = _dyn_sso_token_parse (text, length, path, error);
  if (text != NULL)
    memset (text, 0, length);
  return token;
}

static void
set_or_remove_string (JsonObject *object,
                      const char *member,
                      const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else if (json_object_has_member (object, member))
    json_object_remove_member (object, member);
}

static void
set_or_remove_time (JsonObject *object,
                    const char *member,
                    GDateTime  *value)
{
  g_autofree char *text = value != NULL ? _dyn_sso_format_timestamp (value) : NULL;

  set_or_remove_string (object, member, text);
}

gboolean
dyn_sso_token_save (const DynSsoToken  *token,
                    const char         *path,
                    GError            **error)
{
  static const char * const ours[] = {
    "startUrl", "region", "accessToken", "expiresAt", "clientId", "clientSecret",
    "registrationExpiresAt", "refreshToken",
  };
  g_autofree char *old_text = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) old = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;
  gsize old_length = 0;
  gsize length;
  gboolean ok;

  g_return_val_if_fail (token != NULL, FALSE);
  g_return_val_if_fail (token->access_token != NULL && token->expires_at != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Our fields first, in the CLI's order; the other fields of the file as they were. */
  object = json_object_new ();
  root = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);
  set_or_remove_string (object, "startUrl", token->start_url);
  set_or_remove_string (object, "region", token->region);
  set_or_remove_string (object, "accessToken", token->access_token);
  set_or_remove_time (object, "expiresAt", token->expires_at);
  set_or_remove_string (object, "clientId", token->client_id);
  set_or_remove_string (object, "clientSecret", token->client_secret);
  set_or_remove_time (object, "registrationExpiresAt", token->registration_expires_at);
  set_or_remove_string (object, "refreshToken", token->refresh_token);

  if (g_file_get_contents (path, &old_text, &old_length, NULL)
      && (old = _dyn_sso_parse_json_object (old_text, old_length)) != NULL)
    {
      JsonObject *old_object = json_node_get_object (old);
      g_autoptr(GList) members = json_object_get_members (old_object);

      for (GList *l = members; l != NULL; l = l->next)
        {
          gboolean known = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (ours) && !known; i++)
            known = g_str_equal (l->data, ours[i]);
          if (!known)
            json_object_set_member (object, l->data, json_node_copy (json_object_get_member (old_object, l->data)));
        }
    }
  if (old_text != NULL)
    memset (old_text, 0, old_length);

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: the first %s is a folder, the second the reason */
                   _("Cannot create %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }

  generator = json_generator_new ();
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &length);
  ok = g_file_set_contents_full (path, text, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_ONLY_EXISTING,
                                 0600, &local_error);
  memset (text, 0, length);
  if (!ok)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: the first %s is a file name, the second the reason */
                   _("Cannot write %s: %s"), path, local_error->message);
      return FALSE;
    }
  /* g_file_set_contents_full() gives a new file the mode; an existing one keeps its own. */
  if (g_chmod (path, 0600) != 0)
    g_debug ("Cannot chmod the token cache file: %s", g_strerror (errno));
  return TRUE;
}
