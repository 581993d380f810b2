/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-design.h"

G_BEGIN_DECLS

/*
 * Edits of a model that keep its references true, for an editor (the
 * window's Design view): renaming an entity renames it in the
 * relationships and access patterns; renaming an attribute renames it in
 * the entity's id, sort attribute, key templates and discriminator, and in
 * the parameters and range conditions of the patterns that read the entity
 * or one of its children (a child's pattern gives its parent's id);
 * removing an entity removes its relationships and patterns. GLib only.
 */

/* The parent of @entity in a 1:n relationship, or NULL. */
const char *dyn_design_model_get_parent        (const DynDesignModel *model,
                                                const char           *entity);
/* Makes @parent (NULL: none) the 1:n parent of @entity: the relationship is
 * changed, added or removed; its items_per_parent is kept on a change. */
void        dyn_design_model_set_parent        (DynDesignModel *model,
                                                const char     *entity,
                                                const char     *parent);
void        dyn_design_model_rename_entity     (DynDesignModel *model,
                                                const char     *old_name,
                                                const char     *new_name);
void        dyn_design_model_rename_attribute  (DynDesignModel  *model,
                                                DynDesignEntity *entity,
                                                const char      *old_name,
                                                const char      *new_name);
/* Removes the entity named @name with its relationships and patterns. */
void        dyn_design_model_remove_entity     (DynDesignModel *model,
                                                const char     *name);
/* "Entity", "Entity2" …: a name no entity has yet. */
char       *dyn_design_model_new_entity_name   (const DynDesignModel *model,
                                                const char           *base) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
