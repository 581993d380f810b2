/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-edit-session"
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-edit-session.h"
#include "dyn-error.h"
#include "dyn-guardrail.h"
#include "dyn-value-format.h"

typedef struct {
  DynItemObject   *object;    /* the row, nullable */
  DynValue        *before;    /* nullable: a create */
  DynValue        *after;     /* nullable: a delete */
  DynChangeStatus  status;
  DynValue        *current;   /* the server's item after a conflict */
  GError          *error;
  DynChange       *change;    /* (before, after), made when asked for */
} Entry;

struct _DynEditSession
{
  GObject             parent_instance;

  DynClient          *client;
  DynGuardrail       *guardrail;   /* asked before every commit, or NULL */
  DynCollectionModel *model;
  char               *table;
  DynKeySchema        keys;
  DynTableKeys       *index_keys;     /* or NULL */
  char               *version_attribute;
  DynGuardMode        guard_mode;
  GPtrArray          *entries;    /* Entry* */
  GPtrArray          *undo;       /* DynChange*: applied by the last commit */
  JsonNode           *plan;       /* cached, or NULL */
  GError             *plan_error;
  gboolean            read_only;
  gboolean            busy;
};

enum {
  PROP_0,
  PROP_CLIENT,
  PROP_MODEL,
  PROP_READ_ONLY,
  PROP_VERSION_ATTRIBUTE,
  PROP_GUARD_MODE,
  PROP_N_CHANGES,
  PROP_N_CONFLICTS,
  PROP_BUSY,
  PROP_CAN_UNDO,
  N_PROPS
};

enum {
  SIGNAL_CHANGED,
  SIGNAL_CONFLICT,
  SIGNAL_COMMITTED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynEditSession, dyn_edit_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
entry_free (Entry *entry)
{
  if (entry == NULL)
    return;
  g_clear_pointer (&entry->change, dyn_change_unref);
  g_clear_object (&entry->object);
  g_clear_pointer (&entry->before, dyn_value_unref);
  g_clear_pointer (&entry->after, dyn_value_unref);
  g_clear_pointer (&entry->current, dyn_value_unref);
  g_clear_error (&entry->error);
  g_free (entry);
}

static void
entry_reset_status (Entry *entry)
{
  g_clear_pointer (&entry->change, dyn_change_unref);
  entry->status = DYN_CHANGE_STATUS_PENDING;
  g_clear_pointer (&entry->current, dyn_value_unref);
  g_clear_error (&entry->error);
}

static void
set_value (DynValue **slot,
           DynValue  *value)
{
  if (value != NULL)
    dyn_value_ref (value);
  g_clear_pointer (slot, dyn_value_unref);
  *slot = value;
}

static guint
count_conflicts (DynEditSession *self)
{
  guint n = 0;

  for (guint i = 0; i < self->entries->len; i++)
    if (((Entry *) self->entries->pdata[i])->status == DYN_CHANGE_STATUS_CONFLICT)
      n++;
  return n;
}

static void
emit_changed (DynEditSession *self)
{
  g_clear_pointer (&self->plan, json_node_unref);
  g_clear_error (&self->plan_error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CHANGES]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CONFLICTS]);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
set_busy (DynEditSession *self,
          gboolean        busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_undo (DynEditSession *self,
          GPtrArray      *undo)
{
  gboolean could = self->undo != NULL && self->undo->len > 0;

  g_clear_pointer (&self->undo, g_ptr_array_unref);
  self->undo = undo;
  if (could != (undo != NULL && undo->len > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
}

static Entry *
find_entry (DynEditSession *self,
            DynItemObject  *object,
            guint          *index)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];

      if (entry->object == object)
        {
          if (index)
            *index = i;
          return entry;
        }
    }
  return NULL;
}

static void
set_object (Entry         *entry,
            DynItemObject *object)
{
  if (object != entry->object)
    g_set_object (&entry->object, object);
}

/* Shows @item in @object's row with @state. Returns the row now showing it
 * (a new object when the model replaced it). */
static DynItemObject *
show_item (DynEditSession *self,
           DynItemObject  *object,
           DynValue       *item,
           DynItemState    state)
{
  DynItemObject *shown = object;

  if (object != NULL && self->model != NULL && dyn_item_object_get_item (object) != item)
    {
      DynItemObject *replaced = dyn_collection_model_replace (self->model, object, item);

      if (replaced != NULL)
        shown = replaced;
    }
  else if (object == NULL && self->model != NULL)
    shown = dyn_collection_model_insert (self->model, item);

  if (shown != NULL)
    dyn_item_object_set_state (shown, state);
  return shown;
}

static void
remove_row (DynEditSession *self,
            DynItemObject  *object)
{
  if (object != NULL && self->model != NULL)
    dyn_collection_model_remove (self->model, object);
}

static gboolean
check_writable (DynEditSession  *self,
                GError         **error)
{
  if (self->read_only)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY,
                   _("This connection is read-only: nothing can be changed or written"));
      return FALSE;
    }
  if (self->busy)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("Wait until the commit has finished"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_item (DynEditSession  *self,
            DynValue        *item,
            GError         **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!dyn_item_check_key (item, &self->keys, &local_error) ||
      (self->index_keys != NULL && !dyn_item_check_index_keys (item, self->index_keys, &local_error)))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The item cannot be staged: %s"),
                   local_error->message);
      return FALSE;
    }
  if (dyn_item_size (item) > DYN_ITEM_MAX_SIZE)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("The item is larger than DynamoDB’s limit of 400 KB"));
      return FALSE;
    }
  return TRUE;
}

/* The version attribute the writes use: only when guarding by version. */
static const char *
version_in_use (DynEditSession *self)
{
  return self->guard_mode == DYN_GUARD_VERSION ? self->version_attribute : NULL;
}

static DynChangeSet *
new_set (DynEditSession *self)
{
  DynChangeSet *set = dyn_change_set_new (self->table, &self->keys);

  dyn_change_set_set_index_keys (set, self->index_keys);
  dyn_change_set_set_version_attribute (set, self->version_attribute);
  dyn_change_set_set_guard_mode (set, self->guard_mode);
  return set;
}

static DynChangeSet *
build_set (DynEditSession  *self,
           GPtrArray       *entries,
           GError         **error)
{
  g_autoptr(DynChangeSet) set = new_set (self);

  for (guint i = 0; i < entries->len; i++)
    {
      Entry *entry = entries->pdata[i];

      if (dyn_change_set_add (set, entry->before, entry->after, error) < 0)
        return NULL;
    }
  return g_steal_pointer (&set);
}

