/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-value.h"

G_BEGIN_DECLS

typedef enum {
  DYN_BINARY_FORMAT_BASE64,
  DYN_BINARY_FORMAT_HEX,
} DynBinaryFormat;

/* One line for a grid cell: strings as they are (line breaks shown as ⏎),
 * numbers with their exact text, sets as {a, b}, binary as base64 or hex,
 * maps and lists summarised ("{3 attributes}", "[5 items]"). Long text is cut
 * at @max_chars (0: no limit) with an ellipsis. */
char       *dyn_value_format_cell      (const DynValue  *value,
                                        DynBinaryFormat  binary_format,
                                        guint            max_chars) G_GNUC_WARN_UNUSED_RESULT;
/* The whole value as text (the detail pane): like the cell, but maps and
 * lists written out inline. */
char       *dyn_value_format_full      (const DynValue  *value,
                                        DynBinaryFormat  binary_format) G_GNUC_WARN_UNUSED_RESULT;
char       *dyn_value_format_binary    (GBytes          *bytes,
                                        DynBinaryFormat  binary_format) G_GNUC_WARN_UNUSED_RESULT;
/* The type descriptor as shown: "S", "N", "SS" … */
const char *dyn_value_format_type      (const DynValue  *value);


/* Re-indents compact JSON text by two spaces per level, without reading the
 * values (numbers keep their exact text). */
char       *dyn_json_text_indent       (const char      *json) G_GNUC_WARN_UNUSED_RESULT;
G_END_DECLS
