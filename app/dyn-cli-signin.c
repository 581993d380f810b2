/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "dyn-cli-signin.h"
#include "dyn-connect.h"
#include "dyn-error.h"
#include "dyn-signin.h"

/* The terminal prompter ---------------------------------------------------- */

#define DYN_TYPE_CLI_PROMPTER (dyn_cli_prompter_get_type ())
G_DECLARE_FINAL_TYPE (DynCliPrompter, dyn_cli_prompter, DYN, CLI_PROMPTER, GObject)

struct _DynCliPrompter
{
  GObject   parent_instance;

  char     *mfa_code;     /* --mfa-code, used for the first question only; never logged */
  char     *profile;      /* the command's profile, for "run dynoscope-cli login --profile X" */
  gboolean  login;        /* `login` runs: the device flow is shown */
  gboolean  no_browser;
  int       mfa_in_chain; /* -1 not known yet; whether the profile or a source_profile has mfa_serial */
};

static void dyn_cli_prompter_iface_init (DynSignInPrompterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynCliPrompter, dyn_cli_prompter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYN_TYPE_SIGN_IN_PROMPTER, dyn_cli_prompter_iface_init))

static void
dyn_cli_prompter_finalize (GObject *object)
{
  DynCliPrompter *self = DYN_CLI_PROMPTER (object);

  g_free (self->mfa_code);
  g_free (self->profile);
  G_OBJECT_CLASS (dyn_cli_prompter_parent_class)->finalize (object);
}

static void
dyn_cli_prompter_class_init (DynCliPrompterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_cli_prompter_finalize;
}

static void
dyn_cli_prompter_init (DynCliPrompter *self)
{
  self->mfa_in_chain = -1;
}

/* Whether @profile or a profile it takes credentials from (source_profile, followed
 * until it ends or comes round) has an mfa_serial. */
static gboolean
chain_has_mfa_serial (const char *profile)
{
  g_autoptr(DynSharedConfig) shared = dyn_shared_config_load (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *name = profile;

  if (shared == NULL)
    return TRUE;   /* the resolution fails anyway; let it say why */
  while (name != NULL && *name != '\0' && g_hash_table_add (seen, (gpointer) name))
    {
      const char *serial = dyn_shared_config_get_value (shared, name, "mfa_serial");

      if (serial != NULL && *serial != '\0')
        return TRUE;
      name = dyn_shared_config_get_value (shared, name, "source_profile");
    }
  return FALSE;
}

static gboolean
prompter_can_interact (DynSignInPrompter *prompter)
{
  DynCliPrompter *self = DYN_CLI_PROMPTER (prompter);

  /* Whoever runs the command line is there (or passed --mfa-code) for an MFA code.
   * The device flow is for `login` alone: outside it an expired IAM Identity Center
   * session fails at once ("sign in again (dynoscope-cli login …)"), as botocore
   * fails, instead of registering a client first. Only a role with MFA over such a
   * session gets as far as show_device_code(), which refuses. */
  if (self->login)
    return TRUE;
  if (self->mfa_in_chain < 0)
    self->mfa_in_chain = chain_has_mfa_serial (self->profile);
  return self->mfa_in_chain;
}

typedef struct
{
  char *profile;
  char *mfa_serial;
} MfaQuestion;

static void
mfa_question_free (MfaQuestion *q)
{
  g_free (q->profile);
  g_free (q->mfa_serial);
  g_free (q);
}

static GError *
needs_mfa_code_error (const char *profile)
{
  return g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                      /* Translators: %s is an AWS profile; keep --mfa-code */
                      _("profile %s needs an MFA code: pass --mfa-code"), profile);
}

/* In a thread of its own: a line from /dev/tty. */
static void
ask_on_tty_thread (GTask        *task,
                   gpointer      source,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  MfaQuestion *q = task_data;
  char line[128];
  FILE *tty;
  int fd;

  fd = open ("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      g_task_return_error (task, needs_mfa_code_error (q->profile));
      return;
    }
  tty = fdopen (fd, "r+");
  if (tty == NULL)
    {
      close (fd);
      g_task_return_error (task, needs_mfa_code_error (q->profile));
      return;
    }

  /* Translators: the first %s is an MFA device (arn:aws:iam::…:mfa/alice), the second an AWS profile */
  fprintf (tty, _("MFA code of %s (profile %s): "), q->mfa_serial, q->profile);
  fflush (tty);
  if (fgets (line, sizeof line, tty) == NULL || *g_strstrip (line) == '\0')
    {
      fclose (tty);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               /* Translators: %s is an AWS profile */
                               _("No MFA code was entered for profile %s"), q->profile);
      return;
    }
  fclose (tty);
  g_task_return_pointer (task, g_strdup (line), g_free);
  memset (line, 0, sizeof line);
}

