/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "dyn-design.h"
#include "dyn-design-private.h"
#include "dyn-error.h"
#include "dyn-pager.h"
#include "dyn-table.h"

/*
 * The live check.
 *
 * Scratch mode (no table given): CreateTable from the plan's table
 * ("dynoscope-check-<model>-<random>", on-demand), DescribeTable until it and
 * its indexes are ACTIVE, the examples written one PutItem each, guarded by
 * attribute_not_exists on the partition key (the same guarded write as on an
 * existing table: one path, and never over data even if a name collided),
 * every pattern's read sent and measured, then DeleteTable unless kept — also
 * after an error or a cancel (the cleanup runs without the cancellable).
 *
 * Existing-table mode: DescribeTable, the table's keys and indexes compared
 * with the plan (a pattern whose source is missing or keyed differently is a
 * finding and fails without being sent), the examples written guarded when
 * asked (they stay: a table the user named keeps what was written into it;
 * only a scratch table is removed), the patterns run, and a sample Scan of
 * the table's own data (its estimated cost said first) checked against the
 * model: items of no entity, and item collections far above their siblings
 * or near the 10 GB limit of a table with a local secondary index. Without
 * examples written the sample comes first, and the plan is drafted again on
 * it, so that each pattern asks for values of the table's own items.
 *
 * The reads are the plan's DynReadRequests: their DynRequest, pointed at the
 * table checked (the plan names the model's table, a scratch table has
 * another name), sent by a pager the way dyn_read_request_new_pager() makes
 * it (a fan-out over the shards of a sharded key), reading every page so that
 * requests, pages and capacity are what the pattern really costs.
 */

#define LSI_LIMIT_BYTES       (10.0 * 1024 * 1024 * 1024)
#define LSI_NEAR_FRACTION     0.8
#define HOT_FACTOR            10.0
#define DEFAULT_SAMPLE_ITEMS  1000
#define ACTIVE_TIMEOUT_US     (10 * 60 * G_USEC_PER_SEC)
#define DELETE_ATTEMPTS       30
#define INDEX_RETRIES         5

typedef enum {
  STEP_DESCRIBE_EXISTING,
  STEP_COMPARE,
  STEP_CREATE,
  STEP_WAIT_ACTIVE,
  STEP_WRITE,
  STEP_PATTERNS,
  STEP_SAMPLE,
  STEP_CLEANUP,
} Step;

typedef struct {
  DynClient            *client;
  DynDesignModel       *model;
  DynDesignPlan        *plan;
  GPtrArray            *examples;   /* DynValue */
  DynTableKeys         *plan_keys;
  DynTableKeys         *live_keys;  /* DescribeTable's, for the table checked */
  JsonObject           *description;
  char                 *table;
  gboolean              scratch;
  gboolean              write_examples;
  gboolean              keep_table;
  guint                 sample_items;
  gboolean              create_sent;
  gint64                wait_deadline;
  guint                 delete_attempts;
  DynDesignProgressFunc progress;
  gpointer              progress_data;
  DynDesignCheckReport *report;
  GError               *error;      /* the first error, returned after the cleanup */
  guint                 next;       /* the example or pattern being worked on */
  GHashTable           *unusable;   /* pattern name → problem: not sent (existing table) */
  /* The read in flight */
  DynPager             *pager;
  DynDesignCheckResult *result;
  const char           *entity;     /* the pattern's entity */
  GHashTable           *others;     /* entity names (or "") that came back besides it */
  gboolean              verifying;  /* a COUNT's second read, for the entities only */
  guint                 index_retries;
  GPtrArray            *sample;     /* DynValue */
  gboolean              sampled;    /* the sample was read (before the patterns, without examples) */
} CheckData;

static void step (GTask *task, Step next);

static void
check_result_free (DynDesignCheckResult *r)
{
  if (r == NULL)
    return;
  g_free (r->pattern);
  g_free (r->index);
  g_free (r->problem);
  g_free (r);
}

static void
decision_free (DynDesignDecision *d)
{
  if (d == NULL)
    return;
  g_free (d->subject);
  g_free (d->pattern);
  g_free (d->text);
  g_free (d);
}

static void
check_data_free (CheckData *d)
{
  g_clear_object (&d->client);
  g_clear_pointer (&d->model, dyn_design_model_free);
  g_clear_pointer (&d->plan, dyn_design_plan_free);
  g_clear_pointer (&d->examples, g_ptr_array_unref);
  g_clear_pointer (&d->plan_keys, dyn_table_keys_free);
  g_clear_pointer (&d->live_keys, dyn_table_keys_free);
  g_clear_pointer (&d->description, json_object_unref);
  g_free (d->table);
  g_clear_pointer (&d->report, dyn_design_check_report_free);
  g_clear_error (&d->error);
  g_clear_pointer (&d->unusable, g_hash_table_unref);
  g_clear_object (&d->pager);
  g_clear_pointer (&d->result, check_result_free);
  g_clear_pointer (&d->others, g_hash_table_unref);
  g_clear_pointer (&d->sample, g_ptr_array_unref);
  g_free (d);
}

static void
progress (CheckData  *d,
          const char *format,
          ...) G_GNUC_PRINTF (2, 3);

static void
progress (CheckData  *d,
          const char *format,
          ...)
{
  g_autofree char *text = NULL;
  va_list args;

  if (d->progress == NULL)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  d->progress (text, d->progress_data);
}

static void
add_finding (CheckData  *d,
             const char *subject,
             const char *pattern,
             gboolean    warning,
             char       *text)   /* taken */
{
  DynDesignDecision *f = g_new0 (DynDesignDecision, 1);

  f->subject = g_strdup (subject);
  f->pattern = g_strdup (pattern);
  f->text = text;
  f->warning = warning;
  g_ptr_array_add (d->report->findings, f);
}

