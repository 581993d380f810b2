/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-design.h"

G_BEGIN_DECLS

/* Between the draft (dyn-design-draft.c) and the examples
 * (dyn-design-examples.c). */

/* The model the plan was drafted from, with the edge entities the draft
 * added for n:m relationships that name none (borrowed). */
const DynDesignModel *_dyn_design_plan_get_model (const DynDesignPlan *plan);

/* The shard (1..@n_shards) of an item of a sharded placement: a stable hash
 * (FNV-1a) of the values of its entity's @id attributes in @context, so
 * that the examples spread over every shard and a GetItem finds its item
 * from the id alone. */
guint _dyn_design_shard_of (const DynDesignEntity *entity,
                            const DynValue        *context,
                            guint                  n_shards);

/* Renders every key template of @placement on @context into @item (a
 * template whose field @context lacks is left out: a sparse index). */
void _dyn_design_render_keys (const DynDesignEntity    *entity,
                              const DynDesignPlacement *placement,
                              const DynValue           *context,
                              DynValue                 *item);

/* The generated examples of @plan (never the model's own items), in the
 * order they were made (each parent before its children), with, when
 * @contexts is not NULL, one context per item: the item's attributes plus
 * its ancestors' ids (the fields its key templates use). */
GPtrArray *_dyn_design_examples_generate (const DynDesignPlan *plan,
                                          guint                per_parent,
                                          guint32              seed,
                                          GPtrArray          **contexts);

/* Sorts items as DynamoDB stores them: by the table's partition key, then
 * its sort key. */
void _dyn_design_sort_items (const DynDesignTable *table,
                             GPtrArray            *items);

G_END_DECLS