static JsonNode *
get_plan (DynEditSession  *self,
          GError         **error)
{
  if (self->plan == NULL && self->plan_error == NULL)
    {
      g_autoptr(DynChangeSet) set = build_set (self, self->entries, &self->plan_error);

      if (set != NULL)
        self->plan = dyn_change_set_plan (set, &self->plan_error);
    }
  if (self->plan == NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->plan_error);
      return NULL;
    }
  return self->plan;
}

static void
dyn_edit_session_dispose (GObject *object)
{
  DynEditSession *self = (DynEditSession *) object;

  g_clear_object (&self->client);
  g_clear_object (&self->guardrail);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (dyn_edit_session_parent_class)->dispose (object);
}

static void
dyn_edit_session_finalize (GObject *object)
{
  DynEditSession *self = (DynEditSession *) object;

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->undo, g_ptr_array_unref);
  g_clear_pointer (&self->plan, json_node_unref);
  g_clear_error (&self->plan_error);
  g_free (self->table);
  dyn_key_schema_clear (&self->keys);
  g_clear_pointer (&self->index_keys, dyn_table_keys_free);
  g_free (self->version_attribute);
  G_OBJECT_CLASS (dyn_edit_session_parent_class)->finalize (object);
}

static void
dyn_edit_session_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DynEditSession *self = DYN_EDIT_SESSION (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;
    case PROP_VERSION_ATTRIBUTE:
      g_value_set_string (value, self->version_attribute);
      break;
    case PROP_GUARD_MODE:
      g_value_set_enum (value, self->guard_mode);
      break;
    case PROP_N_CHANGES:
      g_value_set_uint (value, self->entries->len);
      break;
    case PROP_N_CONFLICTS:
      g_value_set_uint (value, count_conflicts (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, dyn_edit_session_get_can_undo (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_edit_session_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  DynEditSession *self = DYN_EDIT_SESSION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      dyn_edit_session_set_model (self, g_value_get_object (value));
      break;
    case PROP_READ_ONLY:
      dyn_edit_session_set_read_only (self, g_value_get_boolean (value));
      break;
    case PROP_VERSION_ATTRIBUTE:
      dyn_edit_session_set_version_attribute (self, g_value_get_string (value));
      break;
    case PROP_GUARD_MODE:
      dyn_edit_session_set_guard_mode (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_edit_session_class_init (DynEditSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_edit_session_dispose;
  object_class->finalize = dyn_edit_session_finalize;
  object_class->get_property = dyn_edit_session_get_property;
  object_class->set_property = dyn_edit_session_set_property;

  properties[PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, DYN_TYPE_CLIENT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, DYN_TYPE_COLLECTION_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VERSION_ATTRIBUTE] =
    g_param_spec_string ("version-attribute", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GUARD_MODE] =
    g_param_spec_enum ("guard-mode", NULL, NULL, DYN_TYPE_GUARD_MODE, DYN_GUARD_CHANGES,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_CHANGES] =
    g_param_spec_uint ("n-changes", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_CONFLICTS] =
    g_param_spec_uint ("n-conflicts", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[SIGNAL_CONFLICT] =
    g_signal_new ("conflict", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_COMMITTED] =
    g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_COMMIT_RESULT);
}

static void
dyn_edit_session_init (DynEditSession *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
}

DynEditSession *
dyn_edit_session_new (DynClient          *client,
                      const char         *table,
                      const DynKeySchema *keys)
{
  DynEditSession *self;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (keys != NULL && keys->partition_key != NULL, NULL);

  self = g_object_new (DYN_TYPE_EDIT_SESSION, NULL);
  self->client = g_object_ref (client);
  self->table = g_strdup (table);
  dyn_key_schema_copy_into (keys, &self->keys);
  return self;
}

DynClient *
dyn_edit_session_get_client (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return self->client;
}

const char *
dyn_edit_session_get_table (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return self->table;
}

void
dyn_edit_session_set_index_keys (DynEditSession     *self,
                                 const DynTableKeys *table)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  g_clear_pointer (&self->index_keys, dyn_table_keys_free);
  if (table != NULL)
    self->index_keys = dyn_table_keys_copy (table);
  g_clear_pointer (&self->plan, json_node_unref);
  g_clear_error (&self->plan_error);
}

const DynTableKeys *
dyn_edit_session_get_index_keys (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return self->index_keys;
}

const DynKeySchema *
dyn_edit_session_get_keys (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return &self->keys;
}

DynCollectionModel *
dyn_edit_session_get_model (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return self->model;
}

void
dyn_edit_session_set_model (DynEditSession     *self,
                            DynCollectionModel *model)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));
  g_return_if_fail (model == NULL || DYN_IS_COLLECTION_MODEL (model));

  if (g_set_object (&self->model, model))
    {
      dyn_edit_session_show_in_model (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
    }
}

void
dyn_edit_session_show_in_model (DynEditSession *self)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  if (self->model == NULL)
    return;
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];
      DynValue *item = entry->after ? entry->after : entry->before;
      g_autoptr(DynValue) key = dyn_item_key (item, &self->keys);
      DynItemObject *row = key ? dyn_collection_model_lookup (self->model, key) : NULL;

      if (row != NULL && row == entry->object)
        continue;
      if (entry->before == NULL)
        {
          /* A create: its row, even where the read did not find the item. */
          set_object (entry, show_item (self, row, entry->after, DYN_ITEM_STATE_ADDED));
        }
      else if (row != NULL)
        {
          /* An edit shows what it will write, a delete what it is guarded by. */
          set_object (entry, show_item (self, row, entry->after ? entry->after : entry->before,
                                        entry->after ? DYN_ITEM_STATE_CHANGED : DYN_ITEM_STATE_DELETED));
        }
    }
}

gboolean
dyn_edit_session_get_read_only (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  return self->read_only;
}

void
dyn_edit_session_set_read_only (DynEditSession *self,
                                gboolean        read_only)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  read_only = !!read_only;
  if (self->read_only == read_only)
    return;
  self->read_only = read_only;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_ONLY]);
}

const char *
dyn_edit_session_get_version_attribute (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return self->version_attribute;
}