/* Keeps the first error and goes on to the cleanup. */
static void
fail (GTask  *task,
      GError *error)   /* taken */
{
  CheckData *d = g_task_get_task_data (task);

  if (d->error == NULL)
    d->error = error;
  else
    g_error_free (error);
  step (task, STEP_CLEANUP);
}

static void
fail_prefixed (GTask      *task,
               GError     *error,   /* taken */
               const char *what)
{
  g_prefix_error (&error, "%s: ", what);
  fail (task, error);
}

/* ------------------------------------------------------------------------ */
/* Names and values */

/* "dynoscope-check-<model>-<random>" within DynamoDB's rules: 3–255
 * characters of a–z, A–Z, 0–9, '_', '-' and '.'. */
static char *
scratch_table_name (const char *model_name)
{
  GString *s = g_string_new ("dynoscope-check-");
  gboolean dash = TRUE;
  guint used = 0;

  for (const char *p = model_name ? model_name : ""; *p != '\0' && used < 64; p++)
    {
      char c = *p;

      if (g_ascii_isalnum (c) || c == '_' || c == '.')
        {
          g_string_append_c (s, g_ascii_tolower (c));
          dash = FALSE;
          used++;
        }
      else if (!dash)
        {
          g_string_append_c (s, '-');
          dash = TRUE;
          used++;
        }
    }
  if (!dash)
    g_string_append_c (s, '-');
  g_string_append_printf (s, "%08x", g_random_int ());
  return g_string_free (s, FALSE);
}

/* A key value as the user reads it: a string or number as it is, binary
 * as Base64, anything else as DynamoDB JSON. */
static char *
value_text (const DynValue *v)
{
  if (v == NULL)
    return g_strdup ("—");
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_S:
      return g_strdup (dyn_value_get_string (v));
    case DYN_VALUE_N:
      return g_strdup (dyn_value_get_number (v));
    case DYN_VALUE_B:
      {
        GBytes *b = dyn_value_get_binary (v);
        gsize len;
        const guchar *data = g_bytes_get_data (b, &len);
        return g_base64_encode (data, len);
      }
    default:
      return dyn_value_to_ddb_json_string (v);
    }
}

/* "PK = WS#acme, SK = META" */
static char *
key_text (const DynTableKeys *keys,
          const DynValue     *item)
{
  GString *s = g_string_new (NULL);
  const DynKeySchema *k = &keys->table.keys;

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (k); i++)
    {
      const char *name = dyn_key_schema_get_attribute (k, i, NULL);
      g_autofree char *v = value_text (dyn_value_map_lookup (item, name));

      g_string_append_printf (s, "%s%s = %s", s->len ? ", " : "", name, v);
    }
  return g_string_free (s, FALSE);
}

static const char *
index_kind_text (const DynTableKeys *keys,
                 const char         *index)
{
  return index ? index : keys->table.name;
}

static char *
schema_text (const DynKeySchema *k)
{
  g_autofree char *pk = dyn_key_schema_join_names (k, FALSE);
  g_autofree char *sk = dyn_key_schema_join_names (k, TRUE);

  return sk ? g_strdup_printf ("%s, %s", pk, sk) : g_strdup (pk);
}

static gboolean
schemas_equal (const DynKeySchema *a,
               const DynKeySchema *b)
{
  if (dyn_key_schema_get_n_attributes (a) != dyn_key_schema_get_n_attributes (b) ||
      dyn_key_schema_get_n_partition_keys (a) != dyn_key_schema_get_n_partition_keys (b))
    return FALSE;
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (a); i++)
    {
      DynValueType ta, tb;
      const char *na = dyn_key_schema_get_attribute (a, i, &ta);
      const char *nb = dyn_key_schema_get_attribute (b, i, &tb);

      if (g_strcmp0 (na, nb) != 0 || ta != tb)
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* CreateTable from the plan's table */

static JsonNode *
table_name_params (const char *table)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "TableName", table);
  json_node_take_object (node, o);
  return node;
}

/* ------------------------------------------------------------------------ */
/* Steps */

/* The plan's table under the scratch table's name, on demand: a scratch
 * table costs nothing while idle. */
static JsonNode *
create_table_params (const DynDesignTable *t,
                     const char           *name,
                     GError              **error)
{
  g_autoptr(DynDesignTable) scratch = dyn_design_table_copy (t);

  g_free (scratch->name);
  scratch->name = g_strdup (name);
  g_free (scratch->billing_mode);
  scratch->billing_mode = g_strdup ("PAY_PER_REQUEST");
  return _dyn_design_create_table_export (scratch, error);
}

static void
create_cb (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;

  response = dyn_client_call_finish (d->client, res, &error);
  if (response == NULL)
    {
      g_autofree char *what = g_strdup_printf (_("Could not create the scratch table “%s”"), d->table);

      /* Whether the table may exist all the same: not when the service
       * refused (a name in use is someone else's table, never deleted) or
       * the request never left; maybe after a cancel, a timeout or a
       * connection lost on the way, when the cleanup tries to delete it. */
      if ((error->domain == DYN_ERROR && error->code != DYN_ERROR_SERVER && error->code != DYN_ERROR_PROTOCOL) ||
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE) ||
          error->domain == G_RESOLVER_ERROR)
        d->create_sent = FALSE;
      fail_prefixed (task, error, what);
      return;
    }
  d->wait_deadline = g_get_monotonic_time () + ACTIVE_TIMEOUT_US;
  step (task, STEP_WAIT_ACTIVE);
}

