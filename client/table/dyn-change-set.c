/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-change-set"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "dyn-changes-private.h"

/* ------------------------------------------------------------------------ */
/* DynChangeSet */

G_DEFINE_FINAL_TYPE (DynChangeSet, dyn_change_set, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (DynGuardMode, dyn_guard_mode,
                    G_DEFINE_ENUM_VALUE (DYN_GUARD_CHANGES, "changes"),
                    G_DEFINE_ENUM_VALUE (DYN_GUARD_ITEM, "item"),
                    G_DEFINE_ENUM_VALUE (DYN_GUARD_VERSION, "version"))

enum {
  PROP_0,
  PROP_GUARD_MODE,
  PROP_VERSION_ATTRIBUTE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
dyn_change_set_finalize (GObject *object)
{
  DynChangeSet *self = DYN_CHANGE_SET (object);

  g_free (self->table);
  dyn_key_schema_clear (&self->keys);
  g_clear_pointer (&self->index_keys, dyn_table_keys_free);
  g_free (self->version_attribute);
  g_ptr_array_unref (self->changes);
  g_ptr_array_unref (self->tokens);

  G_OBJECT_CLASS (dyn_change_set_parent_class)->finalize (object);
}

static void
dyn_change_set_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DynChangeSet *self = DYN_CHANGE_SET (object);

  switch (prop_id)
    {
    case PROP_GUARD_MODE:
      g_value_set_enum (value, self->guard_mode);
      break;
    case PROP_VERSION_ATTRIBUTE:
      g_value_set_string (value, self->version_attribute);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_change_set_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  DynChangeSet *self = DYN_CHANGE_SET (object);

  switch (prop_id)
    {
    case PROP_GUARD_MODE:
      dyn_change_set_set_guard_mode (self, g_value_get_enum (value));
      break;
    case PROP_VERSION_ATTRIBUTE:
      dyn_change_set_set_version_attribute (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_change_set_class_init (DynChangeSetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_change_set_finalize;
  object_class->get_property = dyn_change_set_get_property;
  object_class->set_property = dyn_change_set_set_property;

  properties[PROP_GUARD_MODE] =
    g_param_spec_enum ("guard-mode", NULL, NULL, DYN_TYPE_GUARD_MODE, DYN_GUARD_CHANGES,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VERSION_ATTRIBUTE] =
    g_param_spec_string ("version-attribute", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_change_set_init (DynChangeSet *self)
{
  self->changes = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_change_unref);
  self->tokens = g_ptr_array_new_with_free_func (g_free);
  self->max_actions = DYN_TRANSACTION_MAX_ACTIONS;
}

DynChangeSet *
dyn_change_set_new (const char         *table,
                    const DynKeySchema *keys)
{
  DynChangeSet *self;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (keys != NULL && keys->partition_key != NULL, NULL);

  self = g_object_new (DYN_TYPE_CHANGE_SET, NULL);
  self->table = g_strdup (table);
  dyn_key_schema_copy_into (keys, &self->keys);
  return self;
}

const char *
dyn_change_set_get_table (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  return self->table;
}

void
dyn_change_set_set_version_attribute (DynChangeSet *self,
                                      const char   *name)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  if (name != NULL && *name == '\0')
    name = NULL;
  if (g_strcmp0 (self->version_attribute, name) == 0)
    return;
  g_free (self->version_attribute);
  self->version_attribute = g_strdup (name);
  g_ptr_array_set_size (self->tokens, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VERSION_ATTRIBUTE]);
  if (name != NULL)
    dyn_change_set_set_guard_mode (self, DYN_GUARD_VERSION);
  else if (self->guard_mode == DYN_GUARD_VERSION)
    dyn_change_set_set_guard_mode (self, DYN_GUARD_CHANGES);
}

const char *
dyn_change_set_get_version_attribute (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  return self->version_attribute;
}

void
dyn_change_set_set_guard_mode (DynChangeSet *self,
                               DynGuardMode  mode)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_return_if_fail (mode <= DYN_GUARD_VERSION);

  if (self->guard_mode == mode)
    return;
  self->guard_mode = mode;
  g_ptr_array_set_size (self->tokens, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUARD_MODE]);
}

DynGuardMode
dyn_change_set_get_guard_mode (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), DYN_GUARD_CHANGES);
  return self->guard_mode;
}

void
dyn_change_set_set_single_requests (DynChangeSet *self,
                                    gboolean      single)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  self->single_requests = !!single;
  g_ptr_array_set_size (self->tokens, 0);
}

void
dyn_change_set_set_max_actions (DynChangeSet *self,
                                guint         max_actions)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_return_if_fail (max_actions >= 2 && max_actions <= DYN_TRANSACTION_MAX_ACTIONS);
  self->max_actions = max_actions;
  g_ptr_array_set_size (self->tokens, 0);
}

