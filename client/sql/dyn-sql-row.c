/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values between DynamoDB and SQLite, result rows, JSON lines and CSV. */
#define G_LOG_DOMAIN "dyn-sql"

#include "config.h"

#include <string.h>

#include "dyn-sql-private.h"
#include "dyn-json.h"

/* Numbers ----------------------------------------------------------------- */

/* The canonical text of @text, and whether it is a whole number that fits
 * 64 bits (*out). */
static char *
number_int64 (const char *text,
              gint64     *out,
              gboolean   *fits)
{
  char *canon = dyn_number_canonicalize (text);
  const char *p = canon;

  *fits = FALSE;
  if (*p == '-')
    p++;
  if (*p != '\0' && strspn (p, "0123456789") == strlen (p))
    {
      gint64 v;
      if (g_ascii_string_to_signed (canon, 10, G_MININT64, G_MAXINT64, &v, NULL))
        {
          *out = v;
          *fits = TRUE;
        }
    }
  return canon;
}

void
dyn_sql_result_value (sqlite3_context *ctx,
                      const DynValue  *value,
                      gboolean         decimal)
{
  if (value == NULL)
    {
      sqlite3_result_null (ctx);
      return;
    }

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      sqlite3_result_text (ctx, dyn_value_get_string (value), dyn_value_get_string_length (value),
                           SQLITE_TRANSIENT);
      break;
    case DYN_VALUE_N:
      {
        gint64 v = 0;
        gboolean fits;
        g_autofree char *canon = number_int64 (dyn_value_get_number (value), &v, &fits);

        if (fits && !decimal)
          sqlite3_result_int64 (ctx, v);
        else
          sqlite3_result_text (ctx, canon, -1, SQLITE_TRANSIENT);
      }
      break;
    case DYN_VALUE_B:
      {
        gsize len;
        const void *data = g_bytes_get_data (dyn_value_get_binary (value), &len);
        sqlite3_result_blob64 (ctx, len ? data : "", len, SQLITE_TRANSIENT);
      }
      break;
    case DYN_VALUE_BOOL:
      sqlite3_result_int (ctx, dyn_value_get_bool (value) ? 1 : 0);
      break;
    case DYN_VALUE_NULL:
      sqlite3_result_null (ctx);
      break;
    default:
      {
        /* Maps, lists and sets: plain JSON, which SQLite's JSON functions read. */
        g_autofree char *json = dyn_value_to_plain_json_string (value);
        sqlite3_result_text (ctx, json, -1, SQLITE_TRANSIENT);
        sqlite3_result_subtype (ctx, 'J');
      }
      break;
    }
}

static gboolean
is_number_text (const char *text)
{
  return text != NULL && *text != '\0' && dyn_number_validate (text, NULL) &&
         strspn (text, "+-0123456789.eE") == strlen (text);
}

DynValue *
dyn_sql_value_to_dyn (sqlite3_value *value,
                      gboolean       numeric_text)
{
  switch (sqlite3_value_type (value))
    {
    case SQLITE_INTEGER:
      {
        char buf[32];
        g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64) sqlite3_value_int64 (value));
        return dyn_value_new_number (buf, NULL);
      }
    case SQLITE_FLOAT:
      {
        /* SQLite's own arithmetic (a * 1.5, a / b): its shortest text. */
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        DynValue *v;

        g_ascii_dtostr (buf, sizeof buf, sqlite3_value_double (value));
        v = dyn_value_new_number (buf, NULL);
        return v ? v : dyn_value_new_string (buf);
      }
    case SQLITE_TEXT:
      {
        const char *text = (const char *) sqlite3_value_text (value);
        int len = sqlite3_value_bytes (value);

        if (numeric_text && is_number_text (text))
          {
            DynValue *v = dyn_value_new_number (text, NULL);
            if (v != NULL)
              return v;
          }
        return dyn_value_new_string_len (text, len);
      }
    case SQLITE_BLOB:
      {
        g_autoptr(GBytes) bytes = g_bytes_new (sqlite3_value_blob (value), sqlite3_value_bytes (value));
        return dyn_value_new_binary (bytes);
      }
    default:
      return dyn_value_new_null ();
    }
}