static gboolean
table_is_active (JsonObject *t)
{
  const char *status = json_object_get_string_member_with_default (t, "TableStatus", "");
  const char *lists[] = { "GlobalSecondaryIndexes", NULL };

  if (strcmp (status, "ACTIVE") != 0)
    return FALSE;
  for (guint l = 0; lists[l]; l++)
    {
      JsonArray *a = json_object_has_member (t, lists[l]) ? json_object_get_array_member (t, lists[l]) : NULL;

      for (guint i = 0; a && i < json_array_get_length (a); i++)
        {
          JsonObject *ix = json_array_get_object_element (a, i);
          const char *s = ix ? json_object_get_string_member_with_default (ix, "IndexStatus", "ACTIVE") : "ACTIVE";

          if (strcmp (s, "ACTIVE") != 0)
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
poll_again_cb (gpointer user_data)
{
  GTask *task = user_data;

  step (task, STEP_WAIT_ACTIVE);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
describe_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(DynTableKeys) keys = NULL;
  JsonObject *t;
  GError *error = NULL;

  t = dyn_client_describe_table_finish (d->client, res, &keys, &error);
  if (t == NULL)
    {
      g_autofree char *what = g_strdup_printf (_("Could not read the table “%s”"), d->table);
      fail_prefixed (task, error, what);
      return;
    }
  g_clear_pointer (&d->description, json_object_unref);
  d->description = t;
  g_clear_pointer (&d->live_keys, dyn_table_keys_free);
  d->live_keys = g_steal_pointer (&keys);

  if (d->scratch)
    {
      if (!table_is_active (t))
        {
          if (g_get_monotonic_time () > d->wait_deadline)
            {
              fail (task, g_error_new (DYN_ERROR, DYN_ERROR_FAILED,
                                       _("The scratch table “%s” did not become ACTIVE in time"), d->table));
              return;
            }
          g_timeout_add (500, poll_again_cb, g_object_ref (task));
          return;
        }
      step (task, STEP_WRITE);
      return;
    }
  step (task, STEP_COMPARE);
}

/* Existing table: the plan's sources against the table's. */
static void
compare_with_plan (CheckData *d)
{
  GPtrArray *requests = dyn_design_plan_get_requests (d->plan);
  const DynKeySchema *want_table = &d->plan_keys->table.keys;
  const DynKeySchema *have_table = &d->live_keys->table.keys;

  if (!schemas_equal (want_table, have_table))
    {
      g_autofree char *want = schema_text (want_table);
      g_autofree char *have = schema_text (have_table);

      add_finding (d, d->table, NULL, TRUE,
                   g_strdup_printf (_("The table’s key is (%s), the plan’s is (%s): the plan’s reads of the table cannot be a Query or GetItem on it."),
                                    have, want));
      if (d->write_examples)
        {
          /* Items without the table's key attributes cannot be written. */
          d->write_examples = FALSE;
          add_finding (d, d->table, NULL, TRUE,
                       g_strdup (_("The examples were not written: they do not carry the table’s key attributes.")));
        }
    }

  for (guint i = 0; i < requests->len; i++)
    {
      DynDesignRequest *r = requests->pdata[i];
      const DynIndexInfo *want, *have;
      char *problem = NULL;

      if (r->request == NULL || r->operation == DYN_OP_SCAN)
        continue;
      want = dyn_table_keys_lookup (d->plan_keys, r->index);
      have = dyn_table_keys_lookup (d->live_keys, r->index);
      if (have == NULL)
        problem = g_strdup_printf (_("“%s” cannot be a Query on this table: it has no index “%s”."),
                                   r->pattern, r->index);
      else if (want != NULL && !schemas_equal (&want->keys, &have->keys))
        {
          g_autofree char *w = schema_text (&want->keys);
          g_autofree char *h = schema_text (&have->keys);

          problem = g_strdup_printf (_("“%s” cannot be a Query on this table: “%s” is keyed on (%s), the plan needs (%s)."),
                                     r->pattern, index_kind_text (d->live_keys, r->index), h, w);
        }
      if (problem != NULL)
        {
          g_hash_table_insert (d->unusable, g_strdup (r->pattern), g_strdup (problem));
          add_finding (d, r->index ? r->index : d->table, r->pattern, TRUE, problem);
        }
    }
}

/* --- Guarded writes ----------------------------------------------------- */

static void write_next (GTask *task);

static void
put_cb (GObject      *source,
        GAsyncResult *res,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;

  response = dyn_client_execute_finish (d->client, res, &error);
  if (response != NULL)
    {
      d->report->items_written++;
      d->report->write_units += response->write_units;
    }
  else if (g_error_matches (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED))
    {
      /* An item with that key is there: it stays as it is. */
      d->report->items_existing++;
      g_error_free (error);
    }
  else
    {
      fail_prefixed (task, error, _("Could not write the examples"));
      return;
    }
  d->next++;
  write_next (task);
}

static void
write_next (GTask *task)
{
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(DynRequest) put = NULL;

  if (d->next >= d->examples->len)
    {
      if (d->report->items_existing > 0)
        progress (d, g_dngettext (GETTEXT_PACKAGE,
                                  "%u example was not written: an item with its key is already there and was left as it is",
                                  "%u examples were not written: items with their keys are already there and were left as they are",
                                  d->report->items_existing),
                  d->report->items_existing);
      if (!d->scratch && d->report->items_written > 0)
        progress (d, g_dngettext (GETTEXT_PACKAGE,
                                  "The %u example written stays in “%s”",
                                  "The %u examples written stay in “%s”",
                                  d->report->items_written),
                  d->report->items_written, d->table);
      d->next = 0;
      step (task, STEP_PATTERNS);
      return;
    }

  put = dyn_request_new (DYN_OP_PUT_ITEM, d->table);
  put->item = dyn_value_ref (d->examples->pdata[d->next]);
  put->condition = g_strdup ("attribute_not_exists(#pk)");
  dyn_request_add_name (put, "#pk", d->live_keys->table.keys.partition_key);
  dyn_client_execute_async (d->client, put, g_task_get_cancellable (task), put_cb, g_object_ref (task));
}

/* --- The patterns ------------------------------------------------------- */

static void run_next (GTask *task);
static void run_cb (GObject *source, GAsyncResult *res, gpointer user_data);

static const DynDesignPattern *
find_pattern (const DynDesignModel *model,
              guint                 i,
              const char           *name)
{
  if (i < model->patterns->len &&
      g_strcmp0 (((DynDesignPattern *) model->patterns->pdata[i])->name, name) == 0)
    return model->patterns->pdata[i];
  for (guint j = 0; j < model->patterns->len; j++)
    if (g_strcmp0 (((DynDesignPattern *) model->patterns->pdata[j])->name, name) == 0)
      return model->patterns->pdata[j];
  return NULL;
}

/* The plan's read, pointed at the table checked. */
static DynPager *
new_pager (CheckData        *d,
           DynDesignRequest *r,
           gboolean          all_attributes)
{
  g_autoptr(DynRequest) req = dyn_request_copy (dyn_read_request_get_request (r->request));
  const DynIndexInfo *source = dyn_table_keys_lookup (d->live_keys, r->index);
  DynPager *pager;

  g_free (req->table);
  req->table = g_strdup (d->table);
  if (all_attributes)
    g_clear_pointer (&req->select, g_free);

  if (req->shard_values != NULL && req->shard_placeholder != NULL)
    {
      pager = dyn_pager_new_fan_out (d->client, req, req->shard_placeholder, req->shard_values,
                                     source ? source->keys.sort_key : NULL);
      if (source != NULL && dyn_key_schema_get_n_sort_keys (&source->keys) > 1)
        {
          g_autoptr(GPtrArray) names = g_ptr_array_new ();

          for (guint i = 0; i < dyn_key_schema_get_n_sort_keys (&source->keys); i++)
            g_ptr_array_add (names, (gpointer) dyn_key_schema_get_sort_key (&source->keys, i, NULL));
          g_ptr_array_add (names, NULL);
          dyn_pager_set_merge_keys (pager, (const char * const *) names->pdata);
        }
      return pager;
    }
  pager = dyn_pager_new (d->client, req);
  dyn_pager_set_first_page_only (pager, dyn_read_request_get_first_page_only (r->request));
  return pager;
}

static void
page_cb (GPtrArray *items,
         gpointer   user_data)
{
  CheckData *d = user_data;

  for (guint i = 0; i < items->len; i++)
    {
      const char *entity = dyn_design_plan_classify (d->plan, items->pdata[i]);

      if (g_strcmp0 (entity, d->entity) != 0)
        g_hash_table_add (d->others, g_strdup (entity ? entity : ""));
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static char *
others_text (GHashTable *others)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  GString *s = g_string_new (NULL);

  g_hash_table_iter_init (&iter, others);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = names->pdata[i];

      if (s->len)
        g_string_append (s, ", ");
      g_string_append (s, *n ? n : _("items of no entity"));
    }
  return g_string_free (s, FALSE);
}

/* Sets passed and the problem of the result just measured. */
static void
judge (CheckData            *d,
       DynDesignRequest     *r,
       DynDesignCheckResult *res)
{
  GString *problem = g_string_new (NULL);
  guint expected = MAX (r->shards, 1);

#define ADD(...) G_STMT_START { \
    g_autofree char *_s = g_strdup_printf (__VA_ARGS__); \
    if (problem->len) g_string_append_c (problem, ' '); \
    g_string_append (problem, _s); } G_STMT_END

  res->only_entity = g_hash_table_size (d->others) == 0;
  if (res->operation != DYN_OP_GET_ITEM && res->operation != DYN_OP_QUERY)
    ADD (_("It is a Scan, not a Query: %s"), r->reason ? r->reason : _("no key condition serves it."));
  else if (res->requests != expected || res->pages != expected)
    {
      if (expected > 1)
        ADD (_("It took %u requests and %u pages; one request of one page per shard (%u) was expected."),
             res->requests, res->pages, expected);
      else
        ADD (_("It took %u requests and %u pages; one request of one page was expected."),
             res->requests, res->pages);
    }
  if (res->items == 0)
    {
      if (!d->scratch && !d->write_examples)
        ADD (_("It returned no items: the sample of the table holds no item of “%s” with its parameters, so the read asked for values that may not be there."),
             d->entity ? d->entity : "");
      else
        ADD (_("It returned no items."));
    }
  if (!res->only_entity)
    {
      g_autofree char *o = others_text (d->others);

      ADD (_("It returned other items than “%s”: %s."), d->entity ? d->entity : "", o);
    }
#undef ADD

  res->passed = problem->len == 0;
  if (res->passed)
    g_string_free (problem, TRUE);
  else
    res->problem = g_string_free (problem, FALSE);
}

static void
send_read (GTask *task)
{
  CheckData *d = g_task_get_task_data (task);
  DynDesignRequest *r = dyn_design_plan_get_requests (d->plan)->pdata[d->next];

  g_clear_object (&d->pager);
  g_hash_table_remove_all (d->others);
  d->pager = new_pager (d, r, FALSE);
  dyn_pager_run_async (d->pager, 1, 0, page_cb, d, g_task_get_cancellable (task),
                       run_cb, g_object_ref (task));
}

static gboolean
read_again_cb (gpointer user_data)
{
  GTask *task = user_data;

  send_read (task);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static gboolean
is_global_index (const DynTableKeys *keys,
                 const char         *index)
{
  const DynIndexInfo *info = index ? dyn_table_keys_lookup (keys, index) : NULL;

  return info != NULL && info->kind == DYN_INDEX_GLOBAL;
}

static void
run_cb (GObject      *source,
        GAsyncResult *res,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  GPtrArray *requests = dyn_design_plan_get_requests (d->plan);
  DynDesignRequest *r = requests->pdata[d->next];
  GError *error = NULL;

  if (!dyn_pager_run_finish (DYN_PAGER (source), res, &error))
    {
      g_autofree char *what = g_strdup_printf (_("Could not run “%s”"), r->pattern);
      fail_prefixed (task, error, what);
      return;
    }

  if (!d->verifying)
    {
      const DynReadStats *stats = dyn_pager_get_stats (d->pager);

      d->result->requests = stats->requests;
      d->result->pages = stats->pages;
      d->result->read_units = stats->read_units;
      d->result->items = dyn_read_request_get_count_only (r->request) ? stats->counted : stats->items;
      if (d->result->items == 0 && d->report->items_written > 0 && is_global_index (d->live_keys, r->index) &&
          d->index_retries < INDEX_RETRIES)
        {
          /* A global secondary index is updated shortly after the write
           * (on DynamoDB, not on DynamoDB Local): the same read again, and
           * only the last one is measured. */
          d->index_retries++;
          progress (d, _("The index “%s” has none of the examples yet; reading again …"), r->index);
          g_clear_object (&d->pager);
          g_timeout_add (1000, read_again_cb, g_object_ref (task));
          return;
        }
      if (dyn_read_request_get_count_only (r->request) && stats->counted > 0)
        {
          /* Select=COUNT returns no items to classify: the same read once
           * more with the items, for the entities only (not in the cost). */
          d->verifying = TRUE;
          g_clear_object (&d->pager);
          d->pager = new_pager (d, r, TRUE);
          dyn_pager_run_async (d->pager, 1, 0, page_cb, d, g_task_get_cancellable (task),
                               run_cb, g_object_ref (task));
          return;
        }
    }
  d->verifying = FALSE;
  judge (d, r, d->result);
  g_ptr_array_add (d->report->results, g_steal_pointer (&d->result));
  g_clear_object (&d->pager);
  d->next++;
  run_next (task);
}

static void
run_next (GTask *task)
{
  CheckData *d = g_task_get_task_data (task);
  GPtrArray *requests = dyn_design_plan_get_requests (d->plan);
  DynDesignRequest *r;
  const DynDesignPattern *pattern;
  DynDesignCheckResult *res;
  const char *unusable;

  if (d->next >= requests->len)
    {
      step (task, d->scratch || d->sampled ? STEP_CLEANUP : STEP_SAMPLE);
      return;
    }
  r = requests->pdata[d->next];
  pattern = find_pattern (d->model, d->next, r->pattern);

  res = g_new0 (DynDesignCheckResult, 1);
  res->pattern = g_strdup (r->pattern);
  res->operation = r->operation;
  res->index = g_strdup (r->index);
  d->entity = pattern ? pattern->entity : NULL;
  g_hash_table_remove_all (d->others);

  unusable = g_hash_table_lookup (d->unusable, r->pattern);
  if (r->request == NULL || !dyn_read_request_is_valid (r->request) || unusable != NULL ||
      (r->operation == DYN_OP_SCAN && !d->scratch))
    {
      /* Not sent: there is no valid read, its source is not on the table,
       * or it is a Scan of a table with real data. */
      if (unusable != NULL)
        res->problem = g_strdup (unusable);
      else if (r->operation == DYN_OP_SCAN && r->request != NULL && dyn_read_request_is_valid (r->request))
        res->problem = g_strdup_printf (_("It is a Scan, not a Query: %s It was not run: it would read the whole table."),
                                        r->reason ? r->reason : "");
      else
        res->problem = g_strdup_printf (_("It has no valid read: %s"),
                                        r->reason ? r->reason :
                                        (r->request && dyn_read_request_get_error (r->request)) ?
                                          dyn_read_request_get_error (r->request)->message : "");
      res->passed = FALSE;
      g_ptr_array_add (d->report->results, res);
      d->next++;
      run_next (task);
      return;
    }

  progress (d, _("Running “%s” (%s) …"), r->pattern, dyn_operation_get_name (r->operation));
  d->result = res;
  d->index_retries = 0;
  send_read (task);
}

/* --- The sample of an existing table ------------------------------------ */

typedef struct {
  char    *text;     /* the partition key value as read */
  guint    items;
  guint64  bytes;
} Collection;

static void
collection_free (Collection *c)
{
  g_free (c->text);
  g_free (c);
}

static int
compare_guint (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

static guint64
description_number (JsonObject *t,
                    const char *member)
{
  return t && json_object_has_member (t, member) ? (guint64) json_object_get_int_member (t, member) : 0;
}

static gboolean
has_local_index (const DynTableKeys *keys)
{
  for (guint i = 0; keys->indexes && i < keys->indexes->len; i++)
    if (((DynIndexInfo *) keys->indexes->pdata[i])->kind == DYN_INDEX_LOCAL)
      return TRUE;
  return FALSE;
}

static char *
size_text (double bytes)
{
  return g_format_size ((guint64) bytes);
}

static void
analyze_sample (CheckData *d,
                gboolean   complete)
{
  const char *pk = d->live_keys->table.keys.partition_key;
  g_autoptr(GHashTable) collections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             (GDestroyNotify) collection_free);
  g_autoptr(GPtrArray) unknown = g_ptr_array_new ();
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint));
  guint64 table_bytes = description_number (d->description, "TableSizeBytes");
  guint64 sample_bytes = 0;
  GHashTableIter iter;
  gpointer value;
  double median;

  for (guint i = 0; i < d->sample->len; i++)
    {
      DynValue *item = d->sample->pdata[i];
      DynValue *pkv = dyn_value_map_lookup (item, pk);
      g_autofree char *id = pkv ? dyn_value_to_ddb_json_string (pkv) : NULL;
      Collection *c;
      gsize size = dyn_item_size (item);

      sample_bytes += size;
      if (dyn_design_plan_classify (d->plan, item) == NULL)
        g_ptr_array_add (unknown, item);
      if (id == NULL)
        continue;
      c = g_hash_table_lookup (collections, id);
      if (c == NULL)
        {
          c = g_new0 (Collection, 1);
          c->text = value_text (pkv);
          g_hash_table_insert (collections, g_steal_pointer (&id), c);
        }
      c->items++;
      c->bytes += size;
    }

  if (unknown->len > 0)
    {
      GString *keys = g_string_new (NULL);

      for (guint i = 0; i < MIN (unknown->len, 3); i++)
        {
          g_autofree char *k = key_text (d->live_keys, unknown->pdata[i]);
          g_string_append_printf (keys, "%s(%s)", i ? "; " : "", k);
        }
      add_finding (d, d->table, NULL, TRUE,
                   g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%u of %u sampled items matches no entity of the model, e.g. %s.",
                                                 "%u of %u sampled items match no entity of the model, e.g. %s.",
                                                 unknown->len),
                                    unknown->len, d->sample->len, keys->str));
      g_string_free (keys, TRUE);
    }

  g_hash_table_iter_init (&iter, collections);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_append_val (counts, ((Collection *) value)->items);
  if (counts->len == 0)
    return;
  g_array_sort (counts, compare_guint);
  median = (g_array_index (counts, guint, (counts->len - 1) / 2) +
            g_array_index (counts, guint, counts->len / 2)) / 2.0;

  g_hash_table_iter_init (&iter, collections);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Collection *c = value;

      if (counts->len >= 2 && c->items >= HOT_FACTOR * median)
        add_finding (d, d->table, NULL, TRUE,
                     g_strdup_printf (_("The item collection %s = “%s” has %u items in the sample, %.0f× the median of its %u siblings (%.1f): a hot-partition candidate."),
                                      pk, c->text, c->items, c->items / median, counts->len - 1, median));
      if (has_local_index (d->live_keys))
        {
          /* A complete sample measures the collection; a partial one is
           * projected to the table by the collection's share of the bytes. */
          double projected = complete || table_bytes == 0 || sample_bytes == 0
                             ? (double) c->bytes
                             : (double) c->bytes / sample_bytes * table_bytes;

          if (projected >= LSI_NEAR_FRACTION * LSI_LIMIT_BYTES)
            {
              g_autofree char *size = size_text (projected);

              add_finding (d, d->table, NULL, TRUE,
                           g_strdup_printf (_("The item collection %s = “%s” is about %s (projected from the sample): near the 10 GB limit of a table with a local secondary index."),
                                            pk, c->text, size));
            }
        }
    }
}

