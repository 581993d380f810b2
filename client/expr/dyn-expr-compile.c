/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr-compile"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"
#include "dyn-reserved.h"

#define MAX_BASE_LENGTH 32

struct _DynExprContext {
  DynExprAliasMode  mode;
  DynKeySchema     *keys;
  char             *expressions[DYN_EXPR_N_ROLES];
  DynExprNode      *nodes[DYN_EXPR_N_ROLES];

  GPtrArray        *name_ph;        /* "#er" */
  GPtrArray        *name_attr;      /* "EntityRef" */
  GHashTable       *attr_to_ph;     /* attribute → "#er" (borrowed strings) */
  GPtrArray        *value_ph;       /* ":er" */
  GPtrArray        *value_val;      /* DynValue* */
  GHashTable       *taken;          /* every token in use: generated and verbatim */
  GPtrArray        *raw_tokens;     /* verbatim placeholders, in order */
  gboolean          too_long;       /* the last add failed on DynamoDB's 4 KB limit */
};

DynExprContext *
dyn_expr_context_new (void)
{
  DynExprContext *self = g_new0 (DynExprContext, 1);

  self->mode = DYN_EXPR_ALIAS_ALWAYS;
  self->name_ph = g_ptr_array_new_with_free_func (g_free);
  self->name_attr = g_ptr_array_new_with_free_func (g_free);
  self->attr_to_ph = g_hash_table_new (g_str_hash, g_str_equal);
  self->value_ph = g_ptr_array_new_with_free_func (g_free);
  self->value_val = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  self->taken = g_hash_table_new (g_str_hash, g_str_equal);
  self->raw_tokens = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
dyn_expr_context_free (DynExprContext *self)
{
  if (self == NULL)
    return;
  dyn_key_schema_free (self->keys);
  for (guint i = 0; i < DYN_EXPR_N_ROLES; i++)
    {
      g_free (self->expressions[i]);
      g_clear_pointer (&self->nodes[i], dyn_expr_node_unref);
    }
  g_hash_table_unref (self->taken);
  g_hash_table_unref (self->attr_to_ph);
  g_ptr_array_unref (self->name_ph);
  g_ptr_array_unref (self->name_attr);
  g_ptr_array_unref (self->value_ph);
  g_ptr_array_unref (self->value_val);
  g_ptr_array_unref (self->raw_tokens);
  g_free (self);
}

void
dyn_expr_context_set_alias_mode (DynExprContext   *self,
                                 DynExprAliasMode  mode)
{
  g_return_if_fail (self != NULL);
  self->mode = mode;
}

void
dyn_expr_context_set_key_schema (DynExprContext     *self,
                                 const DynKeySchema *keys)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->keys, dyn_key_schema_free);
  if (keys == NULL)
    return;
  self->keys = dyn_key_schema_copy (keys);
}

/* ------------------------------------------------------------------------ */
/* Placeholder names */

static gboolean
is_word_char (guchar c)
{
  return g_ascii_isalnum (c) || c >= 0x80;
}

/* "EntityRef" → "er", "Detail" → "d", "PK" → "pk", "first-name" → "fn". */
static char *
alias_base (const char *name)
{
  GString *out = g_string_new (NULL);
  gsize len = strlen (name);
  gboolean all_caps = len > 0 && len <= 8 && g_ascii_isalpha (name[0]);

  for (gsize i = 0; i < len && all_caps; i++)
    all_caps = g_ascii_isupper (name[i]) || g_ascii_isdigit (name[i]);
  if (all_caps)
    {
      for (gsize i = 0; i < len; i++)
        g_string_append_c (out, g_ascii_tolower (name[i]));
      return g_string_free (out, FALSE);
    }

  for (gsize i = 0; i < len && out->len < MAX_BASE_LENGTH; i++)
    {
      guchar c = name[i];
      guchar prev = i > 0 ? (guchar) name[i - 1] : 0;
      guchar next = i + 1 < len ? (guchar) name[i + 1] : 0;
      gboolean starts;

      if (!is_word_char (c))
        continue;
      if (g_ascii_isdigit (c))
        {
          /* Digit runs are kept whole. */
          g_string_append_c (out, c);
          continue;
        }
      starts = i == 0 || !is_word_char (prev) || g_ascii_isdigit (prev) ||
               (g_ascii_isupper (c) && (g_ascii_islower (prev) || prev >= 0x80)) ||
               (g_ascii_isupper (c) && g_ascii_isupper (prev) && g_ascii_islower (next));
      if (starts)
        g_string_append_c (out, c >= 0x80 ? 'x' : g_ascii_tolower (c));
    }
  if (out->len == 0)
    g_string_append_c (out, 'a');
  return g_string_free (out, FALSE);
}

