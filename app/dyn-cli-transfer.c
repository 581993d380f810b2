/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "dyn-cli-transfer.h"
#include "dyn-connect.h"

static void
transfer_options_clear (DynTransferOptions *o)
{
  g_free (o->profile);
  g_free (o->region);
  g_free (o->endpoint);
  g_clear_pointer (&o->args, g_ptr_array_unref);
  g_free (o->index);
  g_free (o->filter);
  g_free (o->key_condition);
  g_free (o->projection);
  g_free (o->format);
  g_free (o->output);
  g_free (o->input);
  g_clear_pointer (&o->csv_types, g_ptr_array_unref);
  g_free (o->pk);
  g_free (o->sk);
  g_clear_pointer (&o->gsis, g_ptr_array_unref);
  g_clear_pointer (&o->lsis, g_ptr_array_unref);
  g_free (o->billing);
  g_free (o->ttl);
  g_free (o->table_class);
  g_free (o->add_gsi);
  g_free (o->delete_gsi);
  g_free (o->confirm);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DynTransferOptions, transfer_options_clear)

typedef enum { OPT_FLAG, OPT_NOT_FLAG, OPT_STRING, OPT_LIST, OPT_UINT, OPT_DOUBLE } OptKind;

typedef struct
{
  const char *name;
  OptKind     kind;
  gsize       offset;
} OptSpec;

#define OPT(n, k, f) { n, k, G_STRUCT_OFFSET (DynTransferOptions, f) }

static const OptSpec option_specs[] = {
  OPT ("--profile", OPT_STRING, profile),
  OPT ("--region", OPT_STRING, region),
  OPT ("--endpoint", OPT_STRING, endpoint),
  OPT ("--insecure", OPT_FLAG, insecure),
  OPT ("--index", OPT_STRING, index),
  OPT ("--filter", OPT_STRING, filter),
  OPT ("--key-condition", OPT_STRING, key_condition),
  OPT ("--projection", OPT_STRING, projection),
  OPT ("--format", OPT_STRING, format),
  OPT ("--output", OPT_STRING, output),
  OPT ("--segments", OPT_UINT, segments),
  OPT ("--max-rcu", OPT_DOUBLE, max_rcu),
  OPT ("--input", OPT_STRING, input),
  OPT ("--create", OPT_FLAG, create),
  OPT ("--no-overwrite", OPT_FLAG, no_overwrite),
  OPT ("--max-wcu", OPT_DOUBLE, max_wcu),
  OPT ("--concurrency", OPT_UINT, concurrency),
  OPT ("--resume", OPT_FLAG, resume),
  OPT ("--restart", OPT_FLAG, restart),
  OPT ("--dry-run", OPT_FLAG, dry_run),
  OPT ("--skip-bad", OPT_FLAG, skip_bad),
  OPT ("--verify", OPT_FLAG, verify),
  OPT ("--csv-type", OPT_LIST, csv_types),
  OPT ("--pk", OPT_STRING, pk),
  OPT ("--sk", OPT_STRING, sk),
  OPT ("--gsi", OPT_LIST, gsis),
  OPT ("--lsi", OPT_LIST, lsis),
  OPT ("--billing", OPT_STRING, billing),
  OPT ("--ttl", OPT_STRING, ttl),
  OPT ("--no-ttl", OPT_FLAG, no_ttl),
  OPT ("--table-class", OPT_STRING, table_class),
  OPT ("--deletion-protection", OPT_FLAG, deletion_protection),
  OPT ("--add-gsi", OPT_STRING, add_gsi),
  OPT ("--delete-gsi", OPT_STRING, delete_gsi),
  OPT ("--no-wait", OPT_NOT_FLAG, wait),
  OPT ("--confirm", OPT_STRING, confirm),
  OPT ("--yes", OPT_FLAG, yes),
  OPT ("--json", OPT_FLAG, json),
  OPT ("--quiet", OPT_FLAG, quiet),
};

