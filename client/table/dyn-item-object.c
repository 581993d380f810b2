/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-object"

#include "config.h"

#include <string.h>

#include "dyn-item-object-private.h"
#include "dyn-value-format.h"

enum {
  PROP_0,
  PROP_ITEM,
  PROP_PARTITION_KEY_VALUE,
  PROP_SORT_KEY_VALUE,
  PROP_ENTITY_TYPE,
  PROP_STATE,
  N_PROPS
};

G_DEFINE_ENUM_TYPE (DynItemState, dyn_item_state,
  G_DEFINE_ENUM_VALUE (DYN_ITEM_STATE_UNCHANGED, "unchanged"),
  G_DEFINE_ENUM_VALUE (DYN_ITEM_STATE_ADDED, "added"),
  G_DEFINE_ENUM_VALUE (DYN_ITEM_STATE_CHANGED, "changed"),
  G_DEFINE_ENUM_VALUE (DYN_ITEM_STATE_DELETED, "deleted"))

G_DEFINE_FINAL_TYPE (DynItemObject, dyn_item_object, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
dyn_item_object_finalize (GObject *object)
{
  DynItemObject *self = DYN_ITEM_OBJECT (object);

  if (self->composite_pk)
    g_clear_pointer (&self->pk, dyn_value_unref);
  if (self->composite_sk)
    g_clear_pointer (&self->sk, dyn_value_unref);
  g_clear_pointer (&self->item, dyn_value_unref);

  G_OBJECT_CLASS (dyn_item_object_parent_class)->finalize (object);
}

static void
dyn_item_object_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DynItemObject *self = DYN_ITEM_OBJECT (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_boxed (value, self->item);
      break;
    case PROP_PARTITION_KEY_VALUE:
      g_value_set_boxed (value, self->pk);
      break;
    case PROP_SORT_KEY_VALUE:
      g_value_set_boxed (value, self->sk);
      break;
    case PROP_ENTITY_TYPE:
      g_value_set_static_string (value, dyn_item_object_get_entity_type (self));
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_item_object_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  DynItemObject *self = DYN_ITEM_OBJECT (object);

  switch (prop_id)
    {
    case PROP_STATE:
      dyn_item_object_set_state (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_item_object_class_init (DynItemObjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_item_object_finalize;
  object_class->get_property = dyn_item_object_get_property;
  object_class->set_property = dyn_item_object_set_property;

  properties[PROP_ITEM] =
    g_param_spec_boxed ("item", NULL, NULL, DYN_TYPE_VALUE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PARTITION_KEY_VALUE] =
    g_param_spec_boxed ("partition-key-value", NULL, NULL, DYN_TYPE_VALUE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SORT_KEY_VALUE] =
    g_param_spec_boxed ("sort-key-value", NULL, NULL, DYN_TYPE_VALUE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENTITY_TYPE] =
    g_param_spec_string ("entity-type", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, DYN_TYPE_ITEM_STATE, DYN_ITEM_STATE_UNCHANGED,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_item_object_init (DynItemObject *self)
{
}

/* Internal API ------------------------------------------------------------- */

DynItemObject *
_dyn_item_object_new (DynValue *item,
                      DynValue *pk,
                      DynValue *sk,
                      gboolean  type_from_pk)
{
  DynItemObject *self = g_object_new (DYN_TYPE_ITEM_OBJECT, NULL);

  self->item = dyn_value_ref (item);
  self->pk = pk;
  self->sk = sk;
  self->type_from_pk = !!type_from_pk;
  return self;
}

DynItemObject *
_dyn_item_object_new_composite (DynValue *item,
                                DynValue *pk,
                                gboolean  composite_pk,
                                DynValue *sk,
                                gboolean  composite_sk,
                                gboolean  type_from_pk)
{
  DynItemObject *self = _dyn_item_object_new (item, pk, sk, type_from_pk);

  self->composite_pk = pk != NULL && composite_pk;
  self->composite_sk = sk != NULL && composite_sk;
  return self;
}

/* Public API --------------------------------------------------------------- */

const char *
dyn_entity_type_from_key (const DynValue *key)
{
  const char *s, *hash;
  gsize len;
  char buf[128];

  if (key == NULL || dyn_value_get_value_type (key) != DYN_VALUE_S)
    return NULL;
  s = dyn_value_get_string (key);
  len = dyn_value_get_string_length (key);
  hash = memchr (s, '#', len);
  if (hash != NULL)
    len = hash - s;
  if (len == 0)
    return NULL;
  /* A string may hold U+0000; the type ends there too. */
  len = strnlen (s, len);
  if (len < sizeof buf)
    {
      memcpy (buf, s, len);
      buf[len] = '\0';
      return g_intern_string (buf);
    }
  else
    {
      g_autofree char *copy = g_strndup (s, len);
      return g_intern_string (copy);
    }
}

/**
 * dyn_item_object_new:
 *
 * Returns: (transfer full): a new item object with state UNCHANGED
 */
DynItemObject *
dyn_item_object_new (DynValue   *item,
                     const char *partition_key,
                     const char *sort_key)
{
  DynValue *pk, *sk = NULL;

  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (dyn_value_get_value_type (item) == DYN_VALUE_M, NULL);
  g_return_val_if_fail (partition_key != NULL, NULL);

  pk = dyn_value_map_lookup (item, partition_key);
  if (sort_key != NULL)
    sk = dyn_value_map_lookup (item, sort_key);
  return _dyn_item_object_new (item, pk, sk, sort_key == NULL);
}

DynValue *
dyn_item_object_get_item (DynItemObject *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), NULL);
  return self->item;
}

DynValue *
dyn_item_object_get_partition_key_value (DynItemObject *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), NULL);
  return self->pk;
}

DynValue *
dyn_item_object_get_sort_key_value (DynItemObject *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), NULL);
  return self->sk;
}