static char *
unique_token (DynExprContext *self,
              char            sigil,
              const char     *base)
{
  char *token = g_strdup_printf ("%c%s", sigil, base);

  for (guint n = 2; g_hash_table_contains (self->taken, token); n++)
    {
      g_free (token);
      token = g_strdup_printf ("%c%s%u", sigil, base, n);
    }
  return token;
}

typedef struct {
  DynExprContext *ctx;
  GHashTable     *reserved_here;  /* verbatim tokens of the node being compiled */
} CompileData;

static gboolean
name_cb (GString     *out,
         const char  *name,
         gpointer     user_data,
         GError     **error)
{
  CompileData *data = user_data;
  DynExprContext *self = data->ctx;
  const char *ph;

  /* REMOVE is no reserved word, but a clause keyword: alias it as well. */
  if (self->mode == DYN_EXPR_ALIAS_WHEN_NEEDED && _dyn_expr_is_plain_name (name) &&
      !dyn_reserved_word_is_reserved (name) && !_dyn_expr_is_keyword (name, strlen (name)))
    {
      g_string_append (out, name);
      return TRUE;
    }

  ph = g_hash_table_lookup (self->attr_to_ph, name);
  if (ph == NULL)
    {
      g_autofree char *base = alias_base (name);
      char *token = unique_token (self, '#', base);
      char *attr = g_strdup (name);

      g_ptr_array_add (self->name_ph, token);
      g_ptr_array_add (self->name_attr, attr);
      g_hash_table_insert (self->attr_to_ph, attr, token);
      g_hash_table_add (self->taken, token);
      ph = token;
    }
  g_string_append (out, ph);
  return TRUE;
}

static gboolean
value_cb (GString                *out,
          DynValue               *value,
          const DynExprValueHint *hint,
          gpointer                user_data,
          GError                **error)
{
  CompileData *data = user_data;
  DynExprContext *self = data->ctx;
  g_autofree char *base = NULL;
  g_autofree char *full = NULL;
  char *token;

  for (guint i = 0; i < self->value_val->len; i++)
    if (dyn_value_equal (self->value_val->pdata[i], value))
      {
        g_string_append (out, self->value_ph->pdata[i]);
        return TRUE;
      }

  if (hint->base != NULL)
    base = g_strdup (hint->base);
  else if (hint->path != NULL)
    {
      const char *last = NULL;

      for (guint i = dyn_expr_path_get_length (hint->path); i > 0 && last == NULL; i--)
        {
          gboolean is_ph = FALSE;
          const char *n = dyn_expr_path_get_name (hint->path, i - 1, &is_ph);

          if (n != NULL)
            last = is_ph ? n + 1 : n;
        }
      base = last != NULL ? alias_base (last) : g_strdup ("v");
    }
  else
    base = g_strdup ("v");
  full = g_strconcat (base, hint->suffix ? hint->suffix : "", NULL);

  token = unique_token (self, ':', full);
  g_ptr_array_add (self->value_ph, token);
  g_ptr_array_add (self->value_val, dyn_value_ref (value));
  g_hash_table_add (self->taken, token);
  g_string_append (out, token);
  return TRUE;
}