void
dyn_edit_session_set_version_attribute (DynEditSession *self,
                                        const char     *name)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  if (name != NULL && *name == '\0')
    name = NULL;
  if (g_strcmp0 (self->version_attribute, name) == 0)
    return;
  g_free (self->version_attribute);
  self->version_attribute = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VERSION_ATTRIBUTE]);
  /* As on DynChangeSet: naming a version attribute chooses its guard. */
  if (name != NULL && self->guard_mode != DYN_GUARD_VERSION)
    {
      self->guard_mode = DYN_GUARD_VERSION;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUARD_MODE]);
    }
  else if (name == NULL && self->guard_mode == DYN_GUARD_VERSION)
    {
      self->guard_mode = DYN_GUARD_CHANGES;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUARD_MODE]);
    }
  emit_changed (self);
}

DynGuardMode
dyn_edit_session_get_guard_mode (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), DYN_GUARD_CHANGES);
  return self->guard_mode;
}

void
dyn_edit_session_set_guard_mode (DynEditSession *self,
                                 DynGuardMode    mode)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));
  g_return_if_fail (mode <= DYN_GUARD_VERSION);

  if (self->guard_mode == mode)
    return;
  self->guard_mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUARD_MODE]);
  /* The staged changes keep their items; their plan and guards change. */
  emit_changed (self);
}

guint
dyn_edit_session_get_n_changes (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), 0);
  return self->entries->len;
}

guint
dyn_edit_session_get_n_conflicts (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), 0);
  return count_conflicts (self);
}

gboolean
dyn_edit_session_get_busy (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  return self->busy;
}

gboolean
dyn_edit_session_get_can_undo (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  return self->undo != NULL && self->undo->len > 0;
}

guint
dyn_edit_session_get_n_undo (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), 0);
  return self->undo != NULL ? self->undo->len : 0;
}

/* ------------------------------------------------------------------------ */
/* Staging */

gboolean
dyn_edit_session_stage_edit (DynEditSession  *self,
                             DynItemObject   *object,
                             DynValue        *new_item,
                             GError         **error)
{
  Entry *entry;
  guint index;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (new_item != NULL, FALSE);

  if (!check_writable (self, error) || !check_item (self, new_item, error))
    return FALSE;

  entry = find_entry (self, object, &index);
  if (entry == NULL)
    {
      if (dyn_value_equal (dyn_item_object_get_item (object), new_item))
        return TRUE;
      entry = g_new0 (Entry, 1);
      entry->object = g_object_ref (object);
      entry->before = dyn_value_ref (dyn_item_object_get_item (object));
      g_ptr_array_add (self->entries, entry);
    }
  else if (entry->before != NULL && dyn_value_equal (entry->before, new_item))
    {
      /* Edited back to what was loaded: nothing left to stage. */
      show_item (self, object, entry->before, DYN_ITEM_STATE_UNCHANGED);
      g_ptr_array_remove_index (self->entries, index);
      emit_changed (self);
      return TRUE;
    }

  set_value (&entry->after, new_item);
  entry_reset_status (entry);
  set_object (entry, show_item (self, entry->object, new_item,
                                entry->before == NULL ? DYN_ITEM_STATE_ADDED : DYN_ITEM_STATE_CHANGED));
  emit_changed (self);
  return TRUE;
}

gboolean
dyn_edit_session_stage_attribute (DynEditSession  *self,
                                  DynItemObject   *object,
                                  const char      *attribute,
                                  DynValue        *value,
                                  GError         **error)
{
  g_autoptr(DynValue) item = NULL;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (attribute != NULL, FALSE);

  if (dyn_item_object_get_state (object) == DYN_ITEM_STATE_DELETED)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("The item is staged for deletion; drop that change to edit it"));
      return FALSE;
    }
  item = dyn_item_with_attribute (dyn_item_object_get_item (object), attribute, value);
  return dyn_edit_session_stage_edit (self, object, item, error);
}

static DynValue *
parse_cell (const DynValue  *current,
            const char      *attribute,
            const char      *text,
            GError         **error)
{
  DynValueType type = current ? dyn_value_get_value_type (current) : DYN_VALUE_S;
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  switch (type)
    {
    case DYN_VALUE_S:
      return dyn_value_new_string (text);

    case DYN_VALUE_N:
      {
        DynValue *number = dyn_value_new_number (stripped, NULL);

        if (number == NULL)
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       _("%s: “%s” is not a number DynamoDB can store"), attribute, stripped);
        return number;
      }

    case DYN_VALUE_BOOL:
      if (g_ascii_strcasecmp (stripped, "true") == 0 || g_utf8_collate (stripped, _("true")) == 0)
        return dyn_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (stripped, "false") == 0 || g_utf8_collate (stripped, _("false")) == 0)
        return dyn_value_new_bool (FALSE);
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("%s: type true or false"), attribute);
      return NULL;

    case DYN_VALUE_NULL:
      if (*stripped == '\0' || strcmp (stripped, "null") == 0)
        return dyn_value_new_null ();
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("%s: a NULL value holds no text; change its type in the JSON editor"), attribute);
      return NULL;

    case DYN_VALUE_B:
      {
        g_autoptr(GBytes) bytes = NULL;
        guchar *data;
        gsize len;

        for (const char *p = stripped; *p; p++)
          if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=')
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("%s: binary values are typed as base64"),
                           attribute);
              return NULL;
            }
        data = g_base64_decode (stripped, &len);
        bytes = g_bytes_new_take (data, len);
        return dyn_value_new_binary (bytes);
      }

    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
    default:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("%s: maps, lists and sets are edited in the JSON editor"), attribute);
      return NULL;
    }
}

gboolean
dyn_edit_session_stage_cell_text (DynEditSession  *self,
                                  DynItemObject   *object,
                                  const char      *attribute,
                                  const char      *text,
                                  GError         **error)
{
  g_autoptr(DynValue) value = NULL;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (attribute != NULL && text != NULL, FALSE);

  if (!check_writable (self, error))
    return FALSE;
  value = parse_cell (dyn_value_map_lookup (dyn_item_object_get_item (object), attribute), attribute, text, error);
  if (value == NULL)
    return FALSE;
  return dyn_edit_session_stage_attribute (self, object, attribute, value, error);
}

/* ------------------------------------------------------------------------ */
/* In-place editing at a document path */

/* The first @n segments of @path. */
static DynExprPath *
path_prefix (const DynExprPath *path,
             guint              n)
{
  DynExprPath *prefix = dyn_expr_path_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (dyn_expr_path_is_index (path, i))
        dyn_expr_path_append_index (prefix, dyn_expr_path_get_index (path, i));
      else
        dyn_expr_path_append_name (prefix, dyn_expr_path_get_name (path, i, NULL));
    }
  return prefix;
}

