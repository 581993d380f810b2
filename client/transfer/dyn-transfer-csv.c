/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV (RFC 4180): the columns of an export (one per attribute name and
 * type), the header and the rows, and the reader's side (header, quoted
 * records over several lines, cells back to values). The cells, as
 * client/transfer/README.md describes them to users:
 *
 *   S     the string as it is          N     the number's exact text
 *   B     Base64                       BOOL  true / false
 *   NULL  null                         SS    a JSON array of strings
 *   NS    a JSON array of numbers      BS    a JSON array of Base64 strings
 *   M, L  plain JSON (client/values/VALUES.md)
 *
 * An absent attribute is an empty unquoted cell; an empty string or binary
 * is `""`. A cell is quoted when it holds a comma, a quote, CR or LF, starts
 * or ends with a space or tab, or is empty; quotes are doubled. Nothing else
 * is changed: no escaping of spreadsheet formulas. */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-transfer-format-private.h"

struct _DynCsvColumns {
  GPtrArray  *columns;    /* DynCsvColumn*, key columns first */
  GHashTable *index;      /* "T:name" → the column (borrowed) */
  char      **keys;
  guint       n_key_columns;
};

static void
column_free (gpointer data)
{
  DynCsvColumn *c = data;

  g_free (c->name);
  g_free (c);
}

static char *
column_id (const char   *name,
           DynValueType  type)
{
  return g_strdup_printf ("%d:%s", (int) type, name);
}

DynCsvColumns *
dyn_csv_columns_new (const char * const *keys)
{
  DynCsvColumns *self = g_new0 (DynCsvColumns, 1);

  self->columns = g_ptr_array_new_with_free_func (column_free);
  self->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->keys = g_strdupv ((char **) keys);
  return self;
}

void
dyn_csv_columns_free (DynCsvColumns *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->columns);
  g_hash_table_unref (self->index);
  g_strfreev (self->keys);
  g_free (self);
}

static int
key_rank (DynCsvColumns *self,
          const char    *name)
{
  for (guint i = 0; self->keys != NULL && self->keys[i] != NULL; i++)
    if (strcmp (self->keys[i], name) == 0)
      return i;
  return -1;
}

void
dyn_csv_columns_add_item (DynCsvColumns  *self,
                          const DynValue *item)
{
  g_return_if_fail (self != NULL && item != NULL);
  g_return_if_fail (dyn_value_get_value_type (item) == DYN_VALUE_M);

  for (guint i = 0; i < dyn_value_get_length (item); i++)
    {
      const char *name = dyn_value_map_get_name (item, i);
      DynValueType type = dyn_value_get_value_type (dyn_value_map_get_value (item, i));
      char *id = column_id (name, type);
      DynCsvColumn *c;
      int rank;

      if (g_hash_table_contains (self->index, id))
        {
          g_free (id);
          continue;
        }
      c = g_new0 (DynCsvColumn, 1);
      c->name = g_strdup (name);
      c->type = type;
      g_hash_table_insert (self->index, id, c);
      rank = key_rank (self, name);
      if (rank < 0)
        g_ptr_array_add (self->columns, c);
      else
        {
          /* after the key columns of this key and those before it */
          guint at = 0;

          while (at < self->n_key_columns
                 && key_rank (self, ((DynCsvColumn *) g_ptr_array_index (self->columns, at))->name) <= rank)
            at++;
          g_ptr_array_insert (self->columns, at, c);
          self->n_key_columns++;
        }
    }
}

guint
dyn_csv_columns_get_count (DynCsvColumns *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->columns->len;
}