static void
prompter_ask_mfa_code (DynSignInPrompter   *prompter,
                       const char          *profile,
                       const char          *mfa_serial,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  DynCliPrompter *self = DYN_CLI_PROMPTER (prompter);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  MfaQuestion *q;

  g_task_set_source_tag (task, prompter_ask_mfa_code);
  if (self->mfa_code != NULL)
    {
      /* A code is good once: a second question (credentials refreshed) goes to the terminal. */
      g_task_return_pointer (task, g_steal_pointer (&self->mfa_code), g_free);
      return;
    }

  q = g_new0 (MfaQuestion, 1);
  q->profile = g_strdup (profile != NULL ? profile : self->profile);
  q->mfa_serial = g_strdup (mfa_serial);
  g_task_set_task_data (task, q, (GDestroyNotify) mfa_question_free);
  g_task_run_in_thread (task, ask_on_tty_thread);
}

static char *
prompter_ask_mfa_code_finish (DynSignInPrompter  *prompter,
                              GAsyncResult       *result,
                              GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
have_display (void)
{
  const char *x11 = g_getenv ("DISPLAY");
  const char *wayland = g_getenv ("WAYLAND_DISPLAY");

  return (x11 != NULL && *x11 != '\0') || (wayland != NULL && *wayland != '\0');
}

static gboolean
prompter_show_device_code (DynSignInPrompter    *prompter,
                           const DynDeviceCode  *code,
                           GCancellable         *flow,
                           GError              **error)
{
  DynCliPrompter *self = DYN_CLI_PROMPTER (prompter);
  const char *url = code->verification_uri_complete != NULL ? code->verification_uri_complete
                                                            : code->verification_uri;

  if (!self->login)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                   /* Translators: %s is an AWS profile; keep the command line as it is */
                   _("The IAM Identity Center sign-in of profile %s has expired or was never made: "
                     "run dynoscope-cli login --profile %s"),
                   self->profile, self->profile);
      return FALSE;
    }

  /* Translators: %s is the start URL of IAM Identity Center (https://…/start) */
  fprintf (stderr, _("To sign in to %s, open this page in a browser:\n"), code->start_url);
  fprintf (stderr, "\n  %s\n\n", url);
  /* Translators: %s is the user code (ABCD-EFGH); %s (second) the verification page without the code */
  fprintf (stderr, _("and check that it shows the code %s (or open %s and enter it).\n"),
           code->user_code, code->verification_uri);

  if (!self->no_browser && have_display ())
    {
      g_autoptr(GError) launch_error = NULL;

      if (!g_app_info_launch_default_for_uri (url, NULL, &launch_error))
        /* Translators: %s says why */
        fprintf (stderr, _("The browser could not be opened: %s\n"), launch_error->message);
    }
  /* Translators: shown while the command waits for the user to approve the sign-in */
  fprintf (stderr, "%s\n", _("Waiting for the sign-in to be approved…"));
  fflush (stderr);
  return TRUE;
}

static void
dyn_cli_prompter_iface_init (DynSignInPrompterInterface *iface)
{
  iface->can_interact = prompter_can_interact;
  iface->ask_mfa_code = prompter_ask_mfa_code;
  iface->ask_mfa_code_finish = prompter_ask_mfa_code_finish;
  iface->show_device_code = prompter_show_device_code;
}

/* Setup ---------------------------------------------------------------------- */

static void
print_notice (const char *message,
              gpointer    user_data)
{
  fprintf (stderr, "%s\n", message);
  fflush (stderr);
}

static void
remove_args (int   *argc,
             char **argv,
             int    index,
             int    count)
{
  memmove (argv + index, argv + index + count, (*argc - index - count) * sizeof (char *));
  *argc -= count;
  argv[*argc] = NULL;
}

