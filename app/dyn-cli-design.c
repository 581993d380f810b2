/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "dyn-cli-design.h"
#include "dyn-connect.h"
#include "dyn-design.h"
#include "dyn-json.h"

/*
 * dynoscope-cli design draft MODEL.json [--per-parent N] [--seed N]
 * dynoscope-cli design check MODEL.json [--table T] [--write-examples] [--keep-table]
 *                                       [--per-parent N] [--sample N] [--seed N]
 * dynoscope-cli design infer TABLE [--sample N]
 * dynoscope-cli design export MODEL.json --format workbench|cloudformation|create-table
 *                                        [--model-table T]
 * Global options as for every command: --profile, --region, --endpoint, --insecure.
 */

typedef struct
{
  char     *profile;
  char     *region;
  char     *endpoint;
  gboolean  insecure;
  char     *table;
  char     *model_table;
  char     *format;
  gboolean  write_examples;
  gboolean  keep_table;
  guint     per_parent;
  guint     sample;
  guint32   seed;
  gboolean  json;
  GPtrArray *args;   /* positional, after the subcommand */
} DesignOptions;

static void
design_options_clear (DesignOptions *o)
{
  g_free (o->profile);
  g_free (o->region);
  g_free (o->endpoint);
  g_free (o->table);
  g_free (o->model_table);
  g_free (o->format);
  g_clear_pointer (&o->args, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DesignOptions, design_options_clear)

static gboolean
parse_design_args (DesignOptions *o,
                   int            argc,
                   char         **argv,
                   GError       **error)
{
  o->args = g_ptr_array_new ();
  o->seed = 1;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *name = NULL;
      const char *value = NULL;
      const char *eq;
      char **string_field = NULL;
      guint *number_field = NULL;

      if (!g_str_has_prefix (arg, "--"))
        {
          g_ptr_array_add (o->args, (gpointer) arg);
          continue;
        }
      eq = strchr (arg, '=');
      name = eq ? g_strndup (arg, eq - arg) : g_strdup (arg);
      if (eq != NULL)
        value = eq + 1;

      if (strcmp (name, "--insecure") == 0)
        { o->insecure = TRUE; continue; }
      if (strcmp (name, "--write-examples") == 0)
        { o->write_examples = TRUE; continue; }
      if (strcmp (name, "--keep-table") == 0)
        { o->keep_table = TRUE; continue; }
      if (strcmp (name, "--json") == 0)
        { o->json = TRUE; continue; }

      if (strcmp (name, "--profile") == 0)
        string_field = &o->profile;
      else if (strcmp (name, "--region") == 0)
        string_field = &o->region;
      else if (strcmp (name, "--endpoint") == 0)
        string_field = &o->endpoint;
      else if (strcmp (name, "--table") == 0)
        string_field = &o->table;
      else if (strcmp (name, "--model-table") == 0)
        string_field = &o->model_table;
      else if (strcmp (name, "--format") == 0)
        string_field = &o->format;
      else if (strcmp (name, "--per-parent") == 0)
        number_field = &o->per_parent;
      else if (strcmp (name, "--sample") == 0)
        number_field = &o->sample;
      else if (strcmp (name, "--seed") == 0)
        number_field = &o->seed;
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                       "design: unknown option “%s”", name);
          return FALSE;
        }

      if (value == NULL)
        {
          if (i + 1 >= argc)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s needs a value", name);
              return FALSE;
            }
          value = argv[++i];
        }
      if (string_field != NULL)
        {
          g_free (*string_field);
          *string_field = g_strdup (value);
        }
      else
        {
          guint64 n;
          if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT32, &n, NULL))
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "%s takes a whole number, not “%s”", name, value);
              return FALSE;
            }
          *number_field = n;
        }
    }
  return TRUE;
}

/* Each subcommand: TRUE and exit status 0, or FALSE with @error (status 1);
 * `check` sets *status to 3 when the check ran and a pattern failed. */