DynValue *
dyn_sql_key_value (sqlite3_value *value,
                   DynValueType   type)
{
  int t = sqlite3_value_type (value);

  if (t == SQLITE_NULL)
    return NULL;
  switch (type)
    {
    case DYN_VALUE_S:
      if (t == SQLITE_BLOB)
        return NULL;
      return dyn_value_new_string_len ((const char *) sqlite3_value_text (value), sqlite3_value_bytes (value));
    case DYN_VALUE_N:
      {
        const char *text;
        g_autofree char *canon = NULL;

        if (t == SQLITE_BLOB)
          return NULL;
        text = (const char *) sqlite3_value_text (value);
        if (!is_number_text (text))
          return NULL;
        canon = dyn_number_canonicalize (text);
        return dyn_value_new_number (canon, NULL);
      }
    case DYN_VALUE_B:
      {
        g_autoptr(GBytes) bytes = NULL;

        if (t != SQLITE_BLOB)
          return NULL;
        bytes = g_bytes_new (sqlite3_value_blob (value), sqlite3_value_bytes (value));
        return dyn_value_new_binary (bytes);
      }
    default:
      return NULL;
    }
}

char *
dyn_sql_quote_identifier (const char *name)
{
  GString *s = g_string_new ("\"");

  for (const char *p = name; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
  return g_string_free (s, FALSE);
}

/* Rows -------------------------------------------------------------------- */

void
dyn_sql_row_free (DynSqlRow *row)
{
  if (row == NULL)
    return;
  g_clear_pointer (&row->cells, g_ptr_array_unref);
  g_free (row->source);
  g_clear_pointer (&row->item, dyn_value_unref);
  g_free (row);
}

static void
append_json_cell (GString        *out,
                  const DynValue *value)
{
  if (value == NULL)
    g_string_append (out, "null");
  else
    dyn_json_append_plain_value (out, value);
}

char *
dyn_sql_row_to_json_line (const char * const *columns,
                          const DynSqlRow    *row)
{
  GString *out = g_string_new ("{");
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (row != NULL, NULL);

  for (guint i = 0; i < row->cells->len; i++)
    {
      const char *name = columns && columns[i] ? columns[i] : "";
      g_autofree char *unique = NULL;

      /* Two output columns of one name ("SELECT a.PK, b.PK"): the second
       * becomes "PK:2" so that no value is lost. */
      if (g_hash_table_contains (seen, name))
        {
          for (guint n = 2; ; n++)
            {
              g_free (unique);
              unique = g_strdup_printf ("%s:%u", name, n);
              if (!g_hash_table_contains (seen, unique))
                break;
            }
        }
      if (i > 0)
        g_string_append_c (out, ',');
      dyn_json_append_string (out, unique ? unique : name, strlen (unique ? unique : name));
      g_string_append_c (out, ':');
      append_json_cell (out, row->cells->pdata[i]);
      if (unique != NULL)
        {
          g_hash_table_add (seen, unique);
          g_ptr_array_add (owned, g_steal_pointer (&unique));
        }
      else
        g_hash_table_add (seen, (gpointer) name);
    }
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

static void
append_csv_field (GString    *out,
                  const char *text,
                  gsize       len)
{
  gboolean quote = FALSE;

  for (gsize i = 0; i < len; i++)
    if (text[i] == ',' || text[i] == '"' || text[i] == '\r' || text[i] == '\n')
      quote = TRUE;
  if (!quote)
    {
      g_string_append_len (out, text, len);
      return;
    }
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, text[i]);
    }
  g_string_append_c (out, '"');
}