static gboolean
is_set_type (DynValueType type)
{
  return type == DYN_VALUE_SS || type == DYN_VALUE_NS || type == DYN_VALUE_BS;
}

/* When @path's last segment is an index into a set of @item: that set
 * (borrowed) and its path; else NULL. */
static DynValue *
lookup_set (const DynValue     *item,
            const DynExprPath  *path,
            DynExprPath       **set_path)
{
  guint n = dyn_expr_path_get_length (path);
  g_autoptr(DynExprPath) prefix = NULL;
  DynValue *set;

  if (n < 2 || !dyn_expr_path_is_index (path, n - 1))
    return NULL;
  prefix = path_prefix (path, n - 1);
  set = dyn_path_lookup (item, prefix);
  if (set == NULL || !is_set_type (dyn_value_get_value_type (set)))
    return NULL;
  if (set_path != NULL)
    *set_path = g_steal_pointer (&prefix);
  return set;
}

/* Element @i of a set as a value of the element type. */
static DynValue *
set_element (const DynValue *set,
             guint           i)
{
  switch (dyn_value_get_value_type (set))
    {
    case DYN_VALUE_SS:
      return dyn_value_new_string (dyn_value_set_get_string (set, i));
    case DYN_VALUE_NS:
      return dyn_value_new_number (dyn_value_set_get_string (set, i), NULL);
    case DYN_VALUE_BS:
      return dyn_value_new_binary (dyn_value_set_get_binary (set, i));
    default:
      g_return_val_if_reached (NULL);
    }
}

static DynValueType
element_type (DynValueType set_type)
{
  return set_type == DYN_VALUE_SS ? DYN_VALUE_S : set_type == DYN_VALUE_NS ? DYN_VALUE_N : DYN_VALUE_B;
}

/* @set with element @index replaced by @element, or NULL with @error when
 * @element has another type or is already in the set. */
static DynValue *
set_with_element (const DynValue  *set,
                  guint            index,
                  const DynValue  *element,
                  const char      *label,
                  GError         **error)
{
  DynValueType type = dyn_value_get_value_type (set);
  guint n = dyn_value_get_length (set);

  if (dyn_value_get_value_type (element) != element_type (type))
    {
      /* Translators: %s is a path such as "tags[1]", the second %s a type such as "S" */
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("%s: an element of this set must be of type %s"),
                   label, dyn_value_type_to_string (element_type (type)));
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynValue) other = NULL;

      if (i == index)
        continue;
      other = set_element (set, i);
      if (dyn_value_equal (other, element))
        {
          g_autofree char *text = dyn_value_format_cell (element, DYN_BINARY_FORMAT_BASE64, 60);

          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("%s: the set already holds “%s”"), label, text);
          return NULL;
        }
    }

  if (type == DYN_VALUE_BS)
    {
      g_autoptr(GPtrArray) bytes = g_ptr_array_new ();

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (bytes, i == index ? dyn_value_get_binary (element) : dyn_value_set_get_binary (set, i));
      return dyn_value_new_binary_set ((GBytes * const *) bytes->pdata, n, error);
    }
  else
    {
      g_autoptr(GPtrArray) strings = g_ptr_array_new ();

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (strings, (gpointer) (i != index ? dyn_value_set_get_string (set, i) :
                                              type == DYN_VALUE_SS ? dyn_value_get_string (element) :
                                              dyn_value_get_number (element)));
      if (type == DYN_VALUE_SS)
        return dyn_value_new_string_set ((const char * const *) strings->pdata, n, error);
      return dyn_value_new_number_set ((const char * const *) strings->pdata, n, error);
    }
}

/* Checks what in-place editing refuses before anything is parsed. */
static gboolean
check_path (DynEditSession     *self,
            DynItemObject      *object,
            const DynExprPath  *path,
            const char         *label,
            GError            **error)
{
  if (!check_writable (self, error))
    return FALSE;
  if (dyn_item_object_get_state (object) == DYN_ITEM_STATE_DELETED)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("The item is staged for deletion; drop that change to edit it"));
      return FALSE;
    }
  if (dyn_expr_path_get_length (path) == 1 && dyn_key_schema_has_attribute (&self->keys, dyn_expr_path_get_top_name (path)))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is an attribute name */
                   _("%s is part of the table’s key and is not edited in place: another key makes another "
                     "item. Change it in the JSON editor, which writes a delete and a put in one transaction"),
                   label);
      return FALSE;
    }
  return TRUE;
}

gboolean
dyn_edit_session_stage_path (DynEditSession     *self,
                             DynItemObject      *object,
                             const DynExprPath  *path,
                             DynValue           *value,
                             GError            **error)
{
  g_autofree char *label = NULL;
  g_autoptr(DynExprPath) set_path = NULL;
  g_autoptr(DynValue) item = NULL;
  DynValue *current_item;
  DynValue *set;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (path != NULL && dyn_expr_path_get_length (path) > 0, FALSE);
  g_return_val_if_fail (!dyn_expr_path_is_index (path, 0), FALSE);

  label = dyn_path_to_display (path);
  if (!check_path (self, object, path, label, error))
    return FALSE;
  current_item = dyn_item_object_get_item (object);
  set = lookup_set (current_item, path, &set_path);
  if (set != NULL)
    {
      guint index = dyn_expr_path_get_index (path, dyn_expr_path_get_length (path) - 1);
      g_autoptr(DynValue) new_set = NULL;

      if (index >= dyn_value_get_length (set))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s is not in the item"), label);
          return FALSE;
        }
      if (value == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       _("%s: elements are not removed from a set here; edit the set in the JSON editor"), label);
          return FALSE;
        }
      new_set = set_with_element (set, index, value, label, error);
      if (new_set == NULL)
        return FALSE;
      item = dyn_item_with_path (current_item, set_path, new_set);
    }
  else
    {
      if (value != NULL || dyn_expr_path_get_length (path) > 1)
        {
          /* Setting a path: its parent must be there already. */
          g_autoptr(DynExprPath) parent = path_prefix (path, dyn_expr_path_get_length (path) - 1);

          if (dyn_expr_path_get_length (parent) > 0 && dyn_path_lookup (current_item, parent) == NULL)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s is not in the item"), label);
              return FALSE;
            }
        }
      item = dyn_item_with_path (current_item, path, value);
    }
  if (item == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s is not in the item"), label);
      return FALSE;
    }
  return dyn_edit_session_stage_edit (self, object, item, error);
}