/* The async calls' results: stored by the callback, waited for. */
static void
store_result_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

/* Every subcommand's JSON on stdout the same way: indented, one newline. */
static void
print_json (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  fputs (text, stdout);
  fputc ('\n', stdout);
}

static gboolean
design_draft (DesignOptions *o,
              int           *status,
              GError       **error)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GPtrArray) examples = NULL;
  g_autoptr(JsonNode) json = NULL;

  if (o->args->len != 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "Usage: dynoscope-cli design draft MODEL.json [--per-parent N] [--seed N]");
      return FALSE;
    }
  model = dyn_design_model_load_file (o->args->pdata[0], o->model_table, error);
  if (model == NULL)
    return FALSE;
  plan = dyn_design_draft (model, error);
  if (plan == NULL)
    return FALSE;
  examples = dyn_design_examples (model, plan, o->per_parent, o->seed);
  json = dyn_design_plan_to_json (plan, examples);
  print_json (json);
  return TRUE;
}

static void
check_progress_cb (const char *message,
                   gpointer    user_data)
{
  /* On stderr: stdout holds the results (or the JSON report). */
  fprintf (stderr, "%s\n", message);
}

/* Not translated: one line per pattern, findings and a cost line in a
 * stable form for CI logs and scripts (the sentences in them are). */
static void
print_check_report (const DynDesignCheckReport *report,
                    gboolean                    kept)
{
  guint requests = 0;
  double read_units = 0;

  printf ("table: %s%s\n", report->table,
          report->scratch ? (kept ? " (scratch table, kept)" : " (scratch table, deleted)") : "");
  for (guint i = 0; i < report->results->len; i++)
    {
      const DynDesignCheckResult *r = report->results->pdata[i];
      g_autofree char *where = r->index ? g_strdup_printf (" on %s", r->index) : g_strdup ("");

      requests += r->requests;
      read_units += r->read_units;
      printf ("%s: %s%s · %u request%s · %u page%s · %g RCU · %u item%s · %s%s%s\n",
              r->pattern, dyn_operation_get_name (r->operation), where,
              r->requests, r->requests == 1 ? "" : "s",
              r->pages, r->pages == 1 ? "" : "s",
              r->read_units,
              r->items, r->items == 1 ? "" : "s",
              r->passed ? "ok" : "FAIL",
              r->problem ? ": " : "", r->problem ? r->problem : "");
    }
  for (guint i = 0; i < report->findings->len; i++)
    {
      const DynDesignDecision *f = report->findings->pdata[i];

      printf ("%s: %s\n", f->warning ? "warning" : "note", f->text);
    }
  if (report->items_written > 0 || report->items_existing > 0)
    printf ("examples: %u written, %u already there (left as they were)\n",
            report->items_written, report->items_existing);
  if (report->sampled_items > 0 || report->sample_read_units > 0)
    printf ("sample: %" G_GUINT64_FORMAT " items · %g RCU\n", report->sampled_items, report->sample_read_units);
  printf ("cost: %u request%s · %g RCU · %g WCU\n", requests, requests == 1 ? "" : "s",
          read_units + report->sample_read_units, report->write_units);
  printf ("%s\n", report->passed ? "passed" : "FAILED");
}

static gboolean
design_check (DesignOptions *o,
              int           *status,
              GError       **error)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  DynDesignCheckOptions options = { 0 };

  if (o->args->len != 1)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Usage: dynoscope-cli design check MODEL.json [--table T] [--write-examples] [--keep-table] "
                             "[--per-parent N] [--sample N] [--seed N] [--json]"));
      return FALSE;
    }
  model = dyn_design_model_load_file (o->args->pdata[0], o->model_table, error);
  if (model == NULL)
    return FALSE;
  client = dyn_connect (o->profile, o->region, o->endpoint, o->insecure, error);
  if (client == NULL)
    return FALSE;

  options.table = o->table;
  options.write_examples = o->write_examples;
  options.keep_table = o->keep_table;
  options.per_parent = o->per_parent;
  options.sample_items = o->sample;
  options.seed = o->seed;
  dyn_design_check_async (client, model, &options, check_progress_cb, NULL, NULL,
                          store_result_cb, &result);
  report = dyn_design_check_finish (client, wait_for (&result), error);
  if (report == NULL)
    return FALSE;

  if (o->json)
    {
      g_autoptr(JsonNode) node = dyn_design_check_report_to_json (report);

      print_json (node);
    }
  else
    print_check_report (report, o->keep_table);
  *status = report->passed ? 0 : 3;
  return TRUE;
}

