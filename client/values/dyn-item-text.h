/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * dyn_item_to_plain_text:
 *
 * An item as plain JSON for reading and editing by hand: one attribute per
 * line, maps and long lists indented, numbers with their exact text, and
 * every type plain JSON cannot say written with its tag (client/VALUES.md):
 * sets as {"$set": […]}, so that a set can be told from a list, binary as
 * {"$binary": …}. dyn_item_from_plain_text() reads it back unchanged.
 */
char     *dyn_item_to_plain_text   (const DynValue  *item) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_item_from_plain_text:
 *
 * Parses plain JSON with the tags of client/VALUES.md into an item (a map):
 * what the text says, with no guessing: an array is a list, {"$set": […]}
 * a set. Errors name the byte offset or the attribute (see
 * dyn_json_error_line()).
 */
DynValue *dyn_item_from_plain_text (const char      *text,
                                    gssize           len,
                                    GError         **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