static void
collect_raw_tokens (DynExprNode *node,
                    GPtrArray   *out)
{
  const DynExprPath *path = dyn_expr_node_get_path (node);

  if (path != NULL)
    for (guint i = 0; i < dyn_expr_path_get_length (path); i++)
      {
        gboolean is_ph = FALSE;
        const char *n = dyn_expr_path_get_name (path, i, &is_ph);

        if (n != NULL && is_ph)
          g_ptr_array_add (out, (gpointer) n);
      }
  if (dyn_expr_node_get_placeholder (node) != NULL)
    g_ptr_array_add (out, (gpointer) dyn_expr_node_get_placeholder (node));
  for (guint i = 0; i < dyn_expr_node_get_n_children (node); i++)
    collect_raw_tokens (dyn_expr_node_get_child (node, i), out);
}

static void
rollback (DynExprContext *self,
          guint           n_names,
          guint           n_values,
          guint           n_raw)
{
  for (guint i = n_names; i < self->name_ph->len; i++)
    {
      g_hash_table_remove (self->taken, self->name_ph->pdata[i]);
      g_hash_table_remove (self->attr_to_ph, self->name_attr->pdata[i]);
    }
  for (guint i = n_values; i < self->value_ph->len; i++)
    g_hash_table_remove (self->taken, self->value_ph->pdata[i]);
  for (guint i = n_raw; i < self->raw_tokens->len; i++)
    g_hash_table_remove (self->taken, self->raw_tokens->pdata[i]);
  g_ptr_array_set_size (self->name_ph, n_names);
  g_ptr_array_set_size (self->name_attr, n_names);
  g_ptr_array_set_size (self->value_ph, n_values);
  g_ptr_array_set_size (self->value_val, n_values);
  g_ptr_array_set_size (self->raw_tokens, n_raw);
}

static gboolean
is_generated (DynExprContext *self,
              const char     *token)
{
  GPtrArray *list = token[0] == '#' ? self->name_ph : self->value_ph;

  for (guint i = 0; i < list->len; i++)
    if (strcmp (list->pdata[i], token) == 0)
      return TRUE;
  return FALSE;
}

const char *
dyn_expr_context_add (DynExprContext  *self,
                      DynExprRole      role,
                      DynExprNode     *node,
                      GError         **error)
{
  static const DynExprWriter writer = { name_cb, value_cb };
  guint n_names, n_values, n_raw;
  g_autoptr(GPtrArray) raw = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  CompileData data = { self, NULL };
  const DynKeySchema *keys = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail ((guint) role < DYN_EXPR_N_ROLES, NULL);

  if (self->expressions[role] != NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: %s is a request field such as FilterExpression; keep it */
                   _("the request already has a %s"), dyn_expr_role_get_field (role));
      return NULL;
    }

  /* Rules. A filter may not name key attributes when the request is a Query
   * (it has a key condition), whichever of the two is added first. */
  if (role == DYN_EXPR_ROLE_KEY_CONDITION || role == DYN_EXPR_ROLE_UPDATE ||
      (role == DYN_EXPR_ROLE_FILTER && self->expressions[DYN_EXPR_ROLE_KEY_CONDITION] != NULL))
    keys = self->keys;
  if (!dyn_expr_validate (node, role, keys, error))
    return NULL;
  if (role == DYN_EXPR_ROLE_KEY_CONDITION && self->nodes[DYN_EXPR_ROLE_FILTER] != NULL &&
      !_dyn_expr_request_check (self->nodes[DYN_EXPR_ROLE_FILTER], self->keys, error))
    return NULL;

  n_names = self->name_ph->len;
  n_values = self->value_ph->len;
  n_raw = self->raw_tokens->len;

  /* Verbatim placeholders keep their names; generated ones avoid them. */
  collect_raw_tokens (node, raw);
  for (guint i = 0; i < raw->len; i++)
    {
      const char *token = raw->pdata[i];

      if (is_generated (self, token))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                       /* Translators: %s is a placeholder such as :v0 */
                       _("the placeholder %s collides with a generated one; "
                         "add expressions with verbatim placeholders first"), token);
          rollback (self, n_names, n_values, n_raw);
          return NULL;
        }
      if (!g_hash_table_contains (self->taken, token))
        {
          char *copy = g_strdup (token);

          g_ptr_array_add (self->raw_tokens, copy);
          g_hash_table_add (self->taken, copy);
        }
    }

  if (!_dyn_expr_write (out, node, role, &writer, &data, error))
    {
      rollback (self, n_names, n_values, n_raw);
      return NULL;
    }
  if (out->len > DYN_EXPR_MAX_LENGTH)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: %s is a request field such as FilterExpression; keep it. Then its
                    * length and DynamoDB's limit (4096) */
                   _("the %s is %zu bytes long; the limit is %d bytes"),
                   dyn_expr_role_get_field (role), out->len, DYN_EXPR_MAX_LENGTH);
      self->too_long = TRUE;
      rollback (self, n_names, n_values, n_raw);
      return NULL;
    }

  self->nodes[role] = dyn_expr_node_ref (node);
  self->expressions[role] = g_string_free (g_steal_pointer (&out), FALSE);
  return self->expressions[role];
}