static gboolean
check_item (DynChangeSet  *self,
            const char    *what,
            DynValue      *item,
            GError       **error)
{
  const char *names[] = { self->keys.partition_key, self->keys.sort_key };

  if (item == NULL)
    return TRUE;
  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, /* Translators: %s is “before” or “after” */
                   _("%s is not an item (a map)"), what);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names) && names[i] != NULL; i++)
    {
      DynValue *v = dyn_value_map_lookup (item, names[i]);
      DynValueType want = i == 0 ? self->keys.partition_type : self->keys.sort_type;

      if (v == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: “before” or “after”, then an attribute name */
                       _("%s lacks the key attribute %s"), what, names[i]);
          return FALSE;
        }
      if (dyn_value_get_value_type (v) != want)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: “before” or “after”, an attribute name, two types such as S and N */
                       _("%s: key attribute %s must be of type %s, not %s"), what, names[i],
                       dyn_value_type_to_string (want),
                       dyn_value_type_to_string (dyn_value_get_value_type (v)));
          return FALSE;
        }
    }
  return TRUE;
}

void
dyn_change_set_set_index_keys (DynChangeSet       *self,
                               const DynTableKeys *table)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));

  g_clear_pointer (&self->index_keys, dyn_table_keys_free);
  if (table != NULL)
    self->index_keys = dyn_table_keys_copy (table);
}

int
dyn_change_set_add_change (DynChangeSet  *self,
                           DynChange     *change,
                           GError       **error)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), -1);
  g_return_val_if_fail (change != NULL, -1);

  if (!check_item (self, "before", change->before, error) ||
      !check_item (self, "after", change->after, error))
    return -1;
  /* What is written must fit every index keyed by its attributes. */
  if (self->index_keys != NULL && change->after != NULL &&
      !dyn_item_check_index_keys (change->after, self->index_keys, error))
    return -1;
  g_ptr_array_add (self->changes, dyn_change_ref (change));
  g_ptr_array_set_size (self->tokens, 0);
  return self->changes->len - 1;
}

int
dyn_change_set_add (DynChangeSet  *self,
                    DynValue      *before,
                    DynValue      *after,
                    GError       **error)
{
  g_autoptr(DynChange) change = NULL;

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), -1);

  if (before == NULL && after == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("a change needs an item before or after"));
      return -1;
    }
  change = dyn_change_new (before, after);
  return dyn_change_set_add_change (self, change, error);
}

guint
dyn_change_set_get_n_changes (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), 0);
  return self->changes->len;
}

DynChange *
dyn_change_set_get_change (DynChangeSet *self,
                           guint         index)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  g_return_val_if_fail (index < self->changes->len, NULL);
  return self->changes->pdata[index];
}

void
dyn_change_set_clear (DynChangeSet *self)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_ptr_array_set_size (self->changes, 0);
  g_ptr_array_set_size (self->tokens, 0);
}

