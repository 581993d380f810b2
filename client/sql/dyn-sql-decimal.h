/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Exact decimal arithmetic for the SQL Workbench: DynamoDB numbers (up to 38
 * significant digits, magnitudes 1E-130 to 9.9…E+125) never pass through a
 * double. Results of sums and averages may need more digits than DynamoDB
 * holds; they are exact decimal text all the same.
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Exact arithmetic on decimal text ("-12.5", "1E+40"); NULL with @error on
 * text that is not a number. The result is normalised (no exponent when
 * it has at most 40 digits, no trailing fraction zeros). */
char     *dyn_decimal_add       (const char *a, const char *b, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* @a / @n to @scale fraction digits, rounded half-even (AVG). */
char     *dyn_decimal_divide_int (const char *a, gint64 n, guint scale, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The number as SQLite should hold it: TRUE and *@out set when it fits a
 * 64-bit integer exactly. */
gboolean  dyn_decimal_to_int64  (const char *text, gint64 *out);

/**
 * dyn_sql_decimal_register:
 *
 * Registers on @db, replacing SQLite's own: SUM, TOTAL, AVG, MIN, MAX as
 * exact decimal aggregates (INTEGER arguments and exact decimal text alike;
 * an INTEGER result when it fits 64 bits, exact decimal text otherwise), a
 * `DECIMAL` collation that orders numeric text by value, and `dec_cmp(a, b)`.
 * The virtual tables declare their N columns with it so that comparisons and
 * ORDER BY compare by decimal value.
 *
 * Returns: an SQLite result code
 */
int       dyn_sql_decimal_register (sqlite3 *db);

G_END_DECLS