gboolean
dyn_expr_context_was_too_long (DynExprContext *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->too_long;
}

const char *
dyn_expr_context_get_expression (DynExprContext *self,
                                 DynExprRole     role)
{
  g_return_val_if_fail (self != NULL && (guint) role < DYN_EXPR_N_ROLES, NULL);
  return self->expressions[role];
}

guint
dyn_expr_context_get_n_names (DynExprContext *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->name_ph->len;
}

const char *
dyn_expr_context_get_name (DynExprContext  *self,
                           guint            i,
                           const char     **attribute)
{
  g_return_val_if_fail (self != NULL && i < self->name_ph->len, NULL);
  if (attribute != NULL)
    *attribute = self->name_attr->pdata[i];
  return self->name_ph->pdata[i];
}

guint
dyn_expr_context_get_n_values (DynExprContext *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->value_ph->len;
}

const char *
dyn_expr_context_get_value (DynExprContext  *self,
                            guint            i,
                            DynValue       **value)
{
  g_return_val_if_fail (self != NULL && i < self->value_ph->len, NULL);
  if (value != NULL)
    *value = self->value_val->pdata[i];
  return self->value_ph->pdata[i];
}

GHashTable *
dyn_expr_context_dup_names (DynExprContext *self)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_return_val_if_fail (self != NULL, names);
  for (guint i = 0; i < self->name_ph->len; i++)
    g_hash_table_insert (names, g_strdup (self->name_ph->pdata[i]), g_strdup (self->name_attr->pdata[i]));
  return names;
}

GHashTable *
dyn_expr_context_dup_values (DynExprContext *self)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) dyn_value_unref);

  g_return_val_if_fail (self != NULL, values);
  for (guint i = 0; i < self->value_ph->len; i++)
    g_hash_table_insert (values, g_strdup (self->value_ph->pdata[i]),
                         dyn_value_ref (self->value_val->pdata[i]));
  return values;
}

void
dyn_expr_context_add_to_json (DynExprContext *self,
                              JsonBuilder    *builder)
{
  g_return_if_fail (self != NULL && JSON_IS_BUILDER (builder));

  for (guint r = 0; r < DYN_EXPR_N_ROLES; r++)
    if (self->expressions[r] != NULL)
      {
        json_builder_set_member_name (builder, dyn_expr_role_get_field (r));
        json_builder_add_string_value (builder, self->expressions[r]);
      }
  if (self->name_ph->len > 0)
    {
      json_builder_set_member_name (builder, "ExpressionAttributeNames");
      json_builder_begin_object (builder);
      for (guint i = 0; i < self->name_ph->len; i++)
        {
          json_builder_set_member_name (builder, self->name_ph->pdata[i]);
          json_builder_add_string_value (builder, self->name_attr->pdata[i]);
        }
      json_builder_end_object (builder);
    }
  if (self->value_ph->len > 0)
    {
      json_builder_set_member_name (builder, "ExpressionAttributeValues");
      json_builder_begin_object (builder);
      for (guint i = 0; i < self->value_ph->len; i++)
        {
          json_builder_set_member_name (builder, self->value_ph->pdata[i]);
          json_builder_add_value (builder, dyn_value_to_ddb_json (self->value_val->pdata[i]));
        }
      json_builder_end_object (builder);
    }
}