static char *
profile_of_command (int    argc,
                    char **argv)
{
  const char *env;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--profile") == 0 && i + 1 < argc)
        return g_strdup (argv[i + 1]);
      if (g_str_has_prefix (argv[i], "--profile="))
        return g_strdup (argv[i] + strlen ("--profile="));
    }
  env = g_getenv ("AWS_PROFILE");
  return g_strdup (env != NULL && *env != '\0' ? env : "default");
}

gboolean
dyn_cli_signin_setup (int     *argc,
                      char   **argv,
                      GError **error)
{
  g_autoptr(DynCliPrompter) prompter = g_object_new (DYN_TYPE_CLI_PROMPTER, NULL);
  g_autofree char *code = NULL;

  for (int i = 1; i < *argc;)
    {
      if (strcmp (argv[i], "--mfa-code") == 0)
        {
          if (i + 1 >= *argc || *argv[i + 1] == '\0')
            {
              g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--mfa-code needs a value"));
              return FALSE;
            }
          g_free (code);
          code = g_strdup (argv[i + 1]);
          remove_args (argc, argv, i, 2);
        }
      else if (g_str_has_prefix (argv[i], "--mfa-code="))
        {
          if (argv[i][strlen ("--mfa-code=")] == '\0')
            {
              g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--mfa-code needs a value"));
              return FALSE;
            }
          g_free (code);
          code = g_strdup (argv[i] + strlen ("--mfa-code="));
          remove_args (argc, argv, i, 1);
        }
      else
        i++;
    }

  prompter->mfa_code = g_steal_pointer (&code);
  prompter->profile = profile_of_command (*argc, argv);
  dyn_sign_in_set_default_prompter (DYN_SIGN_IN_PROMPTER (prompter));
  dyn_connect_set_notice_func (print_notice, NULL);
  return TRUE;
}

gboolean
dyn_cli_signin_handles (const char *command)
{
  return g_strcmp0 (command, "whoami") == 0 || g_strcmp0 (command, "login") == 0;
}

/* The commands --------------------------------------------------------------- */

typedef struct
{
  char     *profile;
  char     *region;
  gboolean  no_browser;
} SigninOptions;

static void
signin_options_clear (SigninOptions *o)
{
  g_free (o->profile);
  g_free (o->region);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SigninOptions, signin_options_clear)

/* argv[0] is the command; `whoami` takes --profile and --region, `login` --profile and --no-browser. */
static gboolean
parse_signin_args (SigninOptions  *o,
                   int             argc,
                   char          **argv,
                   GError        **error)
{
  gboolean login = strcmp (argv[0], "login") == 0;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *eq = strchr (arg, '=');
      g_autofree char *name = eq != NULL && g_str_has_prefix (arg, "--") ? g_strndup (arg, eq - arg) : g_strdup (arg);
      const char *value = eq != NULL && g_str_has_prefix (arg, "--") ? eq + 1 : NULL;
      char **field = NULL;

      if (strcmp (name, "--help") == 0 && value == NULL)
        {
          fputs ("Usage: dynoscope-cli [--mfa-code CODE] whoami [--profile P] [--region R]\n"
                 "       dynoscope-cli login [--profile P] [--no-browser]\n", stdout);
          exit (0);
        }
      if (login && strcmp (name, "--no-browser") == 0 && value == NULL)
        {
          o->no_browser = TRUE;
          continue;
        }
      if (strcmp (name, "--profile") == 0)
        field = &o->profile;
      else if (!login && strcmp (name, "--region") == 0)
        field = &o->region;
      if (field == NULL)
        {
          if (g_str_has_prefix (arg, "--"))
            /* Translators: the first %s is an option (--foo), the second a command (whoami, login) */
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION, _("Unknown option %s for %s"),
                         name, argv[0]);
          else
            /* Translators: the first %s is what was given, the second a command (whoami, login) */
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("Unexpected argument “%s” for %s"),
                         arg, argv[0]);
          return FALSE;
        }
      if (value == NULL)
        {
          if (i + 1 >= argc)
            {
              /* Translators: %s is an option (--profile) */
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s needs a value"), name);
              return FALSE;
            }
          value = argv[++i];
        }
      g_free (*field);
      *field = g_strdup (value);
    }
  return TRUE;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static gboolean
