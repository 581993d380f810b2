/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-guardrail"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-guardrail.h"
#include "dyn-changes-private.h"
#include "dyn-item-object.h"

/* DynWriteSummary ----------------------------------------------------------- */

struct _DynWriteSummary
{
  gatomicrefcount  ref_count;
  char            *title;
  GArray          *entries;      /* of DynWriteEntry */
  double           write_units;  /* the entries' sum, or the bulk total */
  guint64          count;
  gboolean         bulk;
};

G_DEFINE_BOXED_TYPE (DynWriteSummary, dyn_write_summary, dyn_write_summary_ref, dyn_write_summary_unref)

static void
clear_entry (DynWriteEntry *entry)
{
  g_free (entry->table);
  g_free (entry->action);
  g_free (entry->key);
  g_free (entry->guard);
}

DynWriteSummary *
dyn_write_summary_new (const char *title)
{
  DynWriteSummary *self = g_new0 (DynWriteSummary, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->title = g_strdup (title);
  self->entries = g_array_new (FALSE, TRUE, sizeof (DynWriteEntry));
  g_array_set_clear_func (self->entries, (GDestroyNotify) clear_entry);
  return self;
}

DynWriteSummary *
dyn_write_summary_ref (DynWriteSummary *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_write_summary_unref (DynWriteSummary *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->title);
  g_array_unref (self->entries);
  g_free (self);
}

void
dyn_write_summary_add (DynWriteSummary *self,
                       const char      *table,
                       const char      *action,
                       const char      *key,
                       const char      *guard,
                       double           write_units)
{
  DynWriteEntry entry = { 0 };

  g_return_if_fail (self != NULL);

  entry.table = g_strdup (table);
  entry.action = g_strdup (action);
  entry.key = g_strdup (key);
  entry.guard = g_strdup (guard);
  entry.write_units = write_units;
  g_array_append_val (self->entries, entry);
  if (!self->bulk)
    {
      self->write_units += write_units;
      self->count = self->entries->len;
    }
}

void
dyn_write_summary_set_bulk (DynWriteSummary *self,
                            guint64          count,
                            double           write_units)
{
  g_return_if_fail (self != NULL);

  self->bulk = TRUE;
  self->count = count;
  self->write_units = write_units;
}

double
dyn_item_write_units (const DynValue *item)
{
  gsize size;

  if (item == NULL)
    return 0;
  size = dyn_item_size (item);
  return MAX (1, (size + 1023) / 1024);
}

char *
dyn_format_write_units (double write_units)
{
  /* Translators: an estimate of DynamoDB write capacity units; %s is a number ("12,000") */
  g_autofree char *number = g_strdup_printf ("%'.0f", ceil (write_units));

  return g_strdup_printf (_("~%s WCU"), number);
}

static const char *
action_for_kind (DynChangeKind kind)
{
  switch (kind)
    {
    case DYN_CHANGE_KIND_CREATE:
      return _("Create");
    case DYN_CHANGE_KIND_UPDATE:
      return _("Update");
    case DYN_CHANGE_KIND_DELETE:
      return _("Delete");
    case DYN_CHANGE_KIND_KEY_CHANGE:
      return _("Key change");
    case DYN_CHANGE_KIND_NONE:
    default:
      return _("Unchanged");
    }
}

/* The key as the grid's cells show it: partition key, then sort key, joined by " · ". */
static char *
format_item_key (DynValue           *item,
                 const DynKeySchema *keys)
{
  g_autofree char *pk = NULL;
  g_autofree char *sk = NULL;
  DynValue *value;

  if (item == NULL)
    return NULL;
  value = dyn_value_map_lookup (item, keys->partition_key);
  pk = value ? dyn_key_value_format (value, FALSE, 0) : g_strdup ("?");
  if (keys->sort_key == NULL)
    return g_steal_pointer (&pk);
  value = dyn_value_map_lookup (item, keys->sort_key);
  sk = value ? dyn_key_value_format (value, FALSE, 0) : g_strdup ("?");
  return g_strdup_printf ("%s · %s", pk, sk);
}

static double
change_write_units (DynChange     *change,
                    DynChangeKind  kind)
{
  DynValue *before = dyn_change_get_before (change);
  DynValue *after = dyn_change_get_after (change);

  switch (kind)
    {
    case DYN_CHANGE_KIND_CREATE:
      return dyn_item_write_units (after);
    case DYN_CHANGE_KIND_DELETE:
      return dyn_item_write_units (before);
    case DYN_CHANGE_KIND_UPDATE:
      /* DynamoDB charges an update by the larger of the item before and after. */
      return MAX (dyn_item_write_units (before), dyn_item_write_units (after));
    case DYN_CHANGE_KIND_KEY_CHANGE:
      return dyn_item_write_units (before) + dyn_item_write_units (after);
    case DYN_CHANGE_KIND_NONE:
    default:
      return 0;
    }
}

DynWriteSummary *
dyn_write_summary_new_for_change_set (DynChangeSet  *set,
                                      const char    *title,
                                      GError       **error)
{
  g_autoptr(JsonNode) plan = NULL;
  g_autoptr(DynWriteSummary) self = NULL;
  g_autofree char *default_title = NULL;
  JsonObject *root;
  JsonArray *changes, *requests;
  const char *table;
  const DynKeySchema *keys;
  guint n;

  g_return_val_if_fail (DYN_IS_CHANGE_SET (set), NULL);

  if ((plan = dyn_change_set_plan (set, error)) == NULL)
    return NULL;
  root = json_node_get_object (plan);
  changes = json_object_get_array_member (root, "changes");
  requests = json_object_get_array_member (root, "requests");
  table = dyn_change_set_get_table (set);
  keys = &set->keys;
  n = dyn_change_set_get_n_changes (set);

  if (title == NULL)
    /* Translators: %u is a number of changes, %s a table */
    title = default_title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Commit %u change to %s",
                                                          "Commit %u changes to %s", n), n, table);
  self = dyn_write_summary_new (title);

  for (guint i = 0; i < json_array_get_length (changes); i++)
    {
      JsonObject *planned = json_array_get_object_element (changes, i);
      guint index = json_object_get_int_member (planned, "change");
      gint64 request = json_object_get_int_member_with_default (planned, "request", -1);
      DynChange *change;
      DynChangeKind kind;
      g_autofree char *key = NULL;
      gboolean transaction = FALSE;
      double units;

      if (index >= n)
        continue;
      change = dyn_change_set_get_change (set, index);
      kind = dyn_change_get_kind (change, keys);
      if (kind == DYN_CHANGE_KIND_NONE || request < 0)
        continue;
      if (request < json_array_get_length (requests))
        transaction = g_strcmp0 (json_object_get_string_member_with_default (
                                   json_array_get_object_element (requests, request), "operation", ""),
                                 "TransactWriteItems") == 0;
      units = change_write_units (change, kind) * (transaction ? 2 : 1);
      key = format_item_key (dyn_change_get_before (change) ? dyn_change_get_before (change)
                                                             : dyn_change_get_after (change), keys);
      if (kind == DYN_CHANGE_KIND_KEY_CHANGE)
        {
          g_autofree char *new_key = format_item_key (dyn_change_get_after (change), keys);
          g_autofree char *both = g_strdup_printf ("%s → %s", key, new_key);

          g_free (key);
          key = g_steal_pointer (&both);
        }
      dyn_write_summary_add (self, table, action_for_kind (kind), key,
                             json_object_get_string_member_with_default (planned, "guard_text", NULL),
                             units);
    }

  if (self->entries->len >= DYN_WRITE_SUMMARY_BULK_CHANGES)
    dyn_write_summary_set_bulk (self, self->entries->len, self->write_units);

  return g_steal_pointer (&self);
}