static void
append_cell (GString    *out,
             const char *text,
             gsize       len)
{
  /* empty; or a byte order mark that a reader would take away */
  gboolean quote = len == 0 || (len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0);

  if (len > 0 && (text[0] == ' ' || text[0] == '\t' || text[len - 1] == ' ' || text[len - 1] == '\t'))
    quote = TRUE;
  for (gsize i = 0; !quote && i < len; i++)
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

void
dyn_csv_columns_append_header (DynCsvColumns *self,
                               GString       *out)
{
  g_return_if_fail (self != NULL && out != NULL);

  for (guint i = 0; i < self->columns->len; i++)
    {
      DynCsvColumn *c = g_ptr_array_index (self->columns, i);
      g_autofree char *head = g_strdup_printf ("%s (%s)", c->name, dyn_value_type_to_string (c->type));

      if (i > 0)
        g_string_append_c (out, ',');
      append_cell (out, head, strlen (head));
    }
  g_string_append (out, "\r\n");
}

/* Whether @text is a JSON number literal (RFC 8259), so that it can stand
 * in a JSON array as it is. */
static gboolean
is_json_number (const char *p)
{
  if (*p == '-')
    p++;
  if (*p == '0')
    p++;
  else if (g_ascii_isdigit (*p))
    while (g_ascii_isdigit (*p))
      p++;
  else
    return FALSE;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (*p == 'e' || *p == 'E')
    {
      p++;
      if (*p == '+' || *p == '-')
        p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  return *p == '\0';
}

static void
append_base64 (GString *out,
               GBytes  *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append (out, b64);
}

/* The text of @value's cell, unquoted. */
static void
cell_text (const DynValue *value,
           GString        *out)
{
  guint n;

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      g_string_append_len (out, dyn_value_get_string (value), dyn_value_get_string_length (value));
      break;
    case DYN_VALUE_N:
      g_string_append (out, dyn_value_get_number (value));
      break;
    case DYN_VALUE_B:
      append_base64 (out, dyn_value_get_binary (value));
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (value) ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      n = dyn_value_get_length (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (dyn_value_get_value_type (value) == DYN_VALUE_BS)
            {
              g_string_append_c (out, '"');
              append_base64 (out, dyn_value_set_get_binary (value, i));
              g_string_append_c (out, '"');
            }
          else
            {
              const char *s = dyn_value_set_get_string (value, i);

              /* a number JSON cannot spell (+5, .5, 5.) as a string */
              if (dyn_value_get_value_type (value) == DYN_VALUE_NS && is_json_number (s))
                g_string_append (out, s);
              else
                dyn_json_append_string (out, s, strlen (s));
            }
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    default:
      dyn_json_append_plain_value (out, value);
      break;
    }
}

void
dyn_csv_columns_append_row (DynCsvColumns  *self,
                            const DynValue *item,
                            GString        *out)
{
  g_autoptr(GString) cell = g_string_new (NULL);

  g_return_if_fail (self != NULL && item != NULL && out != NULL);

  for (guint i = 0; i < self->columns->len; i++)
    {
      DynCsvColumn *c = g_ptr_array_index (self->columns, i);
      DynValue *v = dyn_value_map_lookup (item, c->name);

      if (i > 0)
        g_string_append_c (out, ',');
      if (v == NULL || dyn_value_get_value_type (v) != c->type)
        continue;
      g_string_truncate (cell, 0);
      cell_text (v, cell);
      append_cell (out, cell->str, cell->len);
    }
  g_string_append (out, "\r\n");
}

/* ---------------------------------------------------------------- reader */

typedef struct {
  gsize    start;    /* in the unquoted text */
  gsize    len;
  gboolean quoted;
} Field;

void
_dyn_csv_reader_clear (DynItemReader *self)
{
  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_pointer (&self->csv_types, g_hash_table_unref);
}

/* Reads one record (lines until the quotes balance) into self->text. 1, 0
 * at the end, -1 on error; *unterminated when the file ended inside a
 * quoted cell. */
static int
read_record (DynItemReader *self,
             gboolean      *too_long,
             gboolean      *unterminated,
             GError       **error)
{
  gboolean in_quotes = FALSE;
  gboolean any = FALSE;

  *too_long = *unterminated = FALSE;
  g_string_truncate (self->text, 0);
  for (;;)
    {
      gsize before = self->text->len;
      gboolean cut;
      int r = _dyn_item_reader_read_line (self, &cut, error);

      if (r < 0)
        return -1;
      if (r == 0)
        {
          if (in_quotes)
            *unterminated = TRUE;
          return any ? 1 : 0;
        }
      any = TRUE;
      if (cut)
        *too_long = TRUE;
      for (gsize i = before; i < self->text->len; i++)
        if (self->text->str[i] == '"')
          in_quotes = !in_quotes;
      if (!in_quotes)
        return 1;
    }
}

/* Splits the record in self->text into @fields, unquoting into @cells.
 * FALSE with @error (the reason, no position) when it is not valid CSV. */
static gboolean
split_record (const char *text,
              gsize       len,
              GArray     *fields,
              GString    *cells,
              GError    **error)
{
  gsize p = 0;

  g_array_set_size (fields, 0);
  g_string_truncate (cells, 0);
  /* the line end of the record */
  if (len > 0 && text[len - 1] == '\n')
    len--;
  if (len > 0 && text[len - 1] == '\r')
    len--;

  for (;;)
    {
      Field f = { cells->len, 0, FALSE };

      if (p < len && text[p] == '"')
        {
          f.quoted = TRUE;
          p++;
          for (;;)
            {
              const char *q = memchr (text + p, '"', len - p);

              if (q == NULL)
                {
                  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                               /* Translators: %u is a column number */
                               _("column %u: a quoted cell is not closed"), fields->len + 1);
                  return FALSE;
                }
              g_string_append_len (cells, text + p, q - (text + p));
              p = q - text + 1;
              if (p < len && text[p] == '"')
                {
                  g_string_append_c (cells, '"');
                  p++;
                  continue;
                }
              break;
            }
          if (p < len && text[p] != ',')
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                           _("column %u: a closing quote must be followed by a comma or the end of the row"),
                           fields->len + 1);
              return FALSE;
            }
        }
      else
        {
          const char *comma = memchr (text + p, ',', len - p);
          gsize end = comma != NULL ? (gsize) (comma - text) : len;

          if (memchr (text + p, '"', end - p) != NULL)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                           _("column %u: a quote inside a cell that does not start with one"),
                           fields->len + 1);
              return FALSE;
            }
          g_string_append_len (cells, text + p, end - p);
          p = end;
        }
      f.len = cells->len - f.start;
      g_array_append_val (fields, f);
      if (p >= len)
        return TRUE;
      p++;   /* the comma */
    }
}