gboolean
dyn_item_object_has_composite_key (DynItemObject *self,
                                   gboolean       sort)
{
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), FALSE);
  return sort ? self->composite_sk : self->composite_pk;
}

char *
dyn_key_value_format (const DynValue *key,
                      gboolean        composite,
                      guint           max_chars)
{
  GString *out;

  if (key == NULL)
    return NULL;
  if (!composite)
    return dyn_value_format_cell (key, DYN_BINARY_FORMAT_BASE64, max_chars);
  out = g_string_new (NULL);
  for (guint i = 0; i < dyn_value_get_length (key); i++)
    {
      g_autofree char *part = dyn_value_format_cell (dyn_value_list_get (key, i), DYN_BINARY_FORMAT_BASE64,
                                                     max_chars);

      if (i > 0)
        g_string_append (out, " · ");
      g_string_append (out, part);
    }
  return g_string_free (out, FALSE);
}

char *
dyn_item_object_format_key (DynItemObject *self,
                            gboolean       sort,
                            guint          max_chars)
{
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), NULL);

  return sort ? dyn_key_value_format (self->sk, self->composite_sk, max_chars)
              : dyn_key_value_format (self->pk, self->composite_pk, max_chars);
}

DynValue *
_dyn_item_object_first_key (DynItemObject *self,
                            gboolean       sort)
{
  DynValue *key = sort ? self->sk : self->pk;

  if (key != NULL && (sort ? self->composite_sk : self->composite_pk))
    key = dyn_value_get_length (key) > 0 ? dyn_value_list_get (key, 0) : NULL;
  return key;
}

const char *
dyn_item_object_get_entity_type (DynItemObject *self)
{
  const char *label;
  gboolean known = FALSE;

  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), NULL);

  /* In a model: the model's rule, decided from every item it holds. */
  if (self->owner != NULL)
    {
      label = _dyn_collection_entity_label (self->owner, self, &known);
      if (known)
        return label;
    }
  /* On its own: one item says little; its key's text before '#'. */
  return dyn_entity_type_from_key (_dyn_item_object_first_key (self, !self->type_from_pk));
}

DynItemState
dyn_item_object_get_state (DynItemObject *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (self), DYN_ITEM_STATE_UNCHANGED);
  return self->state;
}

void
dyn_item_object_set_state (DynItemObject *self,
                           DynItemState   state)
{
  g_return_if_fail (DYN_IS_ITEM_OBJECT (self));
  g_return_if_fail (state <= DYN_ITEM_STATE_DELETED);

  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}