char *
dyn_expr_compile (DynExprNode         *node,
                  DynExprRole          role,
                  const DynKeySchema  *keys,
                  GHashTable         **names,
                  GHashTable         **values,
                  GError             **error)
{
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  const char *text;

  g_return_val_if_fail (node != NULL, NULL);

  dyn_expr_context_set_key_schema (ctx, keys);
  text = dyn_expr_context_add (ctx, role, node, error);
  if (text == NULL)
    return NULL;
  if (names != NULL)
    *names = dyn_expr_context_dup_names (ctx);
  if (values != NULL)
    *values = dyn_expr_context_dup_values (ctx);
  return g_strdup (text);
}

/* ------------------------------------------------------------------------ */
/* Request-level placeholder check on raw text */

static void
scan_tokens (const char *text,
             GHashTable *names_used,
             GHashTable *values_used)
{
  for (const char *p = text; *p; p++)
    {
      const char *q;

      if (*p != '#' && *p != ':')
        continue;
      q = p + 1;
      while (g_ascii_isalnum (*q) || *q == '_')
        q++;
      if (q > p + 1)
        g_hash_table_add (*p == '#' ? names_used : values_used, g_strndup (p, q - p));
      p = q - 1;
    }
}

static int
compare_strp (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* @names: @map is ExpressionAttributeNames, else ExpressionAttributeValues. */
static gboolean
check_map (GHashTable  *used,
           GHashTable  *map,
           gboolean     names,
           GError     **error)
{
  const char *field = names ? "ExpressionAttributeNames" : "ExpressionAttributeValues";
  GHashTableIter iter;
  gpointer key;
  g_autoptr(GPtrArray) unused = NULL;

  g_hash_table_iter_init (&iter, used);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (map == NULL || !g_hash_table_contains (map, key))
      {
        if (names)
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                       /* Translators: %s is a placeholder such as #n; keep ExpressionAttributeNames, a
                        * request field */
                       _("the name placeholder %s is not defined in ExpressionAttributeNames"), (char *) key);
        else
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                       /* Translators: %s is a placeholder such as :v; keep ExpressionAttributeValues, a
                        * request field */
                       _("the value placeholder %s is not defined in ExpressionAttributeValues"), (char *) key);
        return FALSE;
      }
  if (map == NULL)
    return TRUE;

  unused = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (used, key))
      g_ptr_array_add (unused, key);
  if (unused->len > 0)
    {
      g_autofree char *list = NULL;

      g_ptr_array_sort (unused, compare_strp);
      g_ptr_array_add (unused, NULL);
      list = g_strjoinv (", ", (char **) unused->pdata);
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: the first %s is ExpressionAttributeNames or ExpressionAttributeValues, a
                    * request field; keep it. The second is a list of placeholders (#a, #b) */
                   _("%s has entries no expression uses: %s"), field, list);
      return FALSE;
    }
  return TRUE;
}

