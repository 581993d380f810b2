/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-item-object.h"

G_BEGIN_DECLS

/* Internals shared by dyn-item-object.c and dyn-collections.c, which reads
 * the fields directly in its hot loops. */

struct _DynItemObject
{
  GObject     parent_instance;

  DynValue   *item;          /* owned */
  DynValue   *pk;            /* borrowed from item, or owned (composite) */
  DynValue   *sk;            /* borrowed from item, or owned (composite) */
  gpointer    owner;         /* the DynCollection holding it, not a reference */
  guint8      state;
  guint8      type_from_pk : 1;
  /* A multi-attribute key: pk/sk are lists (L) of the attributes' values in
   * key order, owned by the object. */
  guint8      composite_pk : 1;
  guint8      composite_sk : 1;
};

/* Takes a reference to @item; @pk and @sk are borrowed from it. @type_key is
 * the key the entity type comes from (@sk, or @pk for a simple key). */
DynItemObject *_dyn_item_object_new        (DynValue      *item,
                                            DynValue      *pk,
                                            DynValue      *sk,
                                            gboolean       type_from_pk) G_GNUC_WARN_UNUSED_RESULT;

/* Like _dyn_item_object_new(), taking ownership of @pk when @composite_pk
 * and of @sk when @composite_sk (lists of a multi-attribute key's values). */
DynItemObject *_dyn_item_object_new_composite (DynValue      *item,
                                               DynValue      *pk,
                                               gboolean       composite_pk,
                                               DynValue      *sk,
                                               gboolean       composite_sk,
                                               gboolean       type_from_pk) G_GNUC_WARN_UNUSED_RESULT;

/* The entity label of @obj under the rule of the model that holds @owner
 * (dyn-collections.c); *known is FALSE when @owner is in no model. */
const char    *_dyn_collection_entity_label   (gpointer       owner,
                                               DynItemObject *obj,
                                               gboolean      *known);

/* The first attribute's value of a key (a multi-attribute key is a list). */
DynValue      *_dyn_item_object_first_key     (DynItemObject *self,
                                               gboolean       sort);

G_END_DECLS