static void
sample_page_cb (GPtrArray *items,
                gpointer   user_data)
{
  CheckData *d = user_data;

  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (d->sample, dyn_value_ref (items->pdata[i]));
}

static void
sample_cb (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  const DynReadStats *stats;
  GError *error = NULL;

  if (!dyn_pager_run_finish (DYN_PAGER (source), res, &error))
    {
      fail_prefixed (task, error, _("Could not read the sample"));
      return;
    }
  stats = dyn_pager_get_stats (d->pager);
  d->report->sampled_items = d->sample->len;
  d->report->sample_read_units = stats->read_units;
  analyze_sample (d, dyn_pager_is_done (d->pager));
  g_clear_object (&d->pager);
  if (d->write_examples || d->sampled)
    {
      step (task, STEP_CLEANUP);
      return;
    }
  d->sampled = TRUE;

  /* Drafted again on the sample: each pattern's values are those of the
   * first sampled item of its entity that has them. */
  {
    DynDesignPlan *plan;

    g_clear_pointer (&d->model->items, g_ptr_array_unref);
    d->model->items = g_ptr_array_ref (d->sample);
    plan = dyn_design_draft (d->model, &error);
    if (plan == NULL)
      {
        fail_prefixed (task, error, _("The model cannot be drafted"));
        return;
      }
    dyn_design_plan_free (d->plan);
    d->plan = plan;
  }
  step (task, STEP_PATTERNS);
}