DynWriteSummary *
dyn_write_summary_new_bulk (const char *title,
                            const char *table,
                            const char *action,
                            guint64     count,
                            double      write_units)
{
  DynWriteSummary *self = dyn_write_summary_new (title);

  dyn_write_summary_add (self, table, action, NULL, NULL, write_units);
  dyn_write_summary_set_bulk (self, count, write_units);
  return self;
}

const char *
dyn_write_summary_get_title (DynWriteSummary *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->title;
}

guint
dyn_write_summary_get_n_entries (DynWriteSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->entries->len;
}

const DynWriteEntry *
dyn_write_summary_get_entry (DynWriteSummary *self,
                             guint            index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return &g_array_index (self->entries, DynWriteEntry, index);
}

double
dyn_write_summary_get_write_units (DynWriteSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->write_units;
}

gboolean
dyn_write_summary_is_bulk (DynWriteSummary *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->bulk;
}

guint64
dyn_write_summary_get_count (DynWriteSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->count;
}

char *
dyn_write_summary_dup_headline (DynWriteSummary *self)
{
  g_autofree char *units = NULL;
  g_autofree char *count = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  units = dyn_format_write_units (self->write_units);
  count = g_strdup_printf ("%'" G_GUINT64_FORMAT, self->count);
  if (self->bulk)
    /* Translators: "12,000 items · ~12,000 WCU in all"; %s are a number and an estimate */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s item · %s in all", "%s items · %s in all",
                                         (gulong) MIN (self->count, G_MAXULONG)), count, units);
  /* Translators: "3 writes · ~6 WCU in all" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s write · %s in all", "%s writes · %s in all",
                                       (gulong) MIN (self->count, G_MAXULONG)), count, units);
}

char *
dyn_write_summary_dup_entry_text (DynWriteSummary *self,
                                  guint            index)
{
  const DynWriteEntry *entry;
  g_autofree char *units = NULL;
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = &g_array_index (self->entries, DynWriteEntry, index);
  units = dyn_format_write_units (entry->write_units);
  s = g_string_new (entry->table);
  if (entry->key != NULL)
    g_string_append_printf (s, " · %s", entry->key);
  if (entry->action != NULL)
    g_string_append_printf (s, " — %s", entry->action);
  if (entry->guard != NULL)
    g_string_append_printf (s, " — %s", entry->guard);
  g_string_append_printf (s, " — %s", units);
  return g_string_free (s, FALSE);
}

char *
dyn_write_summary_to_text (DynWriteSummary *self)
{
  g_autofree char *headline = NULL;
  g_autofree char *units = NULL;
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);

  headline = dyn_write_summary_dup_headline (self);
  s = g_string_new (NULL);
  if (self->title != NULL)
    g_string_append_printf (s, "%s\n", self->title);
  g_string_append_printf (s, "%s\n", headline);
  for (guint i = 0; i < self->entries->len; i++)
    {
      g_autofree char *line = dyn_write_summary_dup_entry_text (self, i);

      g_string_append_printf (s, "%s\n", line);
    }
  units = dyn_format_write_units (self->write_units);
  /* Translators: %s is an estimate such as "~6 WCU" */
  g_string_append_printf (s, _("Total: %s"), units);
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* DynGuardrail --------------------------------------------------------------- */