char *
dyn_sql_row_to_csv_line (const char * const *columns,
                         const DynSqlRow    *row)
{
  GString *out = g_string_new (NULL);

  if (row == NULL)
    {
      for (guint i = 0; columns && columns[i]; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          append_csv_field (out, columns[i], strlen (columns[i]));
        }
    }
  else
    {
      for (guint i = 0; i < row->cells->len; i++)
        {
          DynValue *v = row->cells->pdata[i];

          if (i > 0)
            g_string_append_c (out, ',');
          if (v == NULL || dyn_value_get_value_type (v) == DYN_VALUE_NULL)
            continue;   /* NULL: an empty field */
          switch (dyn_value_get_value_type (v))
            {
            case DYN_VALUE_S:
              append_csv_field (out, dyn_value_get_string (v), dyn_value_get_string_length (v));
              break;
            case DYN_VALUE_N:
              g_string_append (out, dyn_value_get_number (v));
              break;
            case DYN_VALUE_BOOL:
              g_string_append (out, dyn_value_get_bool (v) ? "true" : "false");
              break;
            case DYN_VALUE_B:
              {
                gsize len;
                const guchar *data = g_bytes_get_data (dyn_value_get_binary (v), &len);
                g_autofree char *b64 = g_base64_encode (data, len);
                g_string_append (out, b64);
              }
              break;
            default:
              {
                g_autofree char *json = dyn_value_to_plain_json_string (v);
                append_csv_field (out, json, strlen (json));
              }
              break;
            }
        }
    }
  g_string_append (out, "\r\n");
  return g_string_free (out, FALSE);
}

/* Results ----------------------------------------------------------------- */

struct _DynSqlResult
{
  GStrv      columns;
  GPtrArray *rows;
  GPtrArray *sources;   /* DynSqlSourceStats* */
  gboolean   cancelled;
};

void
dyn_sql_source_stats_free (DynSqlSourceStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->source);
  g_free (stats);
}

DynSqlResult *
dyn_sql_result_new (const char * const *columns)
{
  DynSqlResult *self = g_new0 (DynSqlResult, 1);

  self->columns = g_strdupv ((char **) columns);
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_row_free);
  self->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_source_stats_free);
  return self;
}

void
dyn_sql_result_add_rows (DynSqlResult *self,
                         GPtrArray    *rows)
{
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (self->rows, rows->pdata[i]);
  g_ptr_array_set_free_func (rows, NULL);
  g_ptr_array_set_size (rows, 0);
  g_ptr_array_set_free_func (rows, (GDestroyNotify) dyn_sql_row_free);
}

void
dyn_sql_result_set_stats (DynSqlResult *self,
                          GPtrArray    *stats,
                          gboolean      cancelled)
{
  for (guint i = 0; stats && i < stats->len; i++)
    {
      const DynSqlSourceStats *s = stats->pdata[i];
      DynSqlSourceStats *copy = g_memdup2 (s, sizeof *s);
      copy->source = g_strdup (s->source);
      g_ptr_array_add (self->sources, copy);
    }
  self->cancelled = cancelled;
}

void
dyn_sql_result_free (DynSqlResult *self)
{
  if (self == NULL)
    return;
  g_strfreev (self->columns);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->sources);
  g_free (self);
}

const char * const *
dyn_sql_result_get_columns (DynSqlResult *self)
{
  return (const char * const *) self->columns;
}

GPtrArray *
dyn_sql_result_get_rows (DynSqlResult *self)
{
  return self->rows;
}

guint
dyn_sql_result_get_n_sources (DynSqlResult *self)
{
  return self->sources->len;
}

const DynSqlSourceStats *
dyn_sql_result_get_source (DynSqlResult *self,
                           guint         i)
{
  g_return_val_if_fail (i < self->sources->len, NULL);
  return self->sources->pdata[i];
}

void
dyn_sql_result_get_totals (DynSqlResult *self,
                           guint        *requests,
                           guint        *pages,
                           double       *read_units)
{
  guint r = 0, p = 0;
  double u = 0;

  for (guint i = 0; i < self->sources->len; i++)
    {
      const DynSqlSourceStats *s = self->sources->pdata[i];
      r += s->requests;
      p += s->pages;
      u += s->read_units;
    }
  if (requests)
    *requests = r;
  if (pages)
    *pages = p;
  if (read_units)
    *read_units = u;
}

gboolean
dyn_sql_result_was_cancelled (DynSqlResult *self)
{
  return self->cancelled;
}