static void
start_sample (GTask *task)
{
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(DynRequest) scan = dyn_request_new (DYN_OP_SCAN, d->table);
  guint64 count = description_number (d->description, "ItemCount");
  guint64 bytes = description_number (d->description, "TableSizeBytes");
  g_autofree char *size = g_format_size (bytes);

  /* Its cost first: a Scan reads 4 KB per 0.5 RCU (eventually consistent). */
  if (count > 0 && bytes > 0)
    {
      double n = MIN ((double) d->sample_items, (double) count);
      double units = ceil (n * ((double) bytes / count) / 4096.0) * 0.5;

      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, count);

      progress (d, _("Reading a sample of up to %u items of “%s” with a Scan: about %.1f RCU (the table has %s items, %s) …"),
                d->sample_items, d->table, MAX (units, 0.5), items, size);
    }
  else
    progress (d, _("Reading a sample of up to %u items of “%s” with a Scan: DescribeTable reports no size yet, so at most 0.5 RCU per 4 KB read …"),
              d->sample_items, d->table);

  d->sample = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  d->pager = dyn_pager_new (d->client, scan);
  dyn_pager_run_async (d->pager, 1, d->sample_items, sample_page_cb, d,
                       g_task_get_cancellable (task), sample_cb, g_object_ref (task));
}