struct _DynGuardrail
{
  GObject                  parent_instance;

  gboolean                 production;
  guint                    unlock_seconds;
  gint64                   unlocked_until;   /* monotonic µs, 0: locked */
  GSource                 *expiry;

  DynGuardrailConfirmFunc  confirm;
  gpointer                 confirm_data;
  GDestroyNotify           confirm_destroy;
};

enum {
  PROP_0,
  PROP_PRODUCTION,
  PROP_LOCKED,
  PROP_UNLOCKED,
  PROP_UNLOCK_SECONDS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynGuardrail, dyn_guardrail, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
clear_expiry (DynGuardrail *self)
{
  if (self->expiry != NULL)
    {
      g_source_destroy (self->expiry);
      g_clear_pointer (&self->expiry, g_source_unref);
    }
}

/* Ends an unlock; notifies when something changed. */
static void
relock (DynGuardrail *self)
{
  clear_expiry (self);
  if (self->unlocked_until == 0)
    return;
  self->unlocked_until = 0;
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCKED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNLOCKED]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Whether the unlock ran out by the clock (the timeout may not have run yet). */
static void
check_expired (DynGuardrail *self)
{
  if (self->unlocked_until != 0 && g_get_monotonic_time () >= self->unlocked_until)
    relock (self);
}

static void
dyn_guardrail_dispose (GObject *object)
{
  DynGuardrail *self = DYN_GUARDRAIL (object);

  clear_expiry (self);
  if (self->confirm_destroy != NULL)
    self->confirm_destroy (self->confirm_data);
  self->confirm = NULL;
  self->confirm_data = NULL;
  self->confirm_destroy = NULL;

  G_OBJECT_CLASS (dyn_guardrail_parent_class)->dispose (object);
}

static void
dyn_guardrail_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DynGuardrail *self = DYN_GUARDRAIL (object);