static gboolean
parse_type (const char   *text,
            DynValueType *type)
{
  return dyn_value_type_from_string (text, type);
}

/* "name (T)": the name and the type of the LAST ` (T)` suffix, T upper-case
 * letters; FALSE in *@has_type when there is none. */
static gboolean
split_header (const char   *head,
              char        **name,
              char        **type_text,
              gboolean     *has_type)
{
  gsize len = strlen (head);
  const char *open;

  *has_type = FALSE;
  if (len >= 4 && head[len - 1] == ')')
    {
      open = g_strrstr (head, " (");
      if (open != NULL)
        {
          const char *t = open + 2;
          gsize tlen = head + len - 1 - t;
          gboolean upper = tlen >= 1 && tlen <= 4;

          for (gsize i = 0; upper && i < tlen; i++)
            upper = g_ascii_isupper (t[i]);
          if (upper)
            {
              *has_type = TRUE;
              *name = g_strndup (head, open - head);
              *type_text = g_strndup (t, tlen);
              return TRUE;
            }
        }
    }
  *name = g_strdup (head);
  *type_text = NULL;
  return TRUE;
}

gboolean
_dyn_csv_reader_init (DynItemReader              *self,
                      const DynItemReaderOptions *options,
                      GError                    **error)
{
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (Field));
  g_autoptr(GString) cells = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) reason = NULL;
  gboolean too_long, unterminated;
  int r;

  self->csv_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; options != NULL && options->csv_types != NULL && options->csv_types[i] != NULL; i++)
    {
      const char *spec = options->csv_types[i];
      const char *eq = strrchr (spec, '=');
      DynValueType type;

      if (eq == NULL || eq == spec || !parse_type (eq + 1, &type))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: %s is what the user gave, like "price=N" */
                       _("CSV column type \"%s\" is not NAME=TYPE with TYPE one of S N B BOOL NULL SS NS BS M L"),
                       spec);
          return FALSE;
        }
      g_hash_table_insert (self->csv_types, g_strndup (spec, eq - spec), GINT_TO_POINTER (type));
    }

  do
    {
      r = read_record (self, &too_long, &unterminated, error);
      if (r < 0)
        return FALSE;
    }
  while (r > 0 && !too_long && (self->text->len == 0 || strspn (self->text->str, "\r\n") == self->text->len));
  self->columns = g_ptr_array_new_with_free_func (column_free);
  if (r == 0)
    {
      /* an empty file (the export of an empty table): no items */
      self->data_offset = self->offset;
      self->data_line = self->line;
      return TRUE;
    }
  if (too_long || unterminated || !split_record (self->text->str, self->text->len, fields, cells, &reason))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is the reason */
                   _("CSV header: %s"),
                   reason != NULL ? reason->message
                   : too_long ? _("the header row is too long") : _("a quoted cell is not closed"));
      return FALSE;
    }

  for (guint i = 0; i < fields->len; i++)
    {
      Field *f = &g_array_index (fields, Field, i);
      g_autofree char *head = g_strndup (cells->str + f->start, f->len);
      g_autofree char *name = NULL;
      g_autofree char *type_text = NULL;
      DynCsvColumn *c;
      gboolean has_type;
      gpointer found;
      DynValueType type = DYN_VALUE_S;
      char *id;

      if (strlen (head) != f->len || !g_utf8_validate (head, -1, NULL))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: %u is a column number */
                       _("CSV header, column %u: the name is not valid UTF-8 text"), i + 1);
          return FALSE;
        }
      split_header (head, &name, &type_text, &has_type);
      if (has_type && !parse_type (type_text, &type))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: %u is a column number, then the type and the header cell */
                       _("CSV header, column %u: unknown type \"%s\" in \"%s\" (S N B BOOL NULL SS NS BS M L)"),
                       i + 1, type_text, head);
          return FALSE;
        }
      if (!has_type && g_hash_table_lookup_extended (self->csv_types, name, NULL, &found))
        type = GPOINTER_TO_INT (found);
      if (name[0] == '\0')
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       _("CSV header, column %u: the attribute name is empty"), i + 1);
          return FALSE;
        }
      id = column_id (name, type);
      if (g_hash_table_lookup_extended (seen, id, NULL, &found))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: two column numbers, an attribute name and a type */
                       _("CSV header, column %u: column %u is \"%s\" of type %s already"),
                       i + 1, GPOINTER_TO_UINT (found), name, dyn_value_type_to_string (type));
          g_free (id);
          return FALSE;
        }
      g_hash_table_insert (seen, id, GUINT_TO_POINTER (i + 1));
      c = g_new0 (DynCsvColumn, 1);
      c->name = g_steal_pointer (&name);
      c->type = type;
      g_ptr_array_add (self->columns, c);
    }
  self->data_offset = self->offset;
  self->data_line = self->line;
  return TRUE;
}