cmd_whoami (SigninOptions  *o,
            GError        **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynProfile) resolved = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynCallerIdentity) identity = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *text = NULL;

  if ((shared = dyn_shared_config_load (error)) == NULL)
    return FALSE;
  options.profile = o->profile;
  options.region = o->region;
  if ((resolved = dyn_sign_in_resolve (shared, &options, NULL, error)) == NULL)
    return FALSE;

  endpoint = dyn_sign_in_sts_endpoint (shared, dyn_profile_get_name (resolved),
                                       dyn_profile_get_region (resolved), NULL);
  g_debug ("GetCallerIdentity at %s", endpoint);
  dyn_sign_in_whoami_async (dyn_profile_get_credentials_provider (resolved), dyn_profile_get_region (resolved),
                            endpoint, NULL, store_result_cb, &result);
  if ((identity = dyn_sign_in_whoami_finish (wait_for (&result), error)) == NULL)
    return FALSE;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "Account");
  json_builder_add_string_value (builder, identity->account);
  json_builder_set_member_name (builder, "Arn");
  json_builder_add_string_value (builder, identity->arn);
  json_builder_set_member_name (builder, "UserId");
  json_builder_add_string_value (builder, identity->user_id);
  json_builder_set_member_name (builder, "Expiration");
  if (identity->expiration != NULL)
    {
      g_autoptr(GDateTime) utc = g_date_time_to_utc (identity->expiration);
      g_autofree char *when = g_date_time_format (utc, "%Y-%m-%dT%H:%M:%SZ");

      json_builder_add_string_value (builder, when);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  printf ("%s\n", text);
  return TRUE;
}

static gboolean
cmd_login (SigninOptions  *o,
           GError        **error)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynSsoConfig) config = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  DynSignInPrompter *prompter = dyn_sign_in_get_default_prompter ();
  const char *env = g_getenv ("AWS_PROFILE");
  const char *profile;

  if (o->profile != NULL && *o->profile != '\0')
    profile = o->profile;
  else if (env != NULL && *env != '\0')
    profile = env;
  else
    profile = "default";

  if ((shared = dyn_shared_config_load (error)) == NULL)
    return FALSE;
  if (!dyn_shared_config_has_profile (shared, profile))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: the first %s is an AWS profile, the other two are files */
                   _("The profile '%s' is in neither %s nor %s"), profile,
                   dyn_shared_config_get_config_path (shared), dyn_shared_config_get_credentials_path (shared));
      return FALSE;
    }
  config = dyn_sso_config_from_profile (shared, profile, error);
  if (config == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                     /* Translators: %s is an AWS profile; sso_session and sso_start_url are settings, keep them */
                     _("Profile '%s' does not sign in with IAM Identity Center: it has neither sso_session "
                       "nor sso_start_url"), profile);
      return FALSE;
    }

  if (DYN_IS_CLI_PROMPTER (prompter))
    {
      DYN_CLI_PROMPTER (prompter)->login = TRUE;
      DYN_CLI_PROMPTER (prompter)->no_browser = o->no_browser;
      g_free (DYN_CLI_PROMPTER (prompter)->profile);
      DYN_CLI_PROMPTER (prompter)->profile = g_strdup (profile);
    }
  dyn_sso_login_async (config, prompter, NULL, store_result_cb, &result);
  if (!dyn_sso_login_finish (wait_for (&result), error))
    return FALSE;

  if (config->session_name != NULL)
    /* Translators: the first %s is an sso-session's name, the second its start URL */
    printf (_("Signed in to the IAM Identity Center session %s (%s)\n"), config->session_name, config->start_url);
  else
    /* Translators: %s is the start URL of IAM Identity Center */
    printf (_("Signed in to IAM Identity Center at %s\n"), config->start_url);
  return TRUE;
}

int
dyn_cli_signin (int    argc,
                char **argv)
{
  g_auto(SigninOptions) o = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_return_val_if_fail (argc >= 1 && dyn_cli_signin_handles (argv[0]), 2);

  if (!parse_signin_args (&o, argc, argv, &error))
    {
      fprintf (stderr, "error: %s\n", error->message);
      return 2;
    }

  if (strcmp (argv[0], "whoami") == 0)
    ok = cmd_whoami (&o, &error);
  else
    ok = cmd_login (&o, &error);

  fflush (stdout);
  if (!ok)
    {
      if (error != NULL)
        fprintf (stderr, "error: %s\n", error->message);
      return 1;
    }
  return 0;
}