  switch (prop_id)
    {
    case PROP_PRODUCTION:
      g_value_set_boolean (value, self->production);
      break;
    case PROP_LOCKED:
      g_value_set_boolean (value, dyn_guardrail_get_locked (self));
      break;
    case PROP_UNLOCKED:
      g_value_set_boolean (value, dyn_guardrail_get_unlocked (self));
      break;
    case PROP_UNLOCK_SECONDS:
      g_value_set_uint (value, self->unlock_seconds);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_guardrail_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  DynGuardrail *self = DYN_GUARDRAIL (object);

  switch (prop_id)
    {
    case PROP_PRODUCTION:
      dyn_guardrail_set_production (self, g_value_get_boolean (value));
      break;
    case PROP_UNLOCK_SECONDS:
      dyn_guardrail_set_unlock_seconds (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_guardrail_class_init (DynGuardrailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_guardrail_dispose;
  object_class->get_property = dyn_guardrail_get_property;
  object_class->set_property = dyn_guardrail_set_property;

  properties[PROP_PRODUCTION] =
    g_param_spec_boolean ("production", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOCKED] =
    g_param_spec_boolean ("locked", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNLOCKED] =
    g_param_spec_boolean ("unlocked", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNLOCK_SECONDS] =
    g_param_spec_uint ("unlock-seconds", NULL, NULL, 1, G_MAXUINT / 2, DYN_GUARDRAIL_DEFAULT_UNLOCK_SECONDS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_guardrail_init (DynGuardrail *self)
{
  self->unlock_seconds = DYN_GUARDRAIL_DEFAULT_UNLOCK_SECONDS;
}

DynGuardrail *
dyn_guardrail_new (void)
{
  return g_object_new (DYN_TYPE_GUARDRAIL, NULL);
}

gboolean
dyn_guardrail_get_production (DynGuardrail *self)
{
  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), FALSE);
  return self->production;
}

void
dyn_guardrail_set_production (DynGuardrail *self,
                              gboolean      production)
{
  g_return_if_fail (DYN_IS_GUARDRAIL (self));

  production = !!production;
  if (self->production == production)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  relock (self);
  self->production = production;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRODUCTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCKED]);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
dyn_guardrail_get_locked (DynGuardrail *self)
{
  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), FALSE);
  return self->production && self->unlocked_until == 0;
}

gboolean
dyn_guardrail_get_unlocked (DynGuardrail *self)
{
  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), FALSE);
  return self->production && self->unlocked_until != 0;
}

guint
dyn_guardrail_get_unlock_seconds (DynGuardrail *self)
{
  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), 0);
  return self->unlock_seconds;
}

void
dyn_guardrail_set_unlock_seconds (DynGuardrail *self,
                                  guint         seconds)
{
  g_return_if_fail (DYN_IS_GUARDRAIL (self));

  seconds = CLAMP (seconds, 1, G_MAXUINT / 2);
  if (self->unlock_seconds == seconds)
    return;
  self->unlock_seconds = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNLOCK_SECONDS]);
}