static gboolean
parse_transfer_args (DynTransferOptions *o,
                     int                 argc,
                     char              **argv,
                     GError            **error)
{
  o->args = g_ptr_array_new ();
  o->wait = TRUE;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *name = NULL;
      const char *value = NULL;
      const char *eq;
      const OptSpec *spec = NULL;
      gpointer field;

      if (!g_str_has_prefix (arg, "--"))
        {
          g_ptr_array_add (o->args, (gpointer) arg);
          continue;
        }
      eq = strchr (arg, '=');
      name = eq ? g_strndup (arg, eq - arg) : g_strdup (arg);
      if (eq != NULL)
        value = eq + 1;

      for (gsize k = 0; k < G_N_ELEMENTS (option_specs); k++)
        if (strcmp (option_specs[k].name, name) == 0)
          spec = &option_specs[k];
      if (spec == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                       _("%s: unknown option “%s”"), argv[0], name);
          return FALSE;
        }
      field = G_STRUCT_MEMBER_P (o, spec->offset);
      if (spec->kind == OPT_FLAG || spec->kind == OPT_NOT_FLAG)
        {
          if (value != NULL)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("%s takes no value"), name);
              return FALSE;
            }
          *(gboolean *) field = spec->kind == OPT_FLAG;
          continue;
        }
      if (value == NULL)
        {
          if (i + 1 >= argc)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s needs a value"), name);
              return FALSE;
            }
          value = argv[++i];
        }
      switch (spec->kind)
        {
        case OPT_STRING:
          g_free (*(char **) field);
          *(char **) field = g_strdup (value);
          break;
        case OPT_LIST:
          if (*(GPtrArray **) field == NULL)
            *(GPtrArray **) field = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (*(GPtrArray **) field, g_strdup (value));
          break;
        case OPT_UINT:
          {
            guint64 n;
            if (!g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT32, &n, NULL))
              {
                g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                             _("%s takes a whole number of 1 or more, not “%s”"), name, value);
                return FALSE;
              }
            *(guint *) field = n;
          }
          break;
        case OPT_DOUBLE:
          {
            char *end = NULL;
            double d = g_ascii_strtod (value, &end);
            if (end == value || *end != '\0' || !(d > 0) || d > 1e9)
              {
                g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                             _("%s takes a number above 0, not “%s”"), name, value);
                return FALSE;
              }
            *(double *) field = d;
          }
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return TRUE;
}

void
dyn_cli_store_result_cb (GObject      *source,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

GAsyncResult *
dyn_cli_wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

void
dyn_cli_print_json (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  fputs (text, stdout);
  fputc ('\n', stdout);
}

void
dyn_cli_progress_cb (const DynTransferProgress *progress,
                     gpointer                   user_data)
{
  DynTransferOptions *o = user_data;
  static gint64 last_line;
  static gboolean tty_known, tty;
  g_autofree char *line = NULL;
  gint64 now = g_get_monotonic_time ();

  if (o != NULL && o->quiet)
    return;
  if (!tty_known)
    {
      tty = isatty (STDERR_FILENO);
      tty_known = TRUE;
    }
  if (!tty && !progress->finished && last_line != 0 && now - last_line < 5 * G_USEC_PER_SEC)
    return;
  last_line = now;
  line = dyn_transfer_progress_describe (progress);
  if (tty)
    fprintf (stderr, "\r\033[K%s%s", line, progress->finished ? "\n" : "");
  else
    fprintf (stderr, "%s\n", line);
  fflush (stderr);
}

static const struct {
  const char *command;
  gboolean  (*run) (DynTransferOptions *, DynClient *, int *, GError **);
} commands[] = {
  { "export", dyn_cli_export },
  { "count", dyn_cli_count },
  { "import", dyn_cli_import },
  { "truncate", dyn_cli_truncate },
  { "create-table", dyn_cli_create_table },
  { "update-table", dyn_cli_update_table },
};

gboolean
dyn_cli_transfer_handles (const char *command)
{
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].command, command) == 0)
      return TRUE;
  return FALSE;
}

int
dyn_cli_transfer (int    argc,
                  char **argv)
{
  g_auto(DynTransferOptions) o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = NULL;
  int status = 0;
  gboolean ok = FALSE;

  if (!parse_transfer_args (&o, argc, argv, &error))
    {
      fprintf (stderr, "error: %s\n", error->message);
      return 2;
    }
  if (o.args->len == 0)
    {
      fprintf (stderr, _("Usage: dynoscope-cli %s TABLE … (see --help)\n"), argv[0]);
      return 2;
    }

  /* create-table --dry-run only prints the request: no connection needed. */
  if (strcmp (argv[0], "create-table") == 0 && o.dry_run)
    ok = dyn_cli_create_table (&o, NULL, &status, &error);
  else if ((client = dyn_connect (o.profile, o.region, o.endpoint, o.insecure, &error)) != NULL)
    {
      for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
        if (strcmp (commands[i].command, argv[0]) == 0)
          ok = commands[i].run (&o, client, &status, &error);
    }

  fflush (stdout);
  if (!ok)
    {
      if (error != NULL)
        fprintf (stderr, "error: %s\n", error->message);
      return 1;
    }
  return status;
}