/* The scalar at @path that in-place editing would change (a set element
 * as a value of its own, in *element), or NULL with @error saying why it
 * cannot be edited as text. */
static DynValue *
editable_value (DynEditSession     *self,
                DynItemObject      *object,
                const DynExprPath  *path,
                const char         *label,
                DynValue          **element,
                GError            **error)
{
  DynValue *current_item;
  DynValue *current;
  DynValue *set;

  if (!check_path (self, object, path, label, error))
    return NULL;
  current_item = dyn_item_object_get_item (object);
  set = lookup_set (current_item, path, NULL);
  if (set != NULL)
    {
      guint index = dyn_expr_path_get_index (path, dyn_expr_path_get_length (path) - 1);

      if (index < dyn_value_get_length (set))
        *element = set_element (set, index);
      current = *element;
    }
  else
    current = dyn_path_lookup (current_item, path);
  if (current == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s is not in the item"), label);
      return NULL;
    }
  switch (dyn_value_get_value_type (current))
    {
    case DYN_VALUE_NULL:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("%s: a NULL value holds no text; change its type in the JSON editor"), label);
      return NULL;
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("%s: maps, lists and sets are edited in the JSON editor"), label);
      return NULL;
    case DYN_VALUE_S:
    case DYN_VALUE_N:
    case DYN_VALUE_B:
    case DYN_VALUE_BOOL:
    default:
      return current;
    }
}

gboolean
dyn_edit_session_check_path (DynEditSession     *self,
                             DynItemObject      *object,
                             const DynExprPath  *path,
                             GError            **error)
{
  g_autofree char *label = NULL;
  g_autoptr(DynValue) element = NULL;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (path != NULL && dyn_expr_path_get_length (path) > 0, FALSE);
  g_return_val_if_fail (!dyn_expr_path_is_index (path, 0), FALSE);

  label = dyn_path_to_display (path);
  return editable_value (self, object, path, label, &element, error) != NULL;
}

gboolean
dyn_edit_session_stage_path_text (DynEditSession     *self,
                                  DynItemObject      *object,
                                  const DynExprPath  *path,
                                  const char         *text,
                                  GError            **error)
{
  g_autofree char *label = NULL;
  g_autoptr(DynValue) element = NULL;
  g_autoptr(DynValue) value = NULL;
  DynValue *current;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (path != NULL && dyn_expr_path_get_length (path) > 0, FALSE);
  g_return_val_if_fail (!dyn_expr_path_is_index (path, 0), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  label = dyn_path_to_display (path);
  current = editable_value (self, object, path, label, &element, error);
  if (current == NULL)
    return FALSE;
  value = parse_cell (current, label, text, error);
  if (value == NULL)
    return FALSE;
  return dyn_edit_session_stage_path (self, object, path, value, error);
}

gboolean
dyn_edit_session_is_path_changed (DynEditSession    *self,
                                  DynItemObject     *object,
                                  const DynExprPath *path)
{
  Entry *entry;
  DynValue *before, *after;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  entry = find_entry (self, object, NULL);
  if (entry == NULL)
    return FALSE;
  before = entry->before ? dyn_path_lookup (entry->before, path) : NULL;
  after = entry->after ? dyn_path_lookup (entry->after, path) : NULL;
  if (before == NULL || after == NULL)
    return before != after;
  return !dyn_value_equal (before, after);
}

gboolean
dyn_edit_session_stage_delete (DynEditSession  *self,
                               DynItemObject   *object,
                               GError         **error)
{
  Entry *entry;
  guint index;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);

  if (!check_writable (self, error))
    return FALSE;

  entry = find_entry (self, object, &index);
  if (entry != NULL && entry->before == NULL)
    {
      /* A staged create that is deleted again was never written. */
      remove_row (self, object);
      g_ptr_array_remove_index (self->entries, index);
      emit_changed (self);
      return TRUE;
    }
  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      entry->object = g_object_ref (object);
      entry->before = dyn_value_ref (dyn_item_object_get_item (object));
      g_ptr_array_add (self->entries, entry);
    }
  g_clear_pointer (&entry->after, dyn_value_unref);
  entry_reset_status (entry);
  /* The row shows the item the delete is guarded by. */
  set_object (entry, show_item (self, entry->object, entry->before, DYN_ITEM_STATE_DELETED));
  emit_changed (self);
  return TRUE;
}

DynItemObject *
dyn_edit_session_stage_create (DynEditSession  *self,
                               DynValue        *item,
                               GError         **error)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (item != NULL, NULL);

  if (!check_writable (self, error) || !check_item (self, item, error))
    return NULL;

  if (self->model != NULL)
    {
      g_autoptr(DynValue) key = dyn_item_key (item, &self->keys);
      DynItemObject *existing = dyn_collection_model_lookup (self->model, key);

      if (existing != NULL)
        {
          /* Deleting an item and creating one with its key is an update. */
          if (dyn_item_object_get_state (existing) == DYN_ITEM_STATE_DELETED)
            {
              Entry *old = find_entry (self, existing, NULL);

              if (!dyn_edit_session_stage_edit (self, existing, item, error))
                return NULL;
              return old ? old->object : existing;
            }
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("An item with this key is already loaded: edit that item, or change the key"));
          return NULL;
        }
    }

  entry = g_new0 (Entry, 1);
  entry->after = dyn_value_ref (item);
  if (self->model != NULL)
    entry->object = g_object_ref (show_item (self, NULL, item, DYN_ITEM_STATE_ADDED));
  else
    {
      entry->object = dyn_item_object_new (item, self->keys.partition_key, self->keys.sort_key);
      dyn_item_object_set_state (entry->object, DYN_ITEM_STATE_ADDED);
    }
  g_ptr_array_add (self->entries, entry);
  emit_changed (self);
  return entry->object;
}

gboolean
dyn_edit_session_is_attribute_changed (DynEditSession *self,
                                       DynItemObject  *object,
                                       const char     *attribute)
{
  Entry *entry;
  DynValue *before, *after;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (attribute != NULL, FALSE);

  entry = find_entry (self, object, NULL);
  if (entry == NULL)
    return FALSE;
  before = entry->before ? dyn_value_map_lookup (entry->before, attribute) : NULL;
  after = entry->after ? dyn_value_map_lookup (entry->after, attribute) : NULL;
  if (before == NULL || after == NULL)
    return before != after;
  return !dyn_value_equal (before, after);
}