static gboolean
expired_cb (gpointer user_data)
{
  DynGuardrail *self = user_data;

  /* The timeout may fire a little early by the monotonic clock's reading. */
  if (g_get_monotonic_time () < self->unlocked_until)
    {
      g_source_set_ready_time (self->expiry, self->unlocked_until);
      return G_SOURCE_CONTINUE;
    }
  g_debug ("writes locked again: the unlock ran out");
  relock (self);
  return G_SOURCE_REMOVE;
}

void
dyn_guardrail_unlock (DynGuardrail *self)
{
  gboolean was_locked;

  g_return_if_fail (DYN_IS_GUARDRAIL (self));

  if (!self->production)
    return;
  was_locked = self->unlocked_until == 0;
  clear_expiry (self);
  self->unlocked_until = g_get_monotonic_time () + (gint64) self->unlock_seconds * G_USEC_PER_SEC;
  self->expiry = g_timeout_source_new ((guint) MIN ((guint64) self->unlock_seconds * 1000, G_MAXUINT));
  g_source_set_callback (self->expiry, expired_cb, self, NULL);
  g_source_set_static_name (self->expiry, "[dynoscope] guardrail unlock");
  g_source_attach (self->expiry, g_main_context_get_thread_default ());
  if (was_locked)
    {
      g_object_freeze_notify (G_OBJECT (self));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCKED]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNLOCKED]);
      g_object_thaw_notify (G_OBJECT (self));
    }
}

void
dyn_guardrail_lock (DynGuardrail *self)
{
  g_return_if_fail (DYN_IS_GUARDRAIL (self));
  relock (self);
}

guint
dyn_guardrail_get_remaining_seconds (DynGuardrail *self)
{
  gint64 left;

  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), 0);

  if (!self->production || self->unlocked_until == 0)
    return 0;
  left = self->unlocked_until - g_get_monotonic_time ();
  if (left <= 0)
    return 0;
  return (guint) ((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
}

gboolean
dyn_guardrail_check_write (DynGuardrail  *self,
                           GError       **error)
{
  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), FALSE);

  check_expired (self);
  if (dyn_guardrail_get_locked (self))
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_READ_ONLY,
                           _("This is a production connection: writes are locked. "
                             "Unlock writes first; each write is then confirmed before it is sent"));
      return FALSE;
    }
  return TRUE;
}

void
dyn_guardrail_set_confirm_func (DynGuardrail            *self,
                                DynGuardrailConfirmFunc  func,
                                gpointer                 user_data,
                                GDestroyNotify           destroy)
{
  g_return_if_fail (DYN_IS_GUARDRAIL (self));

  if (self->confirm_destroy != NULL)
    self->confirm_destroy (self->confirm_data);
  self->confirm = func;
  self->confirm_data = user_data;
  self->confirm_destroy = destroy;
}

void
dyn_guardrail_reply (GTask    *request,
                     gboolean  confirmed)
{
  DynGuardrail *self;
  GError *error = NULL;

  g_return_if_fail (G_IS_TASK (request));
  g_return_if_fail (g_task_get_source_tag (request) == dyn_guardrail_approve_async);

  self = g_task_get_source_object (request);
  if (!confirmed)
    g_task_return_new_error (request, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                             _("The write was cancelled: nothing was written"));
  /* An unlock that ran out while the question was open does not count. */
  else if (!dyn_guardrail_check_write (self, &error))
    g_task_return_error (request, error);
  else
    g_task_return_boolean (request, TRUE);
}

void
dyn_guardrail_approve_async (DynGuardrail        *self,
                             DynWriteSummary     *summary,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;

  g_return_if_fail (DYN_IS_GUARDRAIL (self));
  g_return_if_fail (summary != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_guardrail_approve_async);
  g_task_set_task_data (task, dyn_write_summary_ref (summary), (GDestroyNotify) dyn_write_summary_unref);

  if (!self->production)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (!dyn_guardrail_check_write (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (self->confirm == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_READ_ONLY, "%s",
                               _("This is a production connection and nobody can confirm the write here"));
      return;
    }
  self->confirm (self, summary, task, self->confirm_data);
}

gboolean
dyn_guardrail_approve_finish (DynGuardrail  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (DYN_IS_GUARDRAIL (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_guardrail_approve_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
