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
/**
 * DynValueDisplay:
 * @DYN_VALUE_DISPLAY_TEXT: a string, boolean or null as it is
 * @DYN_VALUE_DISPLAY_NUMBER: a number (or a number set)
 * @DYN_VALUE_DISPLAY_BINARY: binary (or a binary set), marked as such
 * @DYN_VALUE_DISPLAY_EMPTY: an empty string or binary (a value, unlike a
 *   missing attribute, which has no cell text at all)
 * @DYN_VALUE_DISPLAY_SUMMARY: a map or list, summarised
 *
 * What a grid cell shows, for its style.
 */
typedef enum {
  DYN_VALUE_DISPLAY_TEXT,
  DYN_VALUE_DISPLAY_NUMBER,
  DYN_VALUE_DISPLAY_BINARY,
  DYN_VALUE_DISPLAY_EMPTY,
  DYN_VALUE_DISPLAY_SUMMARY,
} DynValueDisplay;

/**
 * dyn_value_format_display:
 * @kind: (out) (optional): what the text shows
 *
 * A value as a grid cell shows it to be read (dyn_value_format_cell() is
 * the text to edit): like the cell text, but
 * - binary is marked and previewed: "binary · 5 bytes · “hello”" when the
 *   bytes are printable UTF-8, else their first bytes in hex
 *   in pairs ("binary · 4 bytes · 8950 4e47");
 * - numbers are exact and readable (dyn_number_format_display());
 * - an empty string reads "(empty string)", empty binary "binary · 0
 *   bytes", so that both differ from a missing attribute (no text).
 * Cut at @max_chars (0: no limit) with an ellipsis.
 */
char       *dyn_value_format_display   (const DynValue  *value,
                                        guint            max_chars,
                                        DynValueDisplay *kind) G_GNUC_WARN_UNUSED_RESULT;
/**
 * dyn_number_format_display:
 * @number: a valid DynamoDB number text
 *
 * The number with every digit, readable: digits grouped in threes by a
 * narrow no-break space (U+202F) where the integer part has five or more
 * ("12 000.50", "1 234 567"; "2013" stays) or the fraction seven or more.
 * A number of more than 15 significant digits, or beyond 10¹⁵ or below
 * 10⁻⁶, is led by its scientific form: exact when it has at most four
 * significant digits ("1 × 10⁻¹³⁰"), else rounded to four and marked
 * ("≈ 1.235 × 10¹⁹ · 12 345 678 901 234 567 890.123 456 789 012 345 678").
 * When the plain digits would run longer than 60 characters they are
 * replaced by the exact scientific form with all significant digits, so no
 * digit is ever lost.
 */
char       *dyn_number_format_display  (const char      *number) G_GNUC_WARN_UNUSED_RESULT;

/* The type descriptor as shown: "S", "N", "SS" … */
const char *dyn_value_format_type      (const DynValue  *value);


/* Re-indents compact JSON text by two spaces per level, without reading the
 * values (numbers keep their exact text). */
char       *dyn_json_text_indent       (const char      *json) G_GNUC_WARN_UNUSED_RESULT;
G_END_DECLS