int
dyn_edit_session_lookup (DynEditSession *self,
                         DynItemObject  *object)
{
  guint index;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), -1);

  return find_entry (self, object, &index) ? (int) index : -1;
}

static DynValue *
empty_key_value (DynValueType type)
{
  switch (type)
    {
    case DYN_VALUE_N:
      return dyn_value_new_number ("0", NULL);
    case DYN_VALUE_B:
      {
        g_autoptr(GBytes) bytes = g_bytes_new_static ("", 0);
        return dyn_value_new_binary (bytes);
      }
    case DYN_VALUE_S:
    default:
      return dyn_value_new_string ("");
    }
}

DynValue *
dyn_edit_session_new_item_template (DynEditSession *self)
{
  DynValue *item;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);

  item = dyn_value_new_map ();
  dyn_value_map_take (item, self->keys.partition_key, empty_key_value (self->keys.partition_type));
  if (self->keys.sort_key != NULL)
    dyn_value_map_take (item, self->keys.sort_key, empty_key_value (self->keys.sort_type));
  return item;
}

DynValue *
dyn_edit_session_dup_for_duplicate (DynEditSession *self,
                                    DynItemObject  *object)
{
  DynValue *item;
  const char *name;
  DynValue *key;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), NULL);

  item = dyn_item_object_get_item (object);
  name = self->keys.sort_key ? self->keys.sort_key : self->keys.partition_key;
  key = dyn_value_map_lookup (item, name);
  if (key != NULL && dyn_value_get_value_type (key) == DYN_VALUE_S)
    {
      g_autofree char *text = g_strconcat (dyn_value_get_string (key), "-copy", NULL);
      g_autoptr(DynValue) copy_key = dyn_value_new_string (text);

      return dyn_item_with_attribute (item, name, copy_key);
    }
  return dyn_value_ref (item);
}

/* ------------------------------------------------------------------------ */
/* Reading the staged list */

static Entry *
get_entry (DynEditSession *self,
           guint           index)
{
  g_return_val_if_fail (index < self->entries->len, NULL);
  return self->entries->pdata[index];
}

DynChange *
dyn_edit_session_get_change (DynEditSession *self,
                             guint           index)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = get_entry (self, index);
  if (entry->change == NULL)
    entry->change = dyn_change_new (entry->before, entry->after);
  return entry->change;
}

DynItemObject *
dyn_edit_session_get_object (DynEditSession *self,
                             guint           index)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return get_entry (self, index)->object;
}

DynChangeKind
dyn_edit_session_get_kind (DynEditSession *self,
                           guint           index)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), DYN_CHANGE_KIND_NONE);
  g_return_val_if_fail (index < self->entries->len, DYN_CHANGE_KIND_NONE);

  return dyn_change_get_kind (dyn_edit_session_get_change (self, index), &self->keys);
}

DynChangeStatus
dyn_edit_session_get_status (DynEditSession *self,
                             guint           index)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), DYN_CHANGE_STATUS_PENDING);
  g_return_val_if_fail (index < self->entries->len, DYN_CHANGE_STATUS_PENDING);
  return get_entry (self, index)->status;
}

DynValue *
dyn_edit_session_get_current (DynEditSession *self,
                              guint           index)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return get_entry (self, index)->current;
}

const GError *
dyn_edit_session_get_error (DynEditSession *self,
                            guint           index)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return get_entry (self, index)->error;
}

char *
dyn_edit_session_describe_guard (DynEditSession  *self,
                                 guint            index,
                                 char           **guard_kind,
                                 GError         **error)
{
  JsonNode *plan;
  JsonArray *changes;
  JsonObject *change;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  plan = get_plan (self, error);
  if (plan == NULL)
    return NULL;
  changes = json_object_get_array_member (json_node_get_object (plan), "changes");
  if (changes == NULL || index >= json_array_get_length (changes))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_FAILED, /* Translators: %u is the number of a staged change */
                   _("the plan has no change %u"), index);
      return NULL;
    }
  change = json_array_get_object_element (changes, index);
  if (guard_kind != NULL)
    *guard_kind = g_strdup (json_object_get_string_member_with_default (change, "guard", NULL));
  return g_strdup (json_object_get_string_member_with_default (change, "guard_text", ""));
}

JsonNode *
dyn_edit_session_dup_plan (DynEditSession  *self,
                           GError         **error)
{
  JsonNode *plan;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);

  plan = get_plan (self, error);
  return plan ? json_node_copy (plan) : NULL;
}

char *
dyn_edit_session_preview_guard (DynEditSession  *self,
                                DynValue        *before,
                                DynValue        *after,
                                GError         **error)
{
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(JsonNode) plan = NULL;
  JsonObject *change;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);

  set = new_set (self);
  if (dyn_change_set_add (set, before, after, error) < 0)
    return NULL;
  plan = dyn_change_set_plan (set, error);
  if (plan == NULL)
    return NULL;
  change = json_array_get_object_element (json_object_get_array_member (json_node_get_object (plan), "changes"), 0);
  return g_strdup (json_object_get_string_member_with_default (change, "guard_text", ""));
}

GPtrArray *
dyn_edit_session_diff (DynEditSession *self,
                       guint           index)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = get_entry (self, index);
  return dyn_diff_items (entry->before, entry->after, &self->keys, FALSE);
}

static char *
key_text (const DynValue *value)
{
  if (value == NULL)
    return g_strdup ("?");
  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      return g_strdup (dyn_value_get_string (value));
    case DYN_VALUE_N:
      return g_strdup (dyn_value_get_number (value));
    case DYN_VALUE_B:
      {
        gsize len;
        const guchar *data = g_bytes_get_data (dyn_value_get_binary (value), &len);
        return g_base64_encode (data, len);
      }
    default:
      return dyn_value_to_ddb_json_string (value);
    }
}

char *
dyn_edit_session_dup_title (DynEditSession *self,
                            guint           index)
{
  Entry *entry;
  DynValue *item;
  g_autofree char *pk = NULL;
  g_autofree char *sk = NULL;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = get_entry (self, index);
  item = entry->after ? entry->after : entry->before;
  pk = key_text (dyn_value_map_lookup (item, self->keys.partition_key));
  if (self->keys.sort_key == NULL)
    return g_steal_pointer (&pk);
  sk = key_text (dyn_value_map_lookup (item, self->keys.sort_key));
  return g_strdup_printf ("%s · %s", pk, sk);
}