/* A set cell: a JSON array → the set, through its DynamoDB JSON form so that
 * DynamoDB's rules (non-empty, unique, valid numbers and Base64) apply. */
static DynValue *
set_from_cell (DynValueType  type,
               const char   *text,
               gsize         len,
               GError      **error)
{
  g_autoptr(DynValue) list = dyn_json_decode_plain (text, len, error);
  g_autoptr(GString) ddb = g_string_new (NULL);

  if (list == NULL)
    return NULL;
  if (dyn_value_get_value_type (list) != DYN_VALUE_L)
    goto shape;
  g_string_append_printf (ddb, "{\"%s\":[", dyn_value_type_to_string (type));
  for (guint i = 0; i < dyn_value_get_length (list); i++)
    {
      DynValue *e = dyn_value_list_get (list, i);
      DynValueType et = dyn_value_get_value_type (e);

      if (i > 0)
        g_string_append_c (ddb, ',');
      if (et == DYN_VALUE_S)
        dyn_json_append_string (ddb, dyn_value_get_string (e), dyn_value_get_string_length (e));
      else if (et == DYN_VALUE_N && type == DYN_VALUE_NS)
        dyn_json_append_string (ddb, dyn_value_get_number (e), strlen (dyn_value_get_number (e)));
      else
        goto shape;
    }
  g_string_append (ddb, "]}");
  return dyn_json_decode_ddb_value (ddb->str, ddb->len, error);

shape:
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s",
               type == DYN_VALUE_SS ? _("a string set must be a JSON array of strings")
               : type == DYN_VALUE_NS ? _("a number set must be a JSON array of numbers")
               : _("a binary set must be a JSON array of Base64 strings"));
  return NULL;
}

/* UTF-8, where U+0000 is a character like any other (a string may hold it) */
static gboolean
utf8_valid (const char *text,
            gsize       len)
{
  const char *end = text + len;

  while (text < end)
    {
      const char *nul = memchr (text, '\0', end - text);
      const char *stop = nul != NULL ? nul : end;

      if (!g_utf8_validate_len (text, stop - text, NULL))
        return FALSE;
      text = stop + (nul != NULL);
    }
  return TRUE;
}