/* design infer TABLE [--sample N]: DescribeTable and a Scan sample, the
 * inferred model on stdout as a Dynoscope model file, what the sample was
 * and cost on stderr. */
static gboolean
design_infer (DesignOptions *o,
              int           *status,
              GError       **error)
{
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(JsonNode) json = NULL;

  if (o->args->len != 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "Usage: dynoscope-cli design infer TABLE [--sample N]");
      return FALSE;
    }
  client = dyn_connect (o->profile, o->region, o->endpoint, o->insecure, error);
  if (client == NULL)
    return FALSE;
  dyn_design_infer_async (client, o->args->pdata[0], o->sample, NULL, store_result_cb, &result);
  model = dyn_design_infer_finish (client, wait_for (&result), error);
  if (model == NULL)
    return FALSE;
  if (model->description != NULL)
    fprintf (stderr, "%s\n", model->description);
  json = dyn_design_model_to_json (model);
  print_json (json);
  return TRUE;
}

static gboolean
design_export (DesignOptions *o,
               int           *status,
               GError       **error)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(JsonNode) out = NULL;
  DynDesignFormat format;

  if (o->args->len != 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Usage: dynoscope-cli design export MODEL.json --format workbench|cloudformation|create-table [--model-table T]"));
      return FALSE;
    }
  if (o->format == NULL || !dyn_design_format_from_string (o->format, &format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--format takes workbench, cloudformation, create-table or dynoscope, not “%s”"),
                   o->format != NULL ? o->format : "");
      return FALSE;
    }
  model = dyn_design_model_load_file (o->args->pdata[0], o->model_table, error);
  if (model == NULL || !dyn_design_model_validate (model, error))
    return FALSE;
  /* A model whose table is not fixed gets its keys from the draft. */
  if (model->table == NULL || !model->table->fixed)
    {
      plan = dyn_design_draft (model, error);
      if (plan == NULL)
        return FALSE;
    }
  out = dyn_design_export (model, plan, format, error);
  if (out == NULL)
    return FALSE;
  print_json (out);
  return TRUE;
}

int
dyn_cli_design (int    argc,
                char **argv)
{
  g_auto(DesignOptions) o = { 0 };
  g_autoptr(GError) error = NULL;
  const char *sub;
  int status = 0;
  gboolean ok = FALSE;

  if (!parse_design_args (&o, argc, argv, &error))
    goto out;
  if (o.args->len == 0)
    {
      fputs ("Usage: dynoscope-cli design draft|check|infer|export … (see --help)\n", stderr);
      return 2;
    }
  sub = o.args->pdata[0];
  g_ptr_array_remove_index (o.args, 0);

  if (strcmp (sub, "draft") == 0)
    ok = design_draft (&o, &status, &error);
  else if (strcmp (sub, "check") == 0)
    ok = design_check (&o, &status, &error);
  else if (strcmp (sub, "infer") == 0)
    ok = design_infer (&o, &status, &error);
  else if (strcmp (sub, "export") == 0)
    ok = design_export (&o, &status, &error);
  else
    g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                 "Unknown design command “%s”: draft, check, infer or export", sub);

out:
  fflush (stdout);
  if (!ok)
    {
      if (error != NULL)
        fprintf (stderr, "error: %s\n", error->message);
      return 1;
    }
  return status;
}