/* ------------------------------------------------------------------------ */
/* Dropping and resolving */

static void
restore_row (DynEditSession *self,
             Entry          *entry)
{
  if (entry->before == NULL)
    remove_row (self, entry->object);
  else if (entry->object != NULL)
    show_item (self, entry->object, entry->before, DYN_ITEM_STATE_UNCHANGED);
}

void
dyn_edit_session_drop (DynEditSession *self,
                       guint           index)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));
  g_return_if_fail (index < self->entries->len);

  if (self->busy)
    return;
  restore_row (self, get_entry (self, index));
  g_ptr_array_remove_index (self->entries, index);
  emit_changed (self);
}

void
dyn_edit_session_discard_all (DynEditSession *self)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  if (self->busy || self->entries->len == 0)
    return;
  for (guint i = 0; i < self->entries->len; i++)
    restore_row (self, self->entries->pdata[i]);
  g_ptr_array_set_size (self->entries, 0);
  emit_changed (self);
}

gboolean
dyn_edit_session_resolve_conflict (DynEditSession  *self,
                                   guint            index,
                                   DynValue        *resolved,
                                   GError         **error)
{
  g_autoptr(DynValue) current = NULL;
  Entry *entry;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), FALSE);
  g_return_val_if_fail (index < self->entries->len, FALSE);

  if (!check_writable (self, error))
    return FALSE;
  if (resolved != NULL && !check_item (self, resolved, error))
    return FALSE;

  entry = get_entry (self, index);
  current = entry->current ? dyn_value_ref (entry->current) : NULL;
  if (current == NULL && resolved == NULL)
    {
      /* Deleted there, deleted here: nothing left to do. */
      remove_row (self, entry->object);
      g_ptr_array_remove_index (self->entries, index);
      emit_changed (self);
      return TRUE;
    }
  if (current != NULL && resolved != NULL && dyn_value_equal (current, resolved))
    {
      dyn_edit_session_keep_server (self, index);
      return TRUE;
    }

  /* The server's item becomes the item started from: the next commit is
   * guarded by what the server has now. */
  set_value (&entry->before, current);
  set_value (&entry->after, resolved);
  entry_reset_status (entry);
  if (resolved != NULL)
    set_object (entry, show_item (self, entry->object, resolved,
                                  current == NULL ? DYN_ITEM_STATE_ADDED : DYN_ITEM_STATE_CHANGED));
  else
    set_object (entry, show_item (self, entry->object, current, DYN_ITEM_STATE_DELETED));
  emit_changed (self);
  return TRUE;
}

void
dyn_edit_session_keep_server (DynEditSession *self,
                              guint           index)
{
  Entry *entry;

  g_return_if_fail (DYN_IS_EDIT_SESSION (self));
  g_return_if_fail (index < self->entries->len);

  if (self->busy)
    return;
  entry = get_entry (self, index);
  if (entry->current != NULL)
    show_item (self, entry->object, entry->current, DYN_ITEM_STATE_UNCHANGED);
  else if (entry->status == DYN_CHANGE_STATUS_CONFLICT)
    remove_row (self, entry->object);
  else
    restore_row (self, entry);
  g_ptr_array_remove_index (self->entries, index);
  emit_changed (self);
}

/* ------------------------------------------------------------------------ */
/* Committing */

typedef struct {
  DynChangeSet *set;
  gboolean      undo;
} CommitData;

static void
commit_data_free (CommitData *data)
{
  g_clear_object (&data->set);
  g_free (data);
}

/* The item a change left on the server (with the version it wrote). */
static DynValue *
written_item (DynEditSession *self,
              DynChange      *change)
{
  g_autoptr(DynChange) inverse = NULL;
  DynValue *left;

  if (dyn_change_get_after (change) == NULL)
    return NULL;
  inverse = dyn_change_inverse (change, version_in_use (self));
  left = dyn_change_get_before (inverse);
  return dyn_value_ref (left ? left : dyn_change_get_after (change));
}

static void
commit_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynEditSession *self = g_task_get_source_object (task);
  CommitData *data = g_task_get_task_data (task);
  g_autoptr(DynCommitResult) commit = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) kept = NULL;
  g_autoptr(GPtrArray) applied = NULL;
  g_autoptr(GArray) conflicts = NULL;

  commit = dyn_change_set_commit_finish (data->set, result, &error);
  set_busy (self, FALSE);
  if (commit == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  kept = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  applied = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_change_unref);
  conflicts = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];
      DynChange *change = dyn_change_set_get_change (data->set, i);
      DynChangeStatus status = dyn_commit_result_get_status (commit, i);

      if (status == DYN_CHANGE_STATUS_APPLIED || status == DYN_CHANGE_STATUS_UNCHANGED)
        {
          g_autoptr(DynValue) written = written_item (self, change);

          if (status == DYN_CHANGE_STATUS_APPLIED)
            g_ptr_array_add (applied, dyn_change_ref (change));
          if (written == NULL)
            remove_row (self, entry->object);
          else
            show_item (self, entry->object, written, DYN_ITEM_STATE_UNCHANGED);
          continue;
        }

      entry->status = status;
      g_clear_pointer (&entry->current, dyn_value_unref);
      g_clear_error (&entry->error);
      if (status == DYN_CHANGE_STATUS_CONFLICT)
        {
          set_value (&entry->current, dyn_commit_result_get_current (commit, i));
          g_array_append_val (conflicts, kept->len);
        }
      else if (dyn_commit_result_get_error (commit, i) != NULL)
        entry->error = g_error_copy (dyn_commit_result_get_error (commit, i));
      /* Move the entry over without freeing it. */
      self->entries->pdata[i] = NULL;
      g_ptr_array_add (kept, entry);
    }
  g_ptr_array_unref (self->entries);
  self->entries = g_steal_pointer (&kept);

  if (!data->undo && applied->len > 0)
    set_undo (self, g_steal_pointer (&applied));
  else if (data->undo)
    set_undo (self, NULL);

  emit_changed (self);
  g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, commit);
  for (guint i = 0; i < conflicts->len; i++)
    g_signal_emit (self, signals[SIGNAL_CONFLICT], 0, g_array_index (conflicts, guint, i));

  g_task_return_pointer (task, g_steal_pointer (&commit), (GDestroyNotify) dyn_commit_result_unref);
}

