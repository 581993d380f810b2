/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Exact decimal arithmetic for the SQL Workbench: DynamoDB numbers (up to 38
 * significant digits, magnitudes 1E-130 to 9.9…E+125) never pass through a
 * double. Results of sums and averages may need more digits than DynamoDB
 * holds; they are exact decimal text all the same.
 *
 * How the virtual tables should declare and fill N columns (measured on
 * SQLite 3.40 in tests/test-sql-decimal.c, /sql-decimal/vtab-*):
 *
 * - Declare them `TEXT COLLATE DECIMAL` ("CREATE TABLE x(price TEXT COLLATE
 *   DECIMAL, …)" to sqlite3_declare_vtab). TEXT affinity makes SQLite turn
 *   the other side of a comparison (an INTEGER or REAL literal, an INTEGER
 *   value) into text, and the collation then compares by exact value:
 *   `price > 10`, `price = '12345678901234567890123.5'`, `price = '10.00'`,
 *   BETWEEN, IN (…), joins on N columns are exact.
 * - Not a NUMERIC affinity (NUM, DECIMAL, NUMERIC …): SQLite converts the
 *   text to a double before comparing; 12345678901234567890123.5 =
 *   '12345678901234567890123.4' is then true. Not without a type either:
 *   an INTEGER is then less than every text, -1E+30 > 10.
 * - ORDER BY, GROUP BY and DISTINCT order by storage class first (NULL <
 *   INTEGER/REAL < TEXT < BLOB); the collation only orders text against
 *   text. So ORDER BY is exact only when every N value of the column is
 *   TEXT: return N values from xColumn as their canonical text (as
 *   DynamoDB sends them). If a column hands out INTEGERs for the values
 *   that fit 64 bits and text for the others, comparisons stay exact but
 *   `ORDER BY price` puts 5 and 10 before 0.5 (/sql-decimal/vtab-arrangements).
 *   SUM/AVG/MIN/MAX/TOTAL here accept both and treat numeric text as a
 *   number, so the aggregates are exact either way.
 * - What stays SQLite's: arithmetic (price * 2, price + 0) turns the text
 *   into an INTEGER or, beyond 64 bits or with a fraction, a double; a
 *   numeric literal with more than 15 significant digits is a double before
 *   we see it (write '12345678901234567890123.5' in quotes); typeof(price)
 *   says 'text'. The DECIMAL collation orders numeric text by value before
 *   all other text, which it orders by bytes (an S value "12" in an N
 *   column sorts as the number 12).
 *
 * The aggregates: INTEGER, REAL (by its shortest round-trip text: 0.1 is
 * 0.1) and numeric text are summed exactly; text that is not a number is an
 * error naming it ("sum(): invalid number "abc": not a decimal number"),
 * where SQLite would silently count it as 0; a BLOB or an infinity is an
 * error too. SUM of no rows is NULL, TOTAL of no rows 0, AVG of no rows
 * NULL; NULLs are skipped. AVG rounds half-even to 38 significant digits
 * (DynamoDB's precision; exact when the average has no more). Results are
 * INTEGER when they fit 64 bits, exact decimal text otherwise. MIN and MAX
 * order NULL < numbers (exact) < other text (bytes: a function cannot see
 * its argument's collation) < BLOB and return the value as it came; the
 * multi-argument min(a, b, …) and max(a, b, …) are replaced the same way
 * (NULL when an argument is NULL, as in SQLite). All five work as window
 * functions; MIN and MAX keep a queue of candidate rows for that (up to
 * the rows of the group when the values are monotonic). dec_cmp(a, b)
 * returns -1, 0 or 1 in that same order, NULL when either is NULL.
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