static void
sample_describe_cb (GObject      *source,
                    GAsyncResult *res,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  JsonObject *t;
  GError *error = NULL;

  t = dyn_client_describe_table_finish (d->client, res, NULL, &error);
  if (t == NULL)
    {
      g_autofree char *what = g_strdup_printf (_("Could not read the table “%s”"), d->table);
      fail_prefixed (task, error, what);
      return;
    }
  g_clear_pointer (&d->description, json_object_unref);
  d->description = t;
  start_sample (task);
}

/* --- The end ------------------------------------------------------------ */

static void
finish (GTask *task)
{
  CheckData *d = g_task_get_task_data (task);
  DynDesignCheckReport *report = d->report;

  if (d->error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&d->error));
      return;
    }
  if (d->model->patterns->len == 0)
    /* Nothing run is nothing shown: a check of no pattern does not pass. */
    add_finding (d, d->model->name, NULL, TRUE,
                 g_strdup (_("The model has no access patterns: nothing was checked. Write down the reads the application makes (accessPatterns) and check again.")));
  report->passed = TRUE;
  for (guint i = 0; i < report->results->len; i++)
    report->passed &= ((DynDesignCheckResult *) report->results->pdata[i])->passed;
  for (guint i = 0; i < report->findings->len; i++)
    report->passed &= !((DynDesignDecision *) report->findings->pdata[i])->warning;
  g_task_return_pointer (task, g_steal_pointer (&d->report), (GDestroyNotify) dyn_design_check_report_free);
}