gboolean
dyn_expr_check_placeholders (const char * const  *expressions,
                             GHashTable          *names,
                             GHashTable          *values,
                             GError             **error)
{
  g_autoptr(GHashTable) names_used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) values_used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (expressions != NULL, FALSE);

  for (guint i = 0; expressions[i] != NULL; i++)
    scan_tokens (expressions[i], names_used, values_used);

  if (names != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, names);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!_dyn_expr_placeholder_valid (key) || ((char *) key)[0] != '#')
          {
            g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                         /* Translators: keep ExpressionAttributeNames, a request field; %s is the placeholder */
                         _("ExpressionAttributeNames has an invalid placeholder %s"), (char *) key);
            return FALSE;
          }
    }
  if (values != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, values);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!_dyn_expr_placeholder_valid (key) || ((char *) key)[0] != ':')
          {
            g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                         /* Translators: keep ExpressionAttributeValues, a request field; %s is the placeholder */
                         _("ExpressionAttributeValues has an invalid placeholder %s"), (char *) key);
            return FALSE;
          }
    }

  return check_map (names_used, names, TRUE, error) && check_map (values_used, values, FALSE, error);
}

static gboolean
check_map_keys (GHashTable  *map,
                gboolean     names,
                GError     **error)
{
  const char *field = names ? "ExpressionAttributeNames" : "ExpressionAttributeValues";
  g_autoptr(GList) keys = NULL;

  if (map == NULL)
    return TRUE;
  if (g_hash_table_size (map) == 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: %s is ExpressionAttributeNames or ExpressionAttributeValues, a request field */
                   _("%s must not be empty: leave it out when no expression uses a placeholder"), field);
      return FALSE;
    }
  keys = g_list_sort (g_hash_table_get_keys (map), (GCompareFunc) strcmp);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      const char *key = l->data;

      if (!_dyn_expr_placeholder_valid (key) || key[0] != (names ? '#' : ':'))
        {
          if (names)
            g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                         /* Translators: keep ExpressionAttributeNames, a request field; %s is the placeholder */
                         _("ExpressionAttributeNames has an invalid placeholder %s (a name placeholder is # "
                           "followed by letters, digits or _)"), key);
          else
            g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                         /* Translators: keep ExpressionAttributeValues, a request field; %s is the placeholder */
                         _("ExpressionAttributeValues has an invalid placeholder %s (a value placeholder is : "
                           "followed by letters, digits or _)"), key);
          return FALSE;
        }
      if (strlen (key) > DYN_EXPR_MAX_PLACEHOLDER)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                       /* Translators: the first %s is ExpressionAttributeNames or ExpressionAttributeValues, a
                        * request field; %.20s the start of the placeholder; %d DynamoDB's limit (255) */
                       _("%s: the placeholder %.20s… is longer than %d bytes"), field, key,
                       DYN_EXPR_MAX_PLACEHOLDER);
          return FALSE;
        }
      if (names && ((const char *) g_hash_table_lookup (map, key))[0] == '\0')
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                       /* Translators: keep ExpressionAttributeNames, a request field; %s is the placeholder */
                       _("ExpressionAttributeNames: %s stands for an empty attribute name"), key);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
check_map_used (GHashTable  *used,
                GHashTable  *map,
                gboolean     names,
                GError     **error)
{
  const char *field = names ? "ExpressionAttributeNames" : "ExpressionAttributeValues";
  g_autoptr(GPtrArray) unused = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  if (map == NULL)
    return TRUE;
  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (used, key))
      g_ptr_array_add (unused, key);
  if (unused->len > 0)
    {
      g_autofree char *list = NULL;

      g_ptr_array_sort (unused, compare_strp);
      g_ptr_array_add (unused, NULL);
      list = g_strjoinv (", ", (char **) unused->pdata);
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: the first %s is ExpressionAttributeNames or ExpressionAttributeValues, a
                    * request field; keep it. The second is a list of placeholders (#a, #b) */
                   _("%s has entries no expression uses: %s"), field, list);
      return FALSE;
    }
  return TRUE;
}

gboolean
dyn_expr_check_maps (GHashTable  *used,
                     GHashTable  *names,
                     GHashTable  *values,
                     GError     **error)
{
  if (!check_map_keys (names, TRUE, error) || !check_map_keys (values, FALSE, error))
    return FALSE;
  if (used == NULL)
    return TRUE;
  return check_map_used (used, names, TRUE, error) && check_map_used (used, values, FALSE, error);
}
