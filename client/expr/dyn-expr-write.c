/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr"

/* The writer shared by dyn_expr_node_to_string() and the compiler: an expression
 * tree back to DynamoDB's text, with names and values through callbacks. */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"

/* ------------------------------------------------------------------------ */
/* Literals */

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_b64 (GString *out,
            GBytes  *bytes)
{
  gsize len = 0;
  const guchar *data = g_bytes_get_data (bytes, &len);
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append (out, "b64\"");
  g_string_append (out, b64);
  g_string_append_c (out, '"');
}

static void
append_literal (GString        *out,
                const DynValue *value)
{
  guint n;

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      append_json_string (out, dyn_value_get_string (value));
      break;
    case DYN_VALUE_N:
      g_string_append (out, dyn_value_get_number (value));
      break;
    case DYN_VALUE_B:
      append_b64 (out, dyn_value_get_binary (value));
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (value) ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYN_VALUE_M:
      n = dyn_value_get_length (value);
      g_string_append_c (out, '{');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_json_string (out, dyn_value_map_get_name (value, i));
          g_string_append (out, ": ");
          append_literal (out, dyn_value_map_get_value (value, i));
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_L:
      n = dyn_value_get_length (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_literal (out, dyn_value_list_get (value, i));
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      n = dyn_value_get_length (value);
      g_string_append (out, "<<");
      for (guint i = 0; i < n; i++)
        {
          DynValueType t = dyn_value_get_value_type (value);

          if (i > 0)
            g_string_append (out, ", ");
          if (t == DYN_VALUE_SS)
            append_json_string (out, dyn_value_set_get_string (value, i));
          else if (t == DYN_VALUE_NS)
            g_string_append (out, dyn_value_set_get_string (value, i));
          else
            append_b64 (out, dyn_value_set_get_binary (value, i));
        }
      g_string_append (out, ">>");
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
dyn_expr_value_to_literal (const DynValue *value)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (value != NULL, NULL);
  append_literal (out, value);
  return g_string_free (out, FALSE);
}

static gboolean
name_is_bare_in_text (const char *name)
{
  gsize len = strlen (name);

  if (!(g_ascii_isalpha (name[0]) || name[0] == '_'))
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return !_dyn_expr_is_keyword (name, len);
}

static void
append_text_name (GString    *out,
                  const char *name)
{
  if (name_is_bare_in_text (name))
    {
      g_string_append (out, name);
      return;
    }
  g_string_append_c (out, '`');
  for (const char *p = name; *p; p++)
    {
      if (*p == '`')
        g_string_append_c (out, '`');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '`');
}

/* ------------------------------------------------------------------------ */
/* The writer shared by to_string and the compiler */

enum { LEVEL_OR = 1, LEVEL_AND, LEVEL_NOT, LEVEL_ATOM };

static gboolean write_node (GString *out, DynExprNode *node, const DynExprValueHint *hint,
                            const DynExprWriter *w, gpointer data, GError **error);

static gboolean
write_path (GString             *out,
            const DynExprPath   *path,
            const DynExprWriter *w,
            gpointer             data,
            GError             **error)
{
  for (guint i = 0; i < path->segments->len; i++)
    {
      const DynExprSegment *seg = &g_array_index (path->segments, DynExprSegment, i);

      if (seg->name == NULL)
        {
          g_string_append_printf (out, "[%u]", seg->index);
          continue;
        }
      if (i > 0)
        g_string_append_c (out, '.');
      if (seg->is_placeholder)
        g_string_append (out, seg->name);
      else if (!w->name (out, seg->name, data, error))
        return FALSE;
    }
  return TRUE;
}

static const DynExprPath *
operand_path (DynExprNode *node)
{
  if (node->kind == DYN_EXPR_PATH)
    return node->path;
  if (node->kind == DYN_EXPR_SIZE && node->children->len == 1 &&
      ((DynExprNode *) node->children->pdata[0])->kind == DYN_EXPR_PATH)
    return ((DynExprNode *) node->children->pdata[0])->path;
  return NULL;
}


static int
node_level (DynExprNode *node)
{
  /* A group with one member is written as the member. */
  while ((node->kind == DYN_EXPR_AND || node->kind == DYN_EXPR_OR) && node->children->len == 1)
    node = node->children->pdata[0];
  switch (node->kind)
    {
    case DYN_EXPR_OR: return LEVEL_OR;
    case DYN_EXPR_AND: return LEVEL_AND;
    case DYN_EXPR_NOT: return LEVEL_NOT;
    default: return LEVEL_ATOM;
    }
}

static gboolean
write_child_at (GString             *out,
                DynExprNode         *child,
                int                  min_level,
                const DynExprWriter *w,
                gpointer             data,
                GError             **error)
{
  gboolean parens = node_level (child) < min_level;

  if (parens)
    g_string_append_c (out, '(');
  if (!write_node (out, child, NULL, w, data, error))
    return FALSE;
  if (parens)
    g_string_append_c (out, ')');
  return TRUE;
}

static gboolean
write_function (GString             *out,
                const char          *name,
                DynExprNode         *node,
                const DynExprValueHint *arg_hint,
                const DynExprWriter *w,
                gpointer             data,
                GError             **error)
{
  g_string_append (out, name);
  g_string_append_c (out, '(');
  for (guint i = 0; i < node->children->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      if (!write_node (out, node->children->pdata[i], i > 0 ? arg_hint : NULL, w, data, error))
        return FALSE;
    }
  g_string_append_c (out, ')');
  return TRUE;
}

static gboolean
write_update (GString             *out,
              DynExprNode         *node,
              const DynExprWriter *w,
              gpointer             data,
              GError             **error)
{
  static const struct { DynExprKind kind; const char *keyword; } clauses[] = {
    { DYN_EXPR_SET, "SET" }, { DYN_EXPR_REMOVE, "REMOVE" },
    { DYN_EXPR_ADD, "ADD" }, { DYN_EXPR_DELETE, "DELETE" },
  };
  DynExprKind order[4];
  guint n_order = 0;

  /* Clauses in the order of their first action; each keyword once. */
  for (guint i = 0; i < node->children->len; i++)
    {
      DynExprKind k = ((DynExprNode *) node->children->pdata[i])->kind;
      gboolean seen = FALSE;

      if (k < DYN_EXPR_SET || k > DYN_EXPR_DELETE)
        {
          /* Translators: SET, REMOVE, ADD and DELETE are keywords */
          _dyn_expr_set_error_at (error, node->offset,
                                  _("an update holds only SET, REMOVE, ADD and DELETE actions"));
          return FALSE;
        }
      for (guint j = 0; j < n_order; j++)
        seen |= order[j] == k;
      if (!seen)
        order[n_order++] = k;
    }
  if (n_order == 0)
    {
      _dyn_expr_set_error_at (error, node->offset, _("empty update expression"));
      return FALSE;
    }

  for (guint c = 0; c < n_order; c++)
    {
      gboolean first = TRUE;

      if (c > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, clauses[order[c] - DYN_EXPR_SET].keyword);
      g_string_append_c (out, ' ');
      for (guint i = 0; i < node->children->len; i++)
        {
          DynExprNode *action = node->children->pdata[i];
          DynExprNode *target;
          DynExprValueHint hint = { NULL, NULL, NULL };

          if (action->kind != order[c])
            continue;
          if (!_dyn_expr_check_arity (action, action->kind == DYN_EXPR_REMOVE ? 1 : 2,
                            action->kind == DYN_EXPR_REMOVE ? 1 : 2, error))
            return FALSE;
          target = action->children->pdata[0];
          if (target->kind != DYN_EXPR_PATH)
            {
              _dyn_expr_set_error_at (error, target->offset, _("an update action needs a path on its left"));
              return FALSE;
            }
          if (!first)
            g_string_append (out, ", ");
          first = FALSE;
          if (!write_path (out, target->path, w, data, error))
            return FALSE;
          if (action->kind == DYN_EXPR_REMOVE)
            continue;
          g_string_append (out, action->kind == DYN_EXPR_SET ? " = " : " ");
          hint.path = target->path;
          if (!write_node (out, action->children->pdata[1], &hint, w, data, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
write_node (GString                *out,
            DynExprNode            *node,
            const DynExprValueHint *hint,
            const DynExprWriter    *w,
            gpointer                data,
            GError                **error)
{
  DynExprValueHint h = { NULL, NULL, NULL };
  const char *sep;
  int level;

  switch (node->kind)
    {
    case DYN_EXPR_PATH:
      if (node->path == NULL || node->path->segments->len == 0 ||
          dyn_expr_path_is_index (node->path, 0))
        {
          _dyn_expr_set_error_at (error, node->offset, _("a path must start with an attribute name"));
          return FALSE;
        }
      return write_path (out, node->path, w, data, error);

    case DYN_EXPR_VALUE:
      if (node->value == NULL && node->placeholder == NULL)
        {
          _dyn_expr_set_error_at (error, node->offset, _("a value is missing"));
          return FALSE;
        }
      if (node->value == NULL)
        {
          g_string_append (out, node->placeholder);
          return TRUE;
        }
      return w->value (out, node->value, hint ? hint : &h, data, error);

    case DYN_EXPR_SIZE:
      return _dyn_expr_check_arity (node, 1, 1, error) &&
             write_function (out, "size", node, NULL, w, data, error);

    case DYN_EXPR_IF_NOT_EXISTS:
      return _dyn_expr_check_arity (node, 2, 2, error) &&
             write_function (out, "if_not_exists", node, hint, w, data, error);

    case DYN_EXPR_LIST_APPEND:
      if (!_dyn_expr_check_arity (node, 2, 2, error))
        return FALSE;
      g_string_append (out, "list_append(");
      if (!write_node (out, node->children->pdata[0], hint, w, data, error))
        return FALSE;
      g_string_append (out, ", ");
      if (!write_node (out, node->children->pdata[1], hint, w, data, error))
        return FALSE;
      g_string_append_c (out, ')');
      return TRUE;

    case DYN_EXPR_PLUS:
    case DYN_EXPR_MINUS:
      if (!_dyn_expr_check_arity (node, 2, 2, error))
        return FALSE;
      if (!write_node (out, node->children->pdata[0], hint, w, data, error))
        return FALSE;
      g_string_append (out, node->kind == DYN_EXPR_PLUS ? " + " : " - ");
      return write_node (out, node->children->pdata[1], hint, w, data, error);

    case DYN_EXPR_COMPARE:
      if (!_dyn_expr_check_arity (node, 2, 2, error))
        return FALSE;
      h.path = operand_path (node->children->pdata[0]);
      if (h.path == NULL)
        h.path = operand_path (node->children->pdata[1]);
      if (!write_node (out, node->children->pdata[0], &h, w, data, error))
        return FALSE;
      g_string_append_printf (out, " %s ", dyn_expr_compare_op_to_string (node->op));
      return write_node (out, node->children->pdata[1], &h, w, data, error);

    case DYN_EXPR_BETWEEN:
      if (!_dyn_expr_check_arity (node, 3, 3, error))
        return FALSE;
      h.path = operand_path (node->children->pdata[0]);
      if (!write_node (out, node->children->pdata[0], &h, w, data, error))
        return FALSE;
      g_string_append (out, " BETWEEN ");
      h.suffix = "lo";
      if (!write_node (out, node->children->pdata[1], &h, w, data, error))
        return FALSE;
      g_string_append (out, " AND ");
      h.suffix = "hi";
      return write_node (out, node->children->pdata[2], &h, w, data, error);

    case DYN_EXPR_IN:
      if (!_dyn_expr_check_arity (node, 2, G_MAXUINT, error))
        return FALSE;
      h.path = operand_path (node->children->pdata[0]);
      if (!write_node (out, node->children->pdata[0], &h, w, data, error))
        return FALSE;
      g_string_append (out, " IN (");
      for (guint i = 1; i < node->children->len; i++)
        {
          if (i > 1)
            g_string_append (out, ", ");
          if (!write_node (out, node->children->pdata[i], &h, w, data, error))
            return FALSE;
        }
      g_string_append_c (out, ')');
      return TRUE;

    case DYN_EXPR_ATTRIBUTE_EXISTS:
      return _dyn_expr_check_arity (node, 1, 1, error) &&
             write_function (out, "attribute_exists", node, NULL, w, data, error);
    case DYN_EXPR_ATTRIBUTE_NOT_EXISTS:
      return _dyn_expr_check_arity (node, 1, 1, error) &&
             write_function (out, "attribute_not_exists", node, NULL, w, data, error);
    case DYN_EXPR_ATTRIBUTE_TYPE:
      h.base = "t";
      return _dyn_expr_check_arity (node, 2, 2, error) &&
             write_function (out, "attribute_type", node, &h, w, data, error);
    case DYN_EXPR_BEGINS_WITH:
      h.base = "p";
      return _dyn_expr_check_arity (node, 2, 2, error) &&
             write_function (out, "begins_with", node, &h, w, data, error);
    case DYN_EXPR_CONTAINS:
      if (!_dyn_expr_check_arity (node, 2, 2, error))
        return FALSE;
      h.path = operand_path (node->children->pdata[0]);
      return write_function (out, "contains", node, &h, w, data, error);

    case DYN_EXPR_AND:
    case DYN_EXPR_OR:
      if (node->children->len == 0)
        {
          /* Translators: %s is AND or OR, a keyword */
          _dyn_expr_set_error_at (error, node->offset, _("empty %s group"),
                                  node->kind == DYN_EXPR_AND ? "AND" : "OR");
          return FALSE;
        }
      level = node->kind == DYN_EXPR_AND ? LEVEL_AND : LEVEL_OR;
      sep = node->kind == DYN_EXPR_AND ? " AND " : " OR ";
      for (guint i = 0; i < node->children->len; i++)
        {
          if (i > 0)
            g_string_append (out, sep);
          if (!write_child_at (out, node->children->pdata[i], level, w, data, error))
            return FALSE;
        }
      return TRUE;

    case DYN_EXPR_NOT:
      if (!_dyn_expr_check_arity (node, 1, 1, error))
        return FALSE;
      g_string_append (out, "NOT ");
      return write_child_at (out, node->children->pdata[0], LEVEL_NOT, w, data, error);

    case DYN_EXPR_UPDATE:
      return write_update (out, node, w, data, error);

    case DYN_EXPR_SET:
    case DYN_EXPR_REMOVE:
    case DYN_EXPR_ADD:
    case DYN_EXPR_DELETE:
      _dyn_expr_set_error_at (error, node->offset, _("an update action outside an update"));
      return FALSE;

    case DYN_EXPR_PROJECTION:
      if (node->children->len == 0)
        {
          _dyn_expr_set_error_at (error, node->offset, _("empty projection"));
          return FALSE;
        }
      for (guint i = 0; i < node->children->len; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (!write_node (out, node->children->pdata[i], NULL, w, data, error))
            return FALSE;
        }
      return TRUE;

    default:
      _dyn_expr_set_error_at (error, node->offset, _("unknown expression node"));
      return FALSE;
    }
}

gboolean
_dyn_expr_write (GString             *out,
                 DynExprNode         *node,
                 DynExprRole          role,
                 const DynExprWriter *writer,
                 gpointer             user_data,
                 GError             **error)
{
  return write_node (out, node, NULL, writer, user_data, error);
}

static gboolean
text_name_cb (GString     *out,
              const char  *name,
              gpointer     user_data,
              GError     **error)
{
  append_text_name (out, name);
  return TRUE;
}

static gboolean
text_value_cb (GString                *out,
               DynValue               *value,
               const DynExprValueHint *hint,
               gpointer                user_data,
               GError                **error)
{
  append_literal (out, value);
  return TRUE;
}

/* Writes names and values as text: `name` when it needs quoting, inline literals. */
static const DynExprWriter text_writer = { text_name_cb, text_value_cb };

char *
dyn_expr_path_to_string (const DynExprPath *self)
{
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_string_new (NULL);
  /* The text writer never fails. */
  write_path (out, self, &text_writer, NULL, NULL);
  return g_string_free (out, FALSE);
}

char *
dyn_expr_node_to_string (DynExprNode *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (!_dyn_expr_write (out, self, 0, &text_writer, NULL, &error))
    {
      g_debug ("cannot write expression: %s", error->message);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