static void delete_table (GTask *task);

static gboolean
delete_again_cb (gpointer user_data)
{
  GTask *task = user_data;

  delete_table (task);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
delete_cb (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = dyn_client_call_finish (d->client, res, &error);
  if (response == NULL && g_error_matches (error, DYN_ERROR, DYN_ERROR_IN_USE) &&
      ++d->delete_attempts < DELETE_ATTEMPTS)
    {
      /* Still CREATING (a cancel during CreateTable): once it is ACTIVE. */
      g_timeout_add (1000, delete_again_cb, g_object_ref (task));
      return;
    }
  if (response == NULL && !g_error_matches (error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
    {
      /* Say so: a table left behind costs nothing idle, but should not go unnoticed. */
      GError *left = g_error_new (DYN_ERROR, DYN_ERROR_FAILED,
                                  _("The scratch table “%s” could not be deleted, delete it yourself: %s"),
                                  d->table, error->message);
      if (d->error != NULL)
        {
          g_prefix_error (&d->error, "%s ", left->message);
          g_error_free (left);
        }
      else
        d->error = left;
    }
  else if (response != NULL)
    progress (d, _("Deleted the scratch table “%s”"), d->table);
  finish (task);
}

static void
delete_table (GTask *task)
{
  CheckData *d = g_task_get_task_data (task);
  g_autoptr(JsonNode) params = table_name_params (d->table);

  /* No cancellable: the cleanup runs after a cancel too. */
  dyn_client_call_async (d->client, "DeleteTable", params, NULL, delete_cb, g_object_ref (task));
}

static void
step (GTask *task,
      Step   next)
{
  CheckData *d = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  switch (next)
    {
    case STEP_DESCRIBE_EXISTING:
      progress (d, _("Reading the table “%s” …"), d->table);
      dyn_client_describe_table_async (d->client, d->table, cancellable, describe_cb, g_object_ref (task));
      break;

    case STEP_COMPARE:
      compare_with_plan (d);
      if (d->write_examples)
        step (task, STEP_WRITE);
      else
        /* The table's own data: the sample first, so that the patterns ask
         * for values that are there. */
        step (task, STEP_SAMPLE);
      break;

    case STEP_CREATE:
      {
        g_autoptr(JsonNode) params = create_table_params (dyn_design_plan_get_table (d->plan), d->table, &d->error);

        if (params == NULL)
          {
            step (task, STEP_CLEANUP);
            break;
          }

        progress (d, _("Creating the scratch table “%s” …"), d->table);
        d->create_sent = TRUE;
        dyn_client_call_async (d->client, "CreateTable", params, cancellable, create_cb, g_object_ref (task));
      }
      break;

    case STEP_WAIT_ACTIVE:
      if (g_cancellable_set_error_if_cancelled (cancellable, &d->error))
        {
          step (task, STEP_CLEANUP);
          break;
        }
      dyn_client_describe_table_async (d->client, d->table, cancellable, describe_cb, g_object_ref (task));
      break;

    case STEP_WRITE:
      progress (d, g_dngettext (GETTEXT_PACKAGE,
                                "Writing %u example into “%s” (guarded: never over an existing item) …",
                                "Writing %u examples into “%s” (guarded: never over an existing item) …",
                                d->examples->len),
                d->examples->len, d->table);
      d->next = 0;
      write_next (task);
      break;

    case STEP_PATTERNS:
      d->next = 0;
      run_next (task);
      break;

    case STEP_SAMPLE:
      if (d->report->items_written > 0)
        /* The size the sample's cost is estimated from, with the examples. */
        dyn_client_describe_table_async (d->client, d->table, cancellable, sample_describe_cb, g_object_ref (task));
      else
        start_sample (task);
      break;

    case STEP_CLEANUP:
      /* A kept table is one to browse: after an error or a cancel there is
       * no report to name it, so it goes as well. */
      if (d->scratch && d->create_sent && (!d->keep_table || d->error != NULL))
        {
          progress (d, _("Deleting the scratch table “%s” …"), d->table);
          delete_table (task);
        }
      else
        {
          if (d->scratch && d->create_sent && d->error == NULL)
            progress (d, _("The scratch table “%s” is kept"), d->table);
          finish (task);
        }
      break;

    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------------ */
/* API */

void
dyn_design_check_async (DynClient                   *client,
                        const DynDesignModel        *model,
                        const DynDesignCheckOptions *options,
                        DynDesignProgressFunc        progress_func,
                        gpointer                     progress_data,
                        GCancellable                *cancellable,
                        GAsyncReadyCallback          callback,
                        gpointer                     user_data)
{
  g_autoptr(GTask) task = NULL;
  CheckData *d;
  GError *error = NULL;
  const DynDesignCheckOptions defaults = { 0 };
  guint per_parent;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (model != NULL);

  if (options == NULL)
    options = &defaults;

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_design_check_async);
  /* The cleanup after a cancel still has to finish; the error it keeps is
   * the cancel's. */
  g_task_set_check_cancellable (task, FALSE);

  d = g_new0 (CheckData, 1);
  g_task_set_task_data (task, d, (GDestroyNotify) check_data_free);
  d->client = g_object_ref (client);
  d->progress = progress_func;
  d->progress_data = progress_data;
  d->model = dyn_design_model_copy (model);
  d->scratch = options->table == NULL || *options->table == '\0';
  d->write_examples = d->scratch || options->write_examples;
  d->keep_table = options->keep_table;
  d->sample_items = options->sample_items ? options->sample_items : DEFAULT_SAMPLE_ITEMS;
  d->unusable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);  /* the plan is drafted again: names copied */
  d->others = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  d->plan = dyn_design_draft (d->model, &error);
  if (d->plan == NULL)
    {
      g_prefix_error (&error, "%s", _("The model cannot be drafted: "));
      g_task_return_error (task, error);
      return;
    }
  per_parent = options->per_parent ? options->per_parent : d->model->examples_per_parent;
  d->examples = dyn_design_examples (d->model, d->plan, per_parent, options->seed);
  if (d->examples == NULL)
    d->examples = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  if ((d->model->items == NULL || d->model->items->len == 0) && d->examples->len > 0)
    {
      /* The plan's requests take their values from examples drafted with
       * the default count and seed: drafted again on the examples written
       * here, so that every read asks for items that are there. */
      g_clear_pointer (&d->model->items, g_ptr_array_unref);
      d->model->items = g_ptr_array_ref (d->examples);
      dyn_design_plan_free (d->plan);
      d->plan = dyn_design_draft (d->model, &error);
      if (d->plan == NULL)
        {
          g_prefix_error (&error, "%s", _("The model cannot be drafted: "));
          g_task_return_error (task, error);
          return;
        }
    }
  d->plan_keys = dyn_design_table_to_keys (dyn_design_plan_get_table (d->plan));

  d->report = g_new0 (DynDesignCheckReport, 1);
  d->report->results = g_ptr_array_new_with_free_func ((GDestroyNotify) check_result_free);
  d->report->findings = g_ptr_array_new_with_free_func ((GDestroyNotify) decision_free);
  d->report->scratch = d->scratch;

  if (d->scratch)
    {
      d->table = scratch_table_name (d->model->name);
      d->report->table = g_strdup (d->table);
      step (task, STEP_CREATE);
    }
  else
    {
      d->table = g_strdup (options->table);
      d->report->table = g_strdup (d->table);
      step (task, STEP_DESCRIBE_EXISTING);
    }
}

DynDesignCheckReport *
dyn_design_check_finish (DynClient     *client,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dyn_design_check_report_free (DynDesignCheckReport *self)
{
  if (self == NULL)
    return;
  g_free (self->table);
  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_free (self);
}

JsonNode *
dyn_design_check_report_to_json (const DynDesignCheckReport *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  double read_units = 0;
  guint requests = 0;

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "table");
  json_builder_add_string_value (b, self->table);
  json_builder_set_member_name (b, "scratch");
  json_builder_add_boolean_value (b, self->scratch);
  json_builder_set_member_name (b, "passed");
  json_builder_add_boolean_value (b, self->passed);

  json_builder_set_member_name (b, "patterns");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->results->len; i++)
    {
      DynDesignCheckResult *r = self->results->pdata[i];

      requests += r->requests;
      read_units += r->read_units;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, r->pattern);
      json_builder_set_member_name (b, "operation");
      json_builder_add_string_value (b, dyn_operation_get_name (r->operation));
      _dyn_design_add_string_or_null (b, "index", r->index);
      json_builder_set_member_name (b, "requests");
      json_builder_add_int_value (b, r->requests);
      json_builder_set_member_name (b, "pages");
      json_builder_add_int_value (b, r->pages);
      json_builder_set_member_name (b, "readUnits");
      json_builder_add_double_value (b, r->read_units);
      json_builder_set_member_name (b, "items");
      json_builder_add_int_value (b, r->items);
      json_builder_set_member_name (b, "onlyEntity");
      json_builder_add_boolean_value (b, r->only_entity);
      json_builder_set_member_name (b, "passed");
      json_builder_add_boolean_value (b, r->passed);
      _dyn_design_add_string_or_null (b, "problem", r->problem);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  _dyn_design_add_decisions (b, "findings", self->findings);

  json_builder_set_member_name (b, "itemsWritten");
  json_builder_add_int_value (b, self->items_written);
  json_builder_set_member_name (b, "itemsExisting");
  json_builder_add_int_value (b, self->items_existing);
  json_builder_set_member_name (b, "sampledItems");
  json_builder_add_int_value (b, self->sampled_items);
  json_builder_set_member_name (b, "cost");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "requests");
  json_builder_add_int_value (b, requests);
  json_builder_set_member_name (b, "readUnits");
  json_builder_add_double_value (b, read_units);
  json_builder_set_member_name (b, "sampleReadUnits");
  json_builder_add_double_value (b, self->sample_read_units);
  json_builder_set_member_name (b, "writeUnits");
  json_builder_add_double_value (b, self->write_units);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