static DynValue *
value_from_cell (DynValueType  type,
                 const char   *text,
                 gsize         len,
                 GError      **error)
{
  DynValue *v;

  if (!utf8_valid (text, len))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s", _("not valid UTF-8 text"));
      return NULL;
    }
  switch (type)
    {
    case DYN_VALUE_S:
      return dyn_value_new_string_len (text, len);
    case DYN_VALUE_N:
      if (memchr (text, '\0', len) != NULL)
        break;
      return dyn_value_new_number (text, error);
    case DYN_VALUE_B:
      {
        g_autoptr(GString) ddb = g_string_new ("{\"B\":");

        dyn_json_append_string (ddb, text, len);
        g_string_append_c (ddb, '}');
        return dyn_json_decode_ddb_value (ddb->str, ddb->len, error);
      }
    case DYN_VALUE_BOOL:
      if (g_ascii_strcasecmp (text, "true") == 0)
        return dyn_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (text, "false") == 0)
        return dyn_value_new_bool (FALSE);
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s",
                   _("a BOOL cell must be true or false"));
      return NULL;
    case DYN_VALUE_NULL:
      if (g_ascii_strcasecmp (text, "null") == 0 || g_ascii_strcasecmp (text, "true") == 0)
        return dyn_value_new_null ();
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s",
                   _("a NULL cell must be null"));
      return NULL;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      return set_from_cell (type, text, len, error);
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    default:
      v = dyn_json_decode_plain (text, len, error);
      if (v != NULL && dyn_value_get_value_type (v) != type)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s",
                       type == DYN_VALUE_M ? _("a map cell must be a JSON object")
                       : _("a list cell must be a JSON array"));
          g_clear_pointer (&v, dyn_value_unref);
        }
      return v;
    }
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s", _("not a number"));
  return NULL;
}

DynItemReadResult
_dyn_csv_reader_next (DynItemReader *self,
                      DynValue     **item,
                      GError       **error)
{
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (Field));
  g_autoptr(GString) cells = g_string_new (NULL);
  g_autoptr(GError) reason = NULL;
  g_autoptr(DynValue) result = NULL;

  for (;;)
    {
      gboolean too_long, unterminated;
      DynItemPosition start = { 0, self->offset, self->line, self->record };
      int r = read_record (self, &too_long, &unterminated, error);

      if (r < 0)
        return DYN_ITEM_READ_FAILED;
      if (r == 0)
        return DYN_ITEM_READ_END;
      /* an empty line is no record */
      if (!too_long && !unterminated && strspn (self->text->str, "\r\n") == self->text->len)
        continue;
      self->last = start;
      self->record++;
      self->next.file = 0;
      self->next.offset = self->offset;
      self->next.line = self->line;
      self->next.record = self->record;
      if (too_long)
        reason = g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("the record is longer than %u MB"),
                              DYN_TRANSFER_MAX_RECORD / (1024 * 1024));
      else if (unterminated)
        reason = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                      _("a quoted cell is not closed before the end of the file"));
      break;
    }

  if (reason == NULL)
    split_record (self->text->str, self->text->len, fields, cells, &reason);
  if (reason == NULL && fields->len != self->columns->len)
    reason = g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                          /* Translators: "5 fields, the header has 4" */
                          g_dngettext (GETTEXT_PACKAGE, "%u field, the header has %u",
                                       "%u fields, the header has %u", fields->len),
                          fields->len, self->columns->len);
  if (reason == NULL)
    {
      result = dyn_value_new_map ();
      for (guint i = 0; i < fields->len; i++)
        {
          Field *f = &g_array_index (fields, Field, i);
          DynCsvColumn *c = g_ptr_array_index (self->columns, i);
          g_autoptr(GError) cell_error = NULL;
          DynValue *v;

          if (!f->quoted && f->len == 0)
            continue;   /* absent */
          if (dyn_value_map_lookup (result, c->name) != NULL)
            {
              reason = g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                    /* Translators: a column number, its header, an attribute name */
                                    _("column %u (%s (%s)): \"%s\" has a value in another column already"),
                                    i + 1, c->name, dyn_value_type_to_string (c->type), c->name);
              break;
            }
          /* the cell text is NUL-terminated where it ends for the parsers */
          {
            char saved = cells->str[f->start + f->len];

            cells->str[f->start + f->len] = '\0';
            v = value_from_cell (c->type, cells->str + f->start, f->len, &cell_error);
            cells->str[f->start + f->len] = saved;
          }
          if (v == NULL)
            {
              reason = g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                    /* Translators: a column number, its header, the reason */
                                    _("column %u (%s (%s)): %s"),
                                    i + 1, c->name, dyn_value_type_to_string (c->type), cell_error->message);
              break;
            }
          dyn_value_map_take (result, c->name, v);
        }
    }
  if (reason != NULL)
    {
      _dyn_item_reader_set_bad (self, error, reason);
      return DYN_ITEM_READ_BAD;
    }
  *item = g_steal_pointer (&result);
  return DYN_ITEM_READ_ITEM;
}
