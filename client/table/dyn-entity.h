/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynEntitySource:
 * @DYN_ENTITY_SOURCE_NONE: the items carry no entity label
 * @DYN_ENTITY_SOURCE_ATTRIBUTE: a discriminator attribute names the type
 *   (EntityType, _et, __edb_e__, type …)
 * @DYN_ENTITY_SOURCE_SORT_KEY: the sort key's prefix names it ("PROJ" of
 *   "PROJ#2026-0042")
 * @DYN_ENTITY_SOURCE_PARTITION_KEY: the partition key's prefix names it (a
 *   table without a sort key, an inverted index)
 *
 * Where the entity label of a table's items comes from.
 */
typedef enum {
  DYN_ENTITY_SOURCE_NONE,
  DYN_ENTITY_SOURCE_ATTRIBUTE,
  DYN_ENTITY_SOURCE_SORT_KEY,
  DYN_ENTITY_SOURCE_PARTITION_KEY,
} DynEntitySource;

#define DYN_TYPE_ENTITY_SOURCE (dyn_entity_source_get_type ())
GType dyn_entity_source_get_type (void) G_GNUC_CONST;

/**
 * DynEntityDetector:
 *
 * Decides from the items of a read where their entity labels come from, as
 * a user reading an unfamiliar table would:
 *
 * 1. A discriminator attribute, when the table has one: an attribute with a
 *    well-known name (see dyn_entity_detector_is_candidate()) that is a
 *    string on the items that have it, short (at most 40 bytes), present on
 *    at least half of the items, whose values repeat (some value on two or
 *    more items, fewer distinct values than items, at most 32 of them). The
 *    first such name in the candidate list wins.
 * 2. Else a key prefix: the text of a string key before its first separator
 *    ('#', '|' or ':'; not '_', '-', '/' or '.', which ordinary names, dates
 *    and ids are full of), when the prefix looks like a type name (starts
 *    with a letter or '_', at most 32 bytes of letters, digits, '_', '-' and
 *    '.'), some prefix is on two or more items, there are fewer distinct
 *    prefixes than such items (at most 64) and they are on at least a
 *    quarter of the key values. Under such a rule a key value without a
 *    separator that is a word (letters, '_' and '-', at most 24 bytes:
 *    "META", "PROFILE") is its own label; prefixes and words together must
 *    label at least half of the values. The sort key is asked first; the partition key when the
 *    sort key has no such rule, or gives one label only where the
 *    partition key gives several (an inverted index: every sort key names
 *    the collection, the partition keys the items).
 * 3. Else nothing: a movies table keyed by title shows no labels.
 *
 * The detector observes the first 4096 items of a read, then one in 16:
 * enough to decide, cheap at a million rows. dyn_entity_detector_update()
 * decides again and says whether the rule changed, so that a model can tell
 * its views once instead of per page.
 */
typedef struct _DynEntityDetector DynEntityDetector;

DynEntityDetector *dyn_entity_detector_new           (void) G_GNUC_WARN_UNUSED_RESULT;
void               dyn_entity_detector_free          (DynEntityDetector *self);
/* Forgets every observation; the rule becomes NONE. */
void               dyn_entity_detector_reset         (DynEntityDetector *self);
/* An attribute name was seen for the first time in the read (the model
 * knows this already): only candidate names are looked up in items. A
 * model does not pass its key attributes: their values are keys. */
void               dyn_entity_detector_note_attribute (DynEntityDetector *self,
                                                       const char        *name);
/* Observes one item; @pk and @sk are its partition and sort key values (the
 * first attribute's value of a multi-attribute key), either may be NULL. */
void               dyn_entity_detector_observe       (DynEntityDetector *self,
                                                      const DynValue    *item,
                                                      const DynValue    *pk,
                                                      const DynValue    *sk);
/* Decides from what was observed; TRUE when the rule changed. */
gboolean           dyn_entity_detector_update        (DynEntityDetector *self);

DynEntitySource    dyn_entity_detector_get_source    (DynEntityDetector *self);
/* The discriminator attribute (DYN_ENTITY_SOURCE_ATTRIBUTE), else NULL. */
const char        *dyn_entity_detector_get_attribute (DynEntityDetector *self);
/* The separator of a key prefix rule, else '\0'. */
char               dyn_entity_detector_get_separator (DynEntityDetector *self);
/* The label of an item under the current rule: an interned string, or NULL. */
const char        *dyn_entity_detector_label         (DynEntityDetector *self,
                                                      const DynValue    *item,
                                                      const DynValue    *pk,
                                                      const DynValue    *sk);

/* Whether @name is one of the discriminator names looked for. */
gboolean           dyn_entity_detector_is_candidate  (const char        *name);

/**
 * dyn_entity_key_label:
 * @key: (nullable): a key value
 * @separator: '#', '|' or ':'
 *
 * The label a key value gives under a key prefix rule: the text before the
 * first @separator when it looks like a type name, the whole value when it
 * has no separator and is a word; NULL otherwise (numbers, binary, "#x").
 * Returns an interned string.
 */
const char        *dyn_entity_key_label              (const DynValue    *key,
                                                      char               separator);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynEntityDetector, dyn_entity_detector_free)

G_END_DECLS