/* The guardrail's answer: commit the set now, or end the task (nothing was sent). */
static void
approved_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynEditSession *self = g_task_get_source_object (task);
  CommitData *data = g_task_get_task_data (task);
  GAsyncReadyCallback next = g_object_get_data (G_OBJECT (task), "dyn-commit-cb");
  GCancellable *cancellable;
  GError *error = NULL;

  if (!dyn_guardrail_approve_finish (DYN_GUARDRAIL (source), result, &error))
    {
      set_busy (self, FALSE);
      g_task_return_error (task, error);
      return;
    }
  cancellable = g_task_get_cancellable (task);
  dyn_change_set_commit_async (data->set, self->client, cancellable, next, g_steal_pointer (&task));
}

/* With a guardrail: asks it about the task's set (a production connection
 * confirms each write first) and commits on yes; returns FALSE when there is
 * no guardrail to ask. */
static gboolean
approve_then (DynEditSession      *self,
              GTask               *task,
              GCancellable        *cancellable,
              GAsyncReadyCallback  next)
{
  CommitData *data = g_task_get_task_data (task);
  g_autoptr(DynWriteSummary) summary = NULL;
  GError *error = NULL;

  if (self->guardrail == NULL)
    return FALSE;
  if ((summary = dyn_write_summary_new_for_change_set (data->set, NULL, &error)) == NULL)
    {
      set_busy (self, FALSE);
      g_task_return_error (task, error);
      return TRUE;
    }
  g_object_set_data (G_OBJECT (task), "dyn-commit-cb", next);
  dyn_guardrail_approve_async (self->guardrail, summary, cancellable, approved_cb, g_object_ref (task));
  return TRUE;
}

void
dyn_edit_session_set_guardrail (DynEditSession *self,
                                DynGuardrail   *guardrail)
{
  g_return_if_fail (DYN_IS_EDIT_SESSION (self));
  g_return_if_fail (guardrail == NULL || DYN_IS_GUARDRAIL (guardrail));

  g_set_object (&self->guardrail, guardrail);
}

DynGuardrail *
dyn_edit_session_get_guardrail (DynEditSession *self)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  return self->guardrail;
}

void
dyn_edit_session_commit_async (DynEditSession      *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  CommitData *data;

  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_edit_session_commit_async);

  if (!check_writable (self, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  data = g_new0 (CommitData, 1);
  g_task_set_task_data (task, data, (GDestroyNotify) commit_data_free);
  data->set = build_set (self, self->entries, &error);
  if (data->set == NULL || get_plan (self, &error) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  set_busy (self, TRUE);
  if (!approve_then (self, task, cancellable, commit_cb))
    dyn_change_set_commit_async (data->set, self->client, cancellable, commit_cb, g_steal_pointer (&task));
}

DynCommitResult *
dyn_edit_session_commit_finish (DynEditSession  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_edit_session_commit_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static DynItemObject *
lookup_row (DynEditSession *self,
            DynValue       *item)
{
  g_autoptr(DynValue) key = NULL;

  if (self->model == NULL || item == NULL)
    return NULL;
  key = dyn_item_key (item, &self->keys);
  return key ? dyn_collection_model_lookup (self->model, key) : NULL;
}

static void
undo_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynEditSession *self = g_task_get_source_object (task);
  CommitData *data = g_task_get_task_data (task);
  g_autoptr(DynCommitResult) commit = NULL;
  g_autoptr(GError) error = NULL;

  commit = dyn_change_set_commit_finish (data->set, result, &error);
  set_busy (self, FALSE);
  if (commit == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  for (guint i = 0; i < dyn_change_set_get_n_changes (data->set); i++)
    {
      DynChange *change = dyn_change_set_get_change (data->set, i);
      DynValue *before = dyn_change_get_before (change);
      DynValue *after = dyn_change_get_after (change);
      DynItemObject *row;

      if (dyn_commit_result_get_status (commit, i) != DYN_CHANGE_STATUS_APPLIED)
        continue;
      /* Undoing a delete: the key of the item it brings back. */
      row = lookup_row (self, before ? before : after);
      /* A row with a staged change keeps showing that change (its entry
       * holds the row): the change now differs from what the server has,
       * and its commit conflicts rather than overwriting the undo. */
      if (row != NULL && find_entry (self, row, NULL) != NULL)
        continue;
      if (after == NULL)
        remove_row (self, row);
      else if (row != NULL)
        show_item (self, row, after, DYN_ITEM_STATE_UNCHANGED);
      else if (self->model != NULL)
        show_item (self, NULL, after, DYN_ITEM_STATE_UNCHANGED);
    }
  set_undo (self, NULL);
  emit_changed (self);
  g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, commit);
  g_task_return_pointer (task, g_steal_pointer (&commit), (GDestroyNotify) dyn_commit_result_unref);
}

void
dyn_edit_session_undo_async (DynEditSession      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  CommitData *data;

  g_return_if_fail (DYN_IS_EDIT_SESSION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_edit_session_undo_async);

  if (!check_writable (self, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!dyn_edit_session_get_can_undo (self))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no commit to undo"));
      return;
    }

  data = g_new0 (CommitData, 1);
  data->undo = TRUE;
  g_task_set_task_data (task, data, (GDestroyNotify) commit_data_free);
  data->set = new_set (self);
  for (guint i = 0; i < self->undo->len; i++)
    {
      g_autoptr(DynChange) inverse = dyn_change_inverse (self->undo->pdata[i], version_in_use (self));

      if (dyn_change_set_add_change (data->set, inverse, &error) < 0)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  set_busy (self, TRUE);
  if (!approve_then (self, task, cancellable, undo_cb))
    dyn_change_set_commit_async (data->set, self->client, cancellable, undo_cb, g_steal_pointer (&task));
}

DynCommitResult *
dyn_edit_session_undo_finish (DynEditSession  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (DYN_IS_EDIT_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_edit_session_undo_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
dyn_edit_session_format_value (const DynValue *value)
{
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;

  if (value == NULL)
    return g_strdup ("<span alpha=\"55%\">—</span>");
  text = dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, 48);
  escaped = g_markup_escape_text (text, -1);
  return g_strdup_printf ("<span size=\"small\" alpha=\"55%%\">%s</span>  %s",
                          dyn_value_format_type (value), escaped);
}