/* Groups the actions into requests. A change's actions stay together. */
DynChangesPlan *
_dyn_changes_build_plan (DynChangeSet  *self,
                         GError       **error)
{
  g_autoptr(DynChangesPlan) plan = g_new0 (DynChangesPlan, 1);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  DynChangesRequestPlan *current = NULL;
  guint n_sent = 0;

  plan->actions = g_ptr_array_new_with_free_func ((GDestroyNotify) _dyn_changes_action_free);
  plan->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) _dyn_changes_request_plan_free);
  plan->n_changes = self->changes->len;
  plan->changes = g_new0 (DynChangesChangePlan, MAX (plan->n_changes, 1));

  for (guint i = 0; i < self->changes->len; i++)
    {
      if (!_dyn_changes_plan_change (self, plan, i, error))
        {
          /* Translators: %u is the number of a staged change */
          g_prefix_error (error, _("change %u: "), i);
          return NULL;
        }
      if (plan->changes[i].n_actions > 0)
        n_sent++;
    }

  /* TransactWriteItems takes one action per item; one item in two changes
   * is ambiguous anyway. */
  for (guint i = 0; i < plan->actions->len; i++)
    {
      DynChangesAction *a = plan->actions->pdata[i];
      DynValue *item = a->request->key ? a->request->key : a->request->item;
      char *id = _dyn_changes_key_identity (&self->keys, item);
      gpointer other;

      if (g_hash_table_lookup_extended (seen, id, NULL, &other))
        {
          g_autofree char *shown = _dyn_changes_key_display (&self->keys, item);
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: two change numbers and an item's key */
                       _("changes %u and %u both touch the item %s; stage one change per item"),
                       GPOINTER_TO_UINT (other), a->change, shown);
          g_free (id);
          return NULL;
        }
      g_hash_table_insert (seen, id, GUINT_TO_POINTER (a->change));
    }

  for (guint i = 0; i < plan->n_changes; i++)
    {
      DynChangesChangePlan *cp = &plan->changes[i];

      if (cp->n_actions == 0)
        continue;
      if (self->single_requests && n_sent == 1 && cp->n_actions == 1)
        {
          DynChangesAction *a = plan->actions->pdata[cp->first_action];

          current = g_new0 (DynChangesRequestPlan, 1);
          current->operation = g_strdup (dyn_operation_get_name (a->request->op));
          current->first_action = cp->first_action;
          current->changes = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (plan->requests, current);
        }
      else if (current == NULL || current->n_actions + cp->n_actions > self->max_actions)
        {
          current = g_new0 (DynChangesRequestPlan, 1);
          current->operation = g_strdup ("TransactWriteItems");
          current->first_action = cp->first_action;
          current->changes = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (plan->requests, current);
        }
      current->n_actions += cp->n_actions;
      g_array_append_val (current->changes, i);
      cp->request = plan->requests->len - 1;
    }

  /* Tokens live as long as the staged changes do, so a second commit of
   * the same set is recognised by DynamoDB as a retry. */
  if (self->tokens->len != plan->requests->len)
    {
      g_ptr_array_set_size (self->tokens, 0);
      for (guint i = 0; i < plan->requests->len; i++)
        g_ptr_array_add (self->tokens, g_uuid_string_random ());
    }
  for (guint i = 0; i < plan->requests->len; i++)
    {
      DynChangesRequestPlan *r = plan->requests->pdata[i];
      if (strcmp (r->operation, "TransactWriteItems") == 0)
        r->token = self->tokens->pdata[i];
    }

  return g_steal_pointer (&plan);
}

JsonNode *
dyn_change_set_plan (DynChangeSet  *self,
                     GError       **error)
{
  g_autoptr(DynChangesPlan) plan = NULL;
  g_autoptr(JsonBuilder) jb = json_builder_new ();

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);

  plan = _dyn_changes_build_plan (self, error);
  if (plan == NULL)
    return NULL;

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "table");
  json_builder_add_string_value (jb, self->table);
  json_builder_set_member_name (jb, "guard_mode");
  json_builder_add_string_value (jb, self->guard_mode == DYN_GUARD_ITEM ? "item"
                                     : self->guard_mode == DYN_GUARD_VERSION ? "version" : "changes");
  if (_dyn_changes_version_in_use (self) != NULL)
    {
      json_builder_set_member_name (jb, "version_attribute");
      json_builder_add_string_value (jb, self->version_attribute);
    }

  json_builder_set_member_name (jb, "changes");
  json_builder_begin_array (jb);
  for (guint i = 0; i < plan->n_changes; i++)
    {
      DynChangesChangePlan *cp = &plan->changes[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "change");
      json_builder_add_int_value (jb, i);
      json_builder_set_member_name (jb, "kind");
      json_builder_add_string_value (jb, dyn_change_kind_to_string (cp->kind));
      json_builder_set_member_name (jb, "request");
      if (cp->request >= 0)
        json_builder_add_int_value (jb, cp->request);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "guard");
      if (cp->guard != NULL)
        json_builder_add_string_value (jb, cp->guard);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "guard_text");
      json_builder_add_string_value (jb, cp->guard_text);
      json_builder_set_member_name (jb, "description");
      json_builder_add_string_value (jb, cp->description);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);

  json_builder_set_member_name (jb, "requests");
  json_builder_begin_array (jb);
  for (guint i = 0; i < plan->requests->len; i++)
    {
      DynChangesRequestPlan *r = plan->requests->pdata[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "operation");
      json_builder_add_string_value (jb, r->operation);
      json_builder_set_member_name (jb, "changes");
      json_builder_begin_array (jb);
      for (guint j = 0; j < r->changes->len; j++)
        json_builder_add_int_value (jb, g_array_index (r->changes, guint, j));
      json_builder_end_array (jb);
      json_builder_set_member_name (jb, "params");
      json_builder_add_value (jb, _dyn_changes_request_params (plan, r));
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);

  return json_builder_get_root (jb);
}

char *
dyn_change_set_describe_guard (DynChangeSet  *self,
                               guint          index,
                               GError       **error)
{
  g_autoptr(DynChangesPlan) plan = NULL;

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  g_return_val_if_fail (index < self->changes->len, NULL);

  plan = _dyn_changes_build_plan (self, error);
  if (plan == NULL)
    return NULL;
  return g_strdup (plan->changes[index].guard_text);
}
