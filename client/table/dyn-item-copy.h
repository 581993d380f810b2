/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-expr.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynCopyFormat:
 * @DYN_COPY_FORMAT_PLAIN: plain JSON, numbers with their exact text and
 *   the tags of client/values/VALUES.md for sets and binary
 * @DYN_COPY_FORMAT_DDB: DynamoDB JSON ({"S": "…"}), as the AWS CLI and the
 *   SDKs' low-level clients take it
 *
 * How copied items are written.
 */
typedef enum {
  DYN_COPY_FORMAT_PLAIN,
  DYN_COPY_FORMAT_DDB,
} DynCopyFormat;

/* "plain" and "ddb" (the "copy-format" setting). */
const char *dyn_copy_format_to_string   (DynCopyFormat   format);
gboolean    dyn_copy_format_from_string (const char     *text,
                                         DynCopyFormat  *format);

/**
 * dyn_items_to_json_lines:
 * @items: (array length=n): items (maps)
 * @format: plain JSON or DynamoDB JSON
 * @key: (nullable): write only the attributes of this key (what GetItem
 *   takes as its Key), in key order
 *
 * The items as JSON lines: one compact JSON object per line, each line
 * ending in a newline. Numbers are written exactly as held.
 */
char       *dyn_items_to_json_lines     (DynValue * const    *items,
                                         guint                n,
                                         DynCopyFormat        format,
                                         const DynKeySchema  *key) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
