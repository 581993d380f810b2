/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"

G_DEFINE_BOXED_TYPE (DynExprPath, dyn_expr_path, dyn_expr_path_copy, dyn_expr_path_free)
G_DEFINE_BOXED_TYPE (DynExprNode, dyn_expr_node, dyn_expr_node_ref, dyn_expr_node_unref)

/* ------------------------------------------------------------------------ */
/* Small helpers */

void
_dyn_expr_set_error_at (GError     **error,
                        glong        offset,
                        const char  *format,
                        ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  if (offset >= 0)
    g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "%s at character %ld", msg, offset + 1);
  else
    g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION, msg);
}

gboolean
_dyn_expr_is_plain_name (const char *name)
{
  if (!g_ascii_isalpha (name[0]))
    return FALSE;
  for (const char *p = name + 1; *p; p++)
    if (!g_ascii_isalnum (*p))
      return FALSE;
  return TRUE;
}

gboolean
_dyn_expr_is_keyword (const char *word,
                      gsize       len)
{
  static const char * const keywords[] = {
    "AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD", "DELETE",
  };

  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (strlen (keywords[i]) == len && g_ascii_strncasecmp (word, keywords[i], len) == 0)
      return TRUE;
  /* Literals are case-sensitive. */
  if ((len == 4 && strncmp (word, "true", 4) == 0) ||
      (len == 5 && strncmp (word, "false", 5) == 0) ||
      (len == 4 && strncmp (word, "null", 4) == 0))
    return TRUE;
  return FALSE;
}

gboolean
_dyn_expr_role_is_condition (DynExprRole role)
{
  return role == DYN_EXPR_ROLE_KEY_CONDITION || role == DYN_EXPR_ROLE_FILTER ||
         role == DYN_EXPR_ROLE_CONDITION;
}

gboolean
_dyn_expr_placeholder_valid (const char *token)
{
  if ((token[0] != '#' && token[0] != ':') || token[1] == '\0')
    return FALSE;
  for (const char *p = token + 1; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return strlen (token) <= DYN_EXPR_MAX_PLACEHOLDER;
}

const char *
dyn_expr_role_get_field (DynExprRole role)
{
  static const char * const fields[] = {
    "KeyConditionExpression", "FilterExpression", "ConditionExpression",
    "UpdateExpression", "ProjectionExpression",
  };

  g_return_val_if_fail ((guint) role < G_N_ELEMENTS (fields), NULL);
  return fields[role];
}

const char *
dyn_expr_compare_op_to_string (DynExprCompareOp op)
{
  static const char * const ops[] = { "=", "<>", "<", "<=", ">", ">=" };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (ops), NULL);
  return ops[op];
}

/* ------------------------------------------------------------------------ */
/* Paths */

static void
segment_clear (gpointer data)
{
  DynExprSegment *seg = data;

  g_clear_pointer (&seg->name, g_free);
}

static DynExprPath *
path_new_empty (void)
{
  DynExprPath *self = g_new0 (DynExprPath, 1);

  self->segments = g_array_new (FALSE, TRUE, sizeof (DynExprSegment));
  g_array_set_clear_func (self->segments, segment_clear);
  return self;
}

DynExprPath *
dyn_expr_path_new (const char *name)
{
  DynExprPath *self = path_new_empty ();

  if (name != NULL)
    dyn_expr_path_append_name (self, name);
  return self;
}

DynExprPath *
dyn_expr_path_copy (const DynExprPath *self)
{
  DynExprPath *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = path_new_empty ();
  for (guint i = 0; i < self->segments->len; i++)
    {
      DynExprSegment seg = g_array_index (self->segments, DynExprSegment, i);

      seg.name = g_strdup (seg.name);
      g_array_append_val (copy->segments, seg);
    }
  return copy;
}

void
dyn_expr_path_free (DynExprPath *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->segments);
  g_free (self);
}

void
dyn_expr_path_append_name (DynExprPath *self,
                           const char  *name)
{
  DynExprSegment seg = { g_strdup (name), 0, FALSE };

  g_return_if_fail (self != NULL && name != NULL);
  g_array_append_val (self->segments, seg);
}

void
dyn_expr_path_append_placeholder (DynExprPath *self,
                                  const char  *placeholder)
{
  DynExprSegment seg = { g_strdup (placeholder), 0, TRUE };

  g_return_if_fail (self != NULL && placeholder != NULL && placeholder[0] == '#');
  g_array_append_val (self->segments, seg);
}

void
dyn_expr_path_append_index (DynExprPath *self,
                            guint        index)
{
  DynExprSegment seg = { NULL, index, FALSE };

  g_return_if_fail (self != NULL);
  g_array_append_val (self->segments, seg);
}

guint
dyn_expr_path_get_length (const DynExprPath *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->segments->len;
}

const char *
dyn_expr_path_get_name (const DynExprPath *self,
                        guint              i,
                        gboolean          *is_placeholder)
{
  const DynExprSegment *seg;

  g_return_val_if_fail (self != NULL && i < self->segments->len, NULL);
  seg = &g_array_index (self->segments, DynExprSegment, i);
  if (is_placeholder != NULL)
    *is_placeholder = seg->is_placeholder;
  return seg->name;
}

gboolean
dyn_expr_path_is_index (const DynExprPath *self,
                        guint              i)
{
  g_return_val_if_fail (self != NULL && i < self->segments->len, FALSE);
  return g_array_index (self->segments, DynExprSegment, i).name == NULL;
}

guint
dyn_expr_path_get_index (const DynExprPath *self,
                         guint              i)
{
  g_return_val_if_fail (self != NULL && i < self->segments->len, 0);
  return g_array_index (self->segments, DynExprSegment, i).index;
}

static gboolean
segment_equal (const DynExprSegment *a,
               const DynExprSegment *b)
{
  if ((a->name == NULL) != (b->name == NULL))
    return FALSE;
  if (a->name == NULL)
    return a->index == b->index;
  return a->is_placeholder == b->is_placeholder && strcmp (a->name, b->name) == 0;
}

gboolean
dyn_expr_path_equal (const DynExprPath *a,
                     const DynExprPath *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->segments->len != b->segments->len)
    return FALSE;
  for (guint i = 0; i < a->segments->len; i++)
    if (!segment_equal (&g_array_index (a->segments, DynExprSegment, i),
                        &g_array_index (b->segments, DynExprSegment, i)))
      return FALSE;
  return TRUE;
}

const char *
dyn_expr_path_get_top_name (const DynExprPath *self)
{
  const DynExprSegment *seg;

  g_return_val_if_fail (self != NULL, NULL);
  if (self->segments->len != 1)
    return NULL;
  seg = &g_array_index (self->segments, DynExprSegment, 0);
  return seg->is_placeholder ? NULL : seg->name;
}

/* The first segment's resolved name (for key-attribute checks), or NULL. */
static const char *
path_first_name (const DynExprPath *self)
{
  const DynExprSegment *seg;

  if (self->segments->len == 0)
    return NULL;
  seg = &g_array_index (self->segments, DynExprSegment, 0);
  return seg->is_placeholder ? NULL : seg->name;
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

DynExprPath *
dyn_expr_path_parse (const char  *text,
                     GError     **error)
{
  g_autoptr(DynExprNode) node = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  node = dyn_expr_parse (text, DYN_EXPR_ROLE_PROJECTION, NULL, NULL, NULL, error);
  if (node == NULL)
    return NULL;
  if (node->children->len != 1)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "expected a single path");
      return NULL;
    }
  return dyn_expr_path_copy (((DynExprNode *) node->children->pdata[0])->path);
}

/* ------------------------------------------------------------------------ */
/* Nodes */

DynExprNode *
dyn_expr_node_new (DynExprKind kind)
{
  DynExprNode *self = g_new0 (DynExprNode, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->children = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_expr_node_unref);
  self->offset = -1;
  return self;
}

DynExprNode *
dyn_expr_node_ref (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_expr_node_unref (DynExprNode *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  dyn_expr_path_free (self->path);
  g_clear_pointer (&self->value, dyn_value_unref);
  g_free (self->placeholder);
  g_ptr_array_unref (self->children);
  g_free (self);
}

DynExprNode *
dyn_expr_node_copy (DynExprNode *self)
{
  DynExprNode *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = dyn_expr_node_new (self->kind);
  copy->op = self->op;
  copy->offset = self->offset;
  if (self->path != NULL)
    copy->path = dyn_expr_path_copy (self->path);
  if (self->value != NULL)
    copy->value = dyn_value_ref (self->value);
  copy->placeholder = g_strdup (self->placeholder);
  for (guint i = 0; i < self->children->len; i++)
    g_ptr_array_add (copy->children, dyn_expr_node_copy (self->children->pdata[i]));
  return copy;
}

DynExprNode *
dyn_expr_node_new_path (DynExprPath *path)
{
  DynExprNode *self;

  g_return_val_if_fail (path != NULL, NULL);
  self = dyn_expr_node_new (DYN_EXPR_PATH);
  self->path = path;
  return self;
}

DynExprNode *
dyn_expr_node_new_name (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  return dyn_expr_node_new_path (dyn_expr_path_new (name));
}

DynExprNode *
dyn_expr_node_new_value (DynValue *value)
{
  DynExprNode *self;

  g_return_val_if_fail (value != NULL, NULL);
  self = dyn_expr_node_new (DYN_EXPR_VALUE);
  self->value = dyn_value_ref (value);
  return self;
}

DynExprNode *
dyn_expr_node_new_placeholder (const char *placeholder)
{
  DynExprNode *self;

  g_return_val_if_fail (placeholder != NULL && placeholder[0] == ':', NULL);
  self = dyn_expr_node_new (DYN_EXPR_VALUE);
  self->placeholder = g_strdup (placeholder);
  return self;
}

DynExprNode *
dyn_expr_node_new_unary (DynExprKind  kind,
                         DynExprNode *a)
{
  DynExprNode *self = dyn_expr_node_new (kind);

  g_ptr_array_add (self->children, a);
  return self;
}

DynExprNode *
dyn_expr_node_new_binary (DynExprKind  kind,
                          DynExprNode *a,
                          DynExprNode *b)
{
  DynExprNode *self = dyn_expr_node_new (kind);

  g_ptr_array_add (self->children, a);
  g_ptr_array_add (self->children, b);
  return self;
}

DynExprNode *
dyn_expr_node_new_compare (DynExprCompareOp  op,
                           DynExprNode      *a,
                           DynExprNode      *b)
{
  DynExprNode *self = dyn_expr_node_new_binary (DYN_EXPR_COMPARE, a, b);

  self->op = op;
  return self;
}

DynExprNode *
dyn_expr_node_new_between (DynExprNode *a,
                           DynExprNode *lo,
                           DynExprNode *hi)
{
  DynExprNode *self = dyn_expr_node_new_binary (DYN_EXPR_BETWEEN, a, lo);

  g_ptr_array_add (self->children, hi);
  return self;
}

static const struct {
  DynExprRowOp   row;
  DynExprKind    kind;
  gint           op;        /* compare op, or -1 */
  gboolean       size;
  gint           n_values;  /* -1: one or more */
} row_ops[] = {
  { DYN_EXPR_ROW_EQ, DYN_EXPR_COMPARE, DYN_EXPR_OP_EQ, FALSE, 1 },
  { DYN_EXPR_ROW_NE, DYN_EXPR_COMPARE, DYN_EXPR_OP_NE, FALSE, 1 },
  { DYN_EXPR_ROW_LT, DYN_EXPR_COMPARE, DYN_EXPR_OP_LT, FALSE, 1 },
  { DYN_EXPR_ROW_LE, DYN_EXPR_COMPARE, DYN_EXPR_OP_LE, FALSE, 1 },
  { DYN_EXPR_ROW_GT, DYN_EXPR_COMPARE, DYN_EXPR_OP_GT, FALSE, 1 },
  { DYN_EXPR_ROW_GE, DYN_EXPR_COMPARE, DYN_EXPR_OP_GE, FALSE, 1 },
  { DYN_EXPR_ROW_BETWEEN, DYN_EXPR_BETWEEN, -1, FALSE, 2 },
  { DYN_EXPR_ROW_IN, DYN_EXPR_IN, -1, FALSE, -1 },
  { DYN_EXPR_ROW_BEGINS_WITH, DYN_EXPR_BEGINS_WITH, -1, FALSE, 1 },
  { DYN_EXPR_ROW_CONTAINS, DYN_EXPR_CONTAINS, -1, FALSE, 1 },
  { DYN_EXPR_ROW_EXISTS, DYN_EXPR_ATTRIBUTE_EXISTS, -1, FALSE, 0 },
  { DYN_EXPR_ROW_NOT_EXISTS, DYN_EXPR_ATTRIBUTE_NOT_EXISTS, -1, FALSE, 0 },
  { DYN_EXPR_ROW_TYPE, DYN_EXPR_ATTRIBUTE_TYPE, -1, FALSE, 1 },
  { DYN_EXPR_ROW_SIZE_EQ, DYN_EXPR_COMPARE, DYN_EXPR_OP_EQ, TRUE, 1 },
  { DYN_EXPR_ROW_SIZE_NE, DYN_EXPR_COMPARE, DYN_EXPR_OP_NE, TRUE, 1 },
  { DYN_EXPR_ROW_SIZE_LT, DYN_EXPR_COMPARE, DYN_EXPR_OP_LT, TRUE, 1 },
  { DYN_EXPR_ROW_SIZE_LE, DYN_EXPR_COMPARE, DYN_EXPR_OP_LE, TRUE, 1 },
  { DYN_EXPR_ROW_SIZE_GT, DYN_EXPR_COMPARE, DYN_EXPR_OP_GT, TRUE, 1 },
  { DYN_EXPR_ROW_SIZE_GE, DYN_EXPR_COMPARE, DYN_EXPR_OP_GE, TRUE, 1 },
};

int
dyn_expr_row_op_get_n_values (DynExprRowOp op)
{
  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (row_ops), 0);
  return row_ops[op].n_values;
}

const char *
dyn_expr_row_op_to_string (DynExprRowOp op)
{
  static const char * const names[] = {
    "=", "<>", "<", "<=", ">", ">=", "BETWEEN", "IN", "begins_with", "contains",
    "attribute_exists", "attribute_not_exists", "attribute_type",
    "size =", "size <>", "size <", "size <=", "size >", "size >=",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (row_ops));
  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

DynExprNode *
dyn_expr_node_new_row (DynExprPath      *path,
                       DynExprRowOp      op,
                       DynValue * const *values,
                       guint             n_values,
                       GError          **error)
{
  g_autoptr(DynExprPath) owned = path;
  DynExprNode *self;
  DynExprNode *lhs;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (row_ops), NULL);
  g_return_val_if_fail (n_values == 0 || values != NULL, NULL);

  if (row_ops[op].n_values >= 0 ? n_values != (guint) row_ops[op].n_values : n_values == 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   "this operator needs %s%d value(s), %u given",
                   row_ops[op].n_values < 0 ? "at least " : "",
                   MAX (row_ops[op].n_values, 1), n_values);
      return NULL;
    }

  self = dyn_expr_node_new (row_ops[op].kind);
  if (row_ops[op].op >= 0)
    self->op = row_ops[op].op;
  lhs = dyn_expr_node_new_path (g_steal_pointer (&owned));
  if (row_ops[op].size)
    lhs = dyn_expr_node_new_unary (DYN_EXPR_SIZE, lhs);
  g_ptr_array_add (self->children, lhs);
  for (guint i = 0; i < n_values; i++)
    g_ptr_array_add (self->children, dyn_expr_node_new_value (values[i]));
  return self;
}

gboolean
dyn_expr_node_get_row (DynExprNode        *self,
                       const DynExprPath **path,
                       DynExprRowOp       *op,
                       GPtrArray         **values)
{
  DynExprNode *lhs;
  gboolean size = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->children->len == 0)
    return FALSE;
  lhs = self->children->pdata[0];
  if (lhs->kind == DYN_EXPR_SIZE && self->kind == DYN_EXPR_COMPARE)
    {
      size = TRUE;
      lhs = lhs->children->len == 1 ? lhs->children->pdata[0] : NULL;
    }
  if (lhs == NULL || lhs->kind != DYN_EXPR_PATH)
    return FALSE;
  for (guint i = 1; i < self->children->len; i++)
    {
      DynExprNode *v = self->children->pdata[i];

      if (v->kind != DYN_EXPR_VALUE || v->value == NULL)
        return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (row_ops); i++)
    {
      if (row_ops[i].kind != self->kind || row_ops[i].size != size)
        continue;
      if (row_ops[i].op >= 0 && (DynExprCompareOp) row_ops[i].op != self->op)
        continue;
      if (row_ops[i].n_values >= 0 ? self->children->len != (guint) row_ops[i].n_values + 1
                                   : self->children->len < 2)
        return FALSE;
      if (path != NULL)
        *path = lhs->path;
      if (op != NULL)
        *op = row_ops[i].row;
      if (values != NULL)
        {
          *values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
          for (guint j = 1; j < self->children->len; j++)
            g_ptr_array_add (*values, dyn_value_ref (((DynExprNode *) self->children->pdata[j])->value));
        }
      return TRUE;
    }
  return FALSE;
}

DynExprKind
dyn_expr_node_get_kind (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->kind;
}

gboolean
dyn_expr_node_is_condition (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->kind >= DYN_EXPR_COMPARE && self->kind <= DYN_EXPR_NOT;
}

gboolean
dyn_expr_node_is_operand (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->kind <= DYN_EXPR_MINUS;
}

DynExprCompareOp
dyn_expr_node_get_op (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->op;
}

void
dyn_expr_node_set_op (DynExprNode      *self,
                      DynExprCompareOp  op)
{
  g_return_if_fail (self != NULL);
  self->op = op;
}

const DynExprPath *
dyn_expr_node_get_path (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

void
dyn_expr_node_set_path (DynExprNode *self,
                        DynExprPath *path)
{
  g_return_if_fail (self != NULL && self->kind == DYN_EXPR_PATH && path != NULL);
  dyn_expr_path_free (self->path);
  self->path = path;
}

DynValue *
dyn_expr_node_get_value (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->value;
}

const char *
dyn_expr_node_get_placeholder (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->placeholder;
}

void
dyn_expr_node_set_value (DynExprNode *self,
                         DynValue    *value)
{
  g_return_if_fail (self != NULL && self->kind == DYN_EXPR_VALUE && value != NULL);
  dyn_value_ref (value);
  g_clear_pointer (&self->value, dyn_value_unref);
  g_clear_pointer (&self->placeholder, g_free);
  self->value = value;
}

guint
dyn_expr_node_get_n_children (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->children->len;
}

DynExprNode *
dyn_expr_node_get_child (DynExprNode *self,
                         guint        i)
{
  g_return_val_if_fail (self != NULL && i < self->children->len, NULL);
  return self->children->pdata[i];
}

void
dyn_expr_node_add_child (DynExprNode *self,
                         DynExprNode *child)
{
  g_return_if_fail (self != NULL && child != NULL && child != self);
  g_ptr_array_add (self->children, child);
}

void
dyn_expr_node_insert_child (DynExprNode *self,
                            guint        i,
                            DynExprNode *child)
{
  g_return_if_fail (self != NULL && child != NULL && i <= self->children->len);
  g_ptr_array_insert (self->children, i, child);
}

void
dyn_expr_node_replace_child (DynExprNode *self,
                             guint        i,
                             DynExprNode *child)
{
  g_return_if_fail (self != NULL && child != NULL && i < self->children->len);
  dyn_expr_node_unref (self->children->pdata[i]);
  self->children->pdata[i] = child;
}

void
dyn_expr_node_remove_child (DynExprNode *self,
                            guint        i)
{
  g_return_if_fail (self != NULL && i < self->children->len);
  g_ptr_array_remove_index (self->children, i);
}

glong
dyn_expr_node_get_offset (DynExprNode *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->offset;
}

gboolean
dyn_expr_node_equal (DynExprNode *a,
                     DynExprNode *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->kind != b->kind || a->children->len != b->children->len)
    return FALSE;
  if (a->kind == DYN_EXPR_COMPARE && a->op != b->op)
    return FALSE;
  if ((a->path == NULL) != (b->path == NULL) ||
      (a->path != NULL && !dyn_expr_path_equal (a->path, b->path)))
    return FALSE;
  if ((a->value == NULL) != (b->value == NULL) ||
      (a->value != NULL && !dyn_value_equal (a->value, b->value)))
    return FALSE;
  if (g_strcmp0 (a->placeholder, b->placeholder) != 0)
    return FALSE;
  for (guint i = 0; i < a->children->len; i++)
    if (!dyn_expr_node_equal (a->children->pdata[i], b->children->pdata[i]))
      return FALSE;
  return TRUE;
}

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

static gboolean
check_arity (DynExprNode  *node,
             guint         min,
             guint         max,
             GError      **error)
{
  if (node->children->len < min || node->children->len > max)
    {
      _dyn_expr_set_error_at (error, node->offset, "malformed expression node (%u operands)",
                              node->children->len);
      return FALSE;
    }
  return TRUE;
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
          _dyn_expr_set_error_at (error, node->offset, "an update holds only SET, REMOVE, ADD and DELETE actions");
          return FALSE;
        }
      for (guint j = 0; j < n_order; j++)
        seen |= order[j] == k;
      if (!seen)
        order[n_order++] = k;
    }
  if (n_order == 0)
    {
      _dyn_expr_set_error_at (error, node->offset, "empty update expression");
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
          if (!check_arity (action, action->kind == DYN_EXPR_REMOVE ? 1 : 2,
                            action->kind == DYN_EXPR_REMOVE ? 1 : 2, error))
            return FALSE;
          target = action->children->pdata[0];
          if (target->kind != DYN_EXPR_PATH)
            {
              _dyn_expr_set_error_at (error, target->offset, "an update action needs a path on its left");
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
          _dyn_expr_set_error_at (error, node->offset, "a path must start with an attribute name");
          return FALSE;
        }
      return write_path (out, node->path, w, data, error);

    case DYN_EXPR_VALUE:
      if (node->value == NULL && node->placeholder == NULL)
        {
          _dyn_expr_set_error_at (error, node->offset, "a value is missing");
          return FALSE;
        }
      if (node->value == NULL)
        {
          g_string_append (out, node->placeholder);
          return TRUE;
        }
      return w->value (out, node->value, hint ? hint : &h, data, error);

    case DYN_EXPR_SIZE:
      return check_arity (node, 1, 1, error) &&
             write_function (out, "size", node, NULL, w, data, error);

    case DYN_EXPR_IF_NOT_EXISTS:
      return check_arity (node, 2, 2, error) &&
             write_function (out, "if_not_exists", node, hint, w, data, error);

    case DYN_EXPR_LIST_APPEND:
      if (!check_arity (node, 2, 2, error))
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
      if (!check_arity (node, 2, 2, error))
        return FALSE;
      if (!write_node (out, node->children->pdata[0], hint, w, data, error))
        return FALSE;
      g_string_append (out, node->kind == DYN_EXPR_PLUS ? " + " : " - ");
      return write_node (out, node->children->pdata[1], hint, w, data, error);

    case DYN_EXPR_COMPARE:
      if (!check_arity (node, 2, 2, error))
        return FALSE;
      h.path = operand_path (node->children->pdata[0]);
      if (h.path == NULL)
        h.path = operand_path (node->children->pdata[1]);
      if (!write_node (out, node->children->pdata[0], &h, w, data, error))
        return FALSE;
      g_string_append_printf (out, " %s ", dyn_expr_compare_op_to_string (node->op));
      return write_node (out, node->children->pdata[1], &h, w, data, error);

    case DYN_EXPR_BETWEEN:
      if (!check_arity (node, 3, 3, error))
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
      if (!check_arity (node, 2, G_MAXUINT, error))
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
      return check_arity (node, 1, 1, error) &&
             write_function (out, "attribute_exists", node, NULL, w, data, error);
    case DYN_EXPR_ATTRIBUTE_NOT_EXISTS:
      return check_arity (node, 1, 1, error) &&
             write_function (out, "attribute_not_exists", node, NULL, w, data, error);
    case DYN_EXPR_ATTRIBUTE_TYPE:
      h.base = "t";
      return check_arity (node, 2, 2, error) &&
             write_function (out, "attribute_type", node, &h, w, data, error);
    case DYN_EXPR_BEGINS_WITH:
      h.base = "p";
      return check_arity (node, 2, 2, error) &&
             write_function (out, "begins_with", node, &h, w, data, error);
    case DYN_EXPR_CONTAINS:
      if (!check_arity (node, 2, 2, error))
        return FALSE;
      h.path = operand_path (node->children->pdata[0]);
      return write_function (out, "contains", node, &h, w, data, error);

    case DYN_EXPR_AND:
    case DYN_EXPR_OR:
      if (node->children->len == 0)
        {
          _dyn_expr_set_error_at (error, node->offset, "empty %s group",
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
      if (!check_arity (node, 1, 1, error))
        return FALSE;
      g_string_append (out, "NOT ");
      return write_child_at (out, node->children->pdata[0], LEVEL_NOT, w, data, error);

    case DYN_EXPR_UPDATE:
      return write_update (out, node, w, data, error);

    case DYN_EXPR_SET:
    case DYN_EXPR_REMOVE:
    case DYN_EXPR_ADD:
    case DYN_EXPR_DELETE:
      _dyn_expr_set_error_at (error, node->offset, "an update action outside an update");
      return FALSE;

    case DYN_EXPR_PROJECTION:
      if (node->children->len == 0)
        {
          _dyn_expr_set_error_at (error, node->offset, "empty projection");
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
      _dyn_expr_set_error_at (error, node->offset, "unknown expression node");
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

/* ------------------------------------------------------------------------ */
/* Rules */

typedef struct {
  DynExprRole          role;
  const DynKeySchema  *keys;
  guint                update_ops;
} Checker;

static gboolean
is_key_name (const DynKeySchema *keys,
             const char         *name)
{
  if (keys == NULL || name == NULL)
    return FALSE;
  return g_strcmp0 (keys->partition_key, name) == 0 || g_strcmp0 (keys->sort_key, name) == 0;
}

static gboolean
check_path (Checker      *c,
            DynExprNode  *node,
            GError      **error)
{
  if (node->kind != DYN_EXPR_PATH)
    {
      _dyn_expr_set_error_at (error, node->offset, "expected an attribute path");
      return FALSE;
    }
  if (node->path == NULL || node->path->segments->len == 0 || dyn_expr_path_is_index (node->path, 0))
    {
      _dyn_expr_set_error_at (error, node->offset, "a path must start with an attribute name");
      return FALSE;
    }
  if (node->path->segments->len - 1 > DYN_EXPR_MAX_PATH_DEPTH)
    {
      _dyn_expr_set_error_at (error, node->offset,
                              "the document path is nested %u levels deep; the limit is %d",
                              node->path->segments->len - 1, DYN_EXPR_MAX_PATH_DEPTH);
      return FALSE;
    }
  for (guint i = 0; i < node->path->segments->len; i++)
    {
      const char *name = dyn_expr_path_get_name (node->path, i, NULL);

      if (name != NULL && name[0] == '\0')
        {
          _dyn_expr_set_error_at (error, node->offset, "an attribute name cannot be empty");
          return FALSE;
        }
    }
  if (c->role == DYN_EXPR_ROLE_FILTER && is_key_name (c->keys, path_first_name (node->path)))
    {
      _dyn_expr_set_error_at (error, node->offset,
                              "a Query's filter cannot use the key attribute %s; put it in the key condition",
                              path_first_name (node->path));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_value (DynExprNode  *node,
             GError      **error)
{
  if (node->kind != DYN_EXPR_VALUE)
    {
      _dyn_expr_set_error_at (error, node->offset, "expected a value");
      return FALSE;
    }
  if (node->value == NULL && node->placeholder == NULL)
    {
      _dyn_expr_set_error_at (error, node->offset, "a value is missing");
      return FALSE;
    }
  return TRUE;
}

/* Condition operands: path, value, size(path). */
static gboolean
check_cond_operand (Checker      *c,
                    DynExprNode  *node,
                    GError      **error)
{
  switch (node->kind)
    {
    case DYN_EXPR_PATH:
      return check_path (c, node, error);
    case DYN_EXPR_VALUE:
      return check_value (node, error);
    case DYN_EXPR_SIZE:
      return check_arity (node, 1, 1, error) && check_path (c, node->children->pdata[0], error);
    default:
      _dyn_expr_set_error_at (error, node->offset,
                              "a condition compares attribute paths, values and size(path)");
      return FALSE;
    }
}

static gboolean
check_condition (Checker      *c,
                 DynExprNode  *node,
                 guint         depth,
                 GError      **error)
{
  if (depth > DYN_EXPR_MAX_NESTING)
    {
      _dyn_expr_set_error_at (error, node->offset, "the expression is nested too deeply");
      return FALSE;
    }

  switch (node->kind)
    {
    case DYN_EXPR_COMPARE:
      if (!check_arity (node, 2, 2, error))
        return FALSE;
      if ((guint) node->op > DYN_EXPR_OP_GE)
        {
          _dyn_expr_set_error_at (error, node->offset, "unknown comparison operator");
          return FALSE;
        }
      return check_cond_operand (c, node->children->pdata[0], error) &&
             check_cond_operand (c, node->children->pdata[1], error);

    case DYN_EXPR_BETWEEN:
      if (!check_arity (node, 3, 3, error))
        return FALSE;
      for (guint i = 0; i < 3; i++)
        if (!check_cond_operand (c, node->children->pdata[i], error))
          return FALSE;
      return TRUE;

    case DYN_EXPR_IN:
      if (node->children->len < 2)
        {
          _dyn_expr_set_error_at (error, node->offset, "IN needs at least one value");
          return FALSE;
        }
      if (node->children->len - 1 > DYN_EXPR_MAX_IN_OPERANDS)
        {
          _dyn_expr_set_error_at (error, node->offset, "IN has %u operands; the limit is %d",
                                  node->children->len - 1, DYN_EXPR_MAX_IN_OPERANDS);
          return FALSE;
        }
      for (guint i = 0; i < node->children->len; i++)
        if (!check_cond_operand (c, node->children->pdata[i], error))
          return FALSE;
      return TRUE;

    case DYN_EXPR_ATTRIBUTE_EXISTS:
    case DYN_EXPR_ATTRIBUTE_NOT_EXISTS:
      return check_arity (node, 1, 1, error) && check_path (c, node->children->pdata[0], error);

    case DYN_EXPR_ATTRIBUTE_TYPE:
      {
        DynExprNode *t;

        if (!check_arity (node, 2, 2, error) || !check_path (c, node->children->pdata[0], error))
          return FALSE;
        t = node->children->pdata[1];
        if (t->kind != DYN_EXPR_VALUE || !check_value (t, error))
          {
            if (t->kind != DYN_EXPR_VALUE)
              _dyn_expr_set_error_at (error, t->offset, "attribute_type's type must be a value");
            return FALSE;
          }
        if (t->value != NULL)
          {
            DynValueType type;

            if (dyn_value_get_value_type (t->value) != DYN_VALUE_S ||
                !dyn_value_type_from_string (dyn_value_get_string (t->value), &type))
              {
                _dyn_expr_set_error_at (error, t->offset,
                                        "attribute_type's type must be one of S, SS, N, NS, B, BS, BOOL, NULL, L, M");
                return FALSE;
              }
          }
        return TRUE;
      }

    case DYN_EXPR_BEGINS_WITH:
    case DYN_EXPR_CONTAINS:
      if (!check_arity (node, 2, 2, error) || !check_path (c, node->children->pdata[0], error) ||
          !check_cond_operand (c, node->children->pdata[1], error))
        return FALSE;
      if (node->kind == DYN_EXPR_CONTAINS)
        {
          DynExprNode *a = node->children->pdata[0];
          DynExprNode *b = node->children->pdata[1];

          if (b->kind == DYN_EXPR_PATH && dyn_expr_path_equal (a->path, b->path))
            {
              _dyn_expr_set_error_at (error, node->offset,
                                      "contains() cannot name the same path twice");
              return FALSE;
            }
        }
      return TRUE;

    case DYN_EXPR_AND:
    case DYN_EXPR_OR:
      if (node->children->len == 0)
        {
          _dyn_expr_set_error_at (error, node->offset, "empty %s group",
                                  node->kind == DYN_EXPR_AND ? "AND" : "OR");
          return FALSE;
        }
      for (guint i = 0; i < node->children->len; i++)
        if (!check_condition (c, node->children->pdata[i], depth + 1, error))
          return FALSE;
      return TRUE;

    case DYN_EXPR_NOT:
      return check_arity (node, 1, 1, error) &&
             check_condition (c, node->children->pdata[0], depth + 1, error);

    default:
      _dyn_expr_set_error_at (error, node->offset, "expected a condition");
      return FALSE;
    }
}

/* Operands of SET's right-hand side. @arith: + and - are allowed here. */
static gboolean
check_set_operand (Checker      *c,
                   DynExprNode  *node,
                   gboolean      arith,
                   guint         depth,
                   GError      **error)
{
  if (depth > DYN_EXPR_MAX_NESTING)
    {
      _dyn_expr_set_error_at (error, node->offset, "the expression is nested too deeply");
      return FALSE;
    }

  switch (node->kind)
    {
    case DYN_EXPR_PATH:
      return check_path (c, node, error);
    case DYN_EXPR_VALUE:
      return check_value (node, error);
    case DYN_EXPR_IF_NOT_EXISTS:
      c->update_ops++;
      return check_arity (node, 2, 2, error) && check_path (c, node->children->pdata[0], error) &&
             check_set_operand (c, node->children->pdata[1], FALSE, depth + 1, error);
    case DYN_EXPR_LIST_APPEND:
      c->update_ops++;
      return check_arity (node, 2, 2, error) &&
             check_set_operand (c, node->children->pdata[0], FALSE, depth + 1, error) &&
             check_set_operand (c, node->children->pdata[1], FALSE, depth + 1, error);
    case DYN_EXPR_PLUS:
    case DYN_EXPR_MINUS:
      if (!arith)
        {
          _dyn_expr_set_error_at (error, node->offset,
                                  "a SET value holds at most one + or -, at its top level");
          return FALSE;
        }
      c->update_ops++;
      return check_arity (node, 2, 2, error) &&
             check_set_operand (c, node->children->pdata[0], FALSE, depth + 1, error) &&
             check_set_operand (c, node->children->pdata[1], FALSE, depth + 1, error);
    default:
      _dyn_expr_set_error_at (error, node->offset, "not allowed in a SET value");
      return FALSE;
    }
}

/* 0: disjoint; 1: one is a prefix of the other (or equal); 2: conflict
 * (same prefix, then a name on one side and an index on the other). */
static int
paths_overlap (const DynExprPath *a,
               const DynExprPath *b)
{
  guint n = MIN (a->segments->len, b->segments->len);

  for (guint i = 0; i < n; i++)
    {
      const DynExprSegment *sa = &g_array_index (a->segments, DynExprSegment, i);
      const DynExprSegment *sb = &g_array_index (b->segments, DynExprSegment, i);

      if ((sa->name == NULL) != (sb->name == NULL))
        return 2;
      if (!segment_equal (sa, sb))
        return 0;
    }
  return 1;
}

static gboolean
check_no_overlap (GPtrArray  *path_nodes,
                  GError    **error)
{
  for (guint i = 0; i < path_nodes->len; i++)
    for (guint j = 0; j < i; j++)
      {
        DynExprNode *a = path_nodes->pdata[j];
        DynExprNode *b = path_nodes->pdata[i];
        int o = paths_overlap (a->path, b->path);

        if (o != 0)
          {
            g_autofree char *sa = dyn_expr_path_to_string (a->path);
            g_autofree char *sb = dyn_expr_path_to_string (b->path);

            if (o == 2)
              _dyn_expr_set_error_at (error, b->offset, "the document paths %s and %s conflict", sa, sb);
            else if (dyn_expr_path_equal (a->path, b->path))
              _dyn_expr_set_error_at (error, b->offset, "the document path %s is used twice", sb);
            else
              _dyn_expr_set_error_at (error, b->offset, "the document paths %s and %s overlap", sa, sb);
            return FALSE;
          }
      }
  return TRUE;
}

static gboolean
check_update (Checker      *c,
              DynExprNode  *node,
              GError      **error)
{
  g_autoptr(GPtrArray) targets = g_ptr_array_new ();

  if (node->kind != DYN_EXPR_UPDATE)
    {
      _dyn_expr_set_error_at (error, node->offset, "expected an update expression");
      return FALSE;
    }
  if (node->children->len == 0)
    {
      _dyn_expr_set_error_at (error, node->offset, "empty update expression");
      return FALSE;
    }

  for (guint i = 0; i < node->children->len; i++)
    {
      DynExprNode *action = node->children->pdata[i];
      DynExprNode *target;
      const char *top;

      if (action->kind < DYN_EXPR_SET || action->kind > DYN_EXPR_DELETE)
        {
          _dyn_expr_set_error_at (error, action->offset, "an update holds only SET, REMOVE, ADD and DELETE actions");
          return FALSE;
        }
      if (!check_arity (action, action->kind == DYN_EXPR_REMOVE ? 1 : 2,
                        action->kind == DYN_EXPR_REMOVE ? 1 : 2, error))
        return FALSE;
      target = action->children->pdata[0];
      if (!check_path (c, target, error))
        return FALSE;
      top = path_first_name (target->path);
      if (is_key_name (c->keys, top))
        {
          _dyn_expr_set_error_at (error, target->offset,
                                  "the key attribute %s cannot be updated", top);
          return FALSE;
        }
      g_ptr_array_add (targets, target);

      switch (action->kind)
        {
        case DYN_EXPR_SET:
          if (!check_set_operand (c, action->children->pdata[1], TRUE, 0, error))
            return FALSE;
          break;
        case DYN_EXPR_ADD:
        case DYN_EXPR_DELETE:
          {
            DynExprNode *v = action->children->pdata[1];
            const char *what = action->kind == DYN_EXPR_ADD ? "ADD" : "DELETE";

            if (v->kind != DYN_EXPR_VALUE)
              {
                _dyn_expr_set_error_at (error, v->offset, "%s takes a value, not an attribute path", what);
                return FALSE;
              }
            if (!check_value (v, error))
              return FALSE;
            if (v->value != NULL)
              {
                DynValueType t = dyn_value_get_value_type (v->value);
                gboolean is_set = t == DYN_VALUE_SS || t == DYN_VALUE_NS || t == DYN_VALUE_BS;

                if (action->kind == DYN_EXPR_ADD && !is_set && t != DYN_VALUE_N)
                  {
                    _dyn_expr_set_error_at (error, v->offset,
                                            "ADD takes a number or a set, not a value of type %s",
                                            dyn_value_type_to_string (t));
                    return FALSE;
                  }
                if (action->kind == DYN_EXPR_DELETE && !is_set)
                  {
                    _dyn_expr_set_error_at (error, v->offset,
                                            "DELETE takes a set, not a value of type %s",
                                            dyn_value_type_to_string (t));
                    return FALSE;
                  }
              }
          }
          break;
        default:
          break;
        }
    }

  if (c->update_ops > DYN_EXPR_MAX_UPDATE_OPS)
    {
      _dyn_expr_set_error_at (error, node->offset,
                              "the update uses %u operators and functions; the limit is %d",
                              c->update_ops, DYN_EXPR_MAX_UPDATE_OPS);
      return FALSE;
    }

  /* ADD of a set and DELETE of a set on one path must agree on the set type;
   * they overlap anyway, so the overlap check below reports it. */
  return check_no_overlap (targets, error);
}

static gboolean
check_projection (Checker      *c,
                  DynExprNode  *node,
                  GError      **error)
{
  if (node->kind != DYN_EXPR_PROJECTION)
    {
      _dyn_expr_set_error_at (error, node->offset, "expected a projection (a list of paths)");
      return FALSE;
    }
  if (node->children->len == 0)
    {
      _dyn_expr_set_error_at (error, node->offset, "empty projection");
      return FALSE;
    }
  for (guint i = 0; i < node->children->len; i++)
    if (!check_path (c, node->children->pdata[i], error))
      return FALSE;
  return check_no_overlap (node->children, error);
}

static void
collect_conjuncts (DynExprNode *node,
                   GPtrArray   *out)
{
  if (node->kind == DYN_EXPR_AND)
    {
      for (guint i = 0; i < node->children->len; i++)
        collect_conjuncts (node->children->pdata[i], out);
    }
  else
    g_ptr_array_add (out, node);
}

static const char *
type_name (DynValueType t)
{
  return t == DYN_VALUE_N ? "number" : t == DYN_VALUE_B ? "binary" : "string";
}

/* The key attribute a key-condition term is about, and the value nodes. */
static gboolean
check_key_value (DynExprNode   *v,
                 const char    *key,
                 DynValueType   key_type,
                 GError       **error)
{
  if (v->kind != DYN_EXPR_VALUE)
    {
      _dyn_expr_set_error_at (error, v->offset,
                              "a key condition compares the key %s with a value, not with an attribute", key);
      return FALSE;
    }
  if (v->value != NULL && dyn_value_get_value_type (v->value) != key_type)
    {
      _dyn_expr_set_error_at (error, v->offset, "the key %s is a %s, but the value is of type %s",
                              key, type_name (key_type),
                              dyn_value_type_to_string (dyn_value_get_value_type (v->value)));
      return FALSE;
    }
  return TRUE;
}

/* The table or local secondary index of @table that has the partition key of
 * @keys and @attribute as its sort key (not @keys' own source), or NULL. */
static const DynIndexInfo *
source_with_sort_key (const DynTableKeys *table,
                      const DynKeySchema *keys,
                      const char         *attribute)
{
  if (table == NULL || attribute == NULL)
    return NULL;
  if (&table->table.keys != keys &&
      g_strcmp0 (table->table.keys.partition_key, keys->partition_key) == 0 &&
      g_strcmp0 (table->table.keys.sort_key, attribute) == 0)
    return &table->table;
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynIndexInfo *info = table->indexes->pdata[i];

      if (info->kind == DYN_INDEX_LOCAL && &info->keys != keys &&
          g_strcmp0 (info->keys.partition_key, keys->partition_key) == 0 &&
          g_strcmp0 (info->keys.sort_key, attribute) == 0)
        return info;
    }
  return NULL;
}

/* @hints (nullable): the table @keys belong to; a non-key attribute that is
 * the sort key of its table or of a local secondary index is named so. */
static gboolean
analyse_key_condition_full (DynExprNode         *node,
                            const DynKeySchema  *keys,
                            const DynTableKeys  *hints,
                            DynExprNode        **pk_term,
                            DynExprNode        **sk_term,
                            GError             **error)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  DynExprNode *pk = NULL;
  DynExprNode *sk = NULL;

  collect_conjuncts (node, terms);
  for (guint i = 0; i < terms->len; i++)
    {
      DynExprNode *t = terms->pdata[i];
      DynExprNode *pathn = NULL;
      const char *name;
      guint path_index = 0;

      switch (t->kind)
        {
        case DYN_EXPR_COMPARE:
          if (t->op == DYN_EXPR_OP_NE)
            {
              _dyn_expr_set_error_at (error, t->offset, "a key condition cannot use <>");
              return FALSE;
            }
          if (((DynExprNode *) t->children->pdata[0])->kind != DYN_EXPR_PATH &&
              ((DynExprNode *) t->children->pdata[1])->kind == DYN_EXPR_PATH)
            path_index = 1;
          pathn = t->children->pdata[path_index];
          break;
        case DYN_EXPR_BETWEEN:
        case DYN_EXPR_BEGINS_WITH:
          pathn = t->children->pdata[0];
          break;
        case DYN_EXPR_OR:
          _dyn_expr_set_error_at (error, t->offset, "a key condition cannot use OR");
          return FALSE;
        case DYN_EXPR_NOT:
          _dyn_expr_set_error_at (error, t->offset, "a key condition cannot use NOT");
          return FALSE;
        case DYN_EXPR_IN:
          _dyn_expr_set_error_at (error, t->offset, "a key condition cannot use IN");
          return FALSE;
        default:
          _dyn_expr_set_error_at (error, t->offset,
                                  "a key condition allows only =, <, <=, >, >=, BETWEEN and begins_with");
          return FALSE;
        }

      if (pathn->kind == DYN_EXPR_SIZE)
        {
          _dyn_expr_set_error_at (error, pathn->offset, "a key condition cannot use size()");
          return FALSE;
        }
      if (pathn->kind != DYN_EXPR_PATH)
        {
          _dyn_expr_set_error_at (error, t->offset, "a key condition needs a key attribute on one side");
          return FALSE;
        }
      if (pathn->path->segments->len != 1)
        {
          _dyn_expr_set_error_at (error, pathn->offset, "a key condition cannot use nested paths");
          return FALSE;
        }
      name = path_first_name (pathn->path);
      if (name == NULL)
        {
          /* Unresolved #placeholder: nothing more can be known. */
          _dyn_expr_set_error_at (error, pathn->offset,
                                  "the key condition's attribute %s is not defined",
                                  dyn_expr_path_get_name (pathn->path, 0, NULL));
          return FALSE;
        }

      if (g_strcmp0 (name, keys->partition_key) == 0)
        {
          if (t->kind != DYN_EXPR_COMPARE || t->op != DYN_EXPR_OP_EQ)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      "the partition key %s must be compared with =", name);
              return FALSE;
            }
          if (pk != NULL)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      "the partition key %s is used twice", name);
              return FALSE;
            }
          if (!check_key_value (t->children->pdata[1 - path_index], name, keys->partition_type, error))
            return FALSE;
          pk = t;
        }
      else if (keys->sort_key != NULL && strcmp (name, keys->sort_key) == 0)
        {
          if (sk != NULL)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      "a key condition allows one condition on the sort key %s", name);
              return FALSE;
            }
          if (t->kind == DYN_EXPR_BEGINS_WITH && keys->sort_type == DYN_VALUE_N)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      "begins_with cannot be used on the number sort key %s", name);
              return FALSE;
            }
          for (guint j = 0; j < t->children->len; j++)
            if (j != path_index && !check_key_value (t->children->pdata[j], name, keys->sort_type, error))
              return FALSE;
          sk = t;
        }
      else
        {
          const DynIndexInfo *other = source_with_sort_key (hints, keys, name);

          if (other != NULL && other->kind == DYN_INDEX_LOCAL)
            _dyn_expr_set_error_at (error, pathn->offset,
                                    _("%s is not a key attribute; move it to the filter, or query "
                                      "the local secondary index %s, whose sort key it is"),
                                    name, other->name);
          else if (other != NULL)
            _dyn_expr_set_error_at (error, pathn->offset,
                                    _("%s is not a key attribute of the index; move it to the filter, "
                                      "or query the table, whose sort key it is"), name);
          else
            _dyn_expr_set_error_at (error, pathn->offset,
                                    "%s is not a key attribute; move it to the filter", name);
          return FALSE;
        }
    }

  if (pk == NULL)
    {
      _dyn_expr_set_error_at (error, node->offset,
                              "a key condition needs an equality on the partition key %s",
                              keys->partition_key);
      return FALSE;
    }
  if (pk_term != NULL)
    *pk_term = pk;
  if (sk_term != NULL)
    *sk_term = sk;
  return TRUE;
}

static gboolean
analyse_key_condition (DynExprNode         *node,
                       const DynKeySchema  *keys,
                       DynExprNode        **pk_term,
                       DynExprNode        **sk_term,
                       GError             **error)
{
  return analyse_key_condition_full (node, keys, NULL, pk_term, sk_term, error);
}

gboolean
dyn_expr_validate (DynExprNode         *node,
                   DynExprRole          role,
                   const DynKeySchema  *keys,
                   GError             **error)
{
  Checker c = { role, keys, 0 };

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  switch (role)
    {
    case DYN_EXPR_ROLE_KEY_CONDITION:
      if (keys == NULL || keys->partition_key == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                       "checking a key condition needs the key schema");
          return FALSE;
        }
      c.keys = NULL;
      return check_condition (&c, node, 0, error) &&
             analyse_key_condition (node, keys, NULL, NULL, error);
    case DYN_EXPR_ROLE_FILTER:
    case DYN_EXPR_ROLE_CONDITION:
      if (role == DYN_EXPR_ROLE_CONDITION)
        c.keys = NULL;
      return check_condition (&c, node, 0, error);
    case DYN_EXPR_ROLE_UPDATE:
      return check_update (&c, node, error);
    case DYN_EXPR_ROLE_PROJECTION:
      return check_projection (&c, node, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

gboolean
dyn_expr_validate_key_condition (const DynTableKeys  *table,
                                 const char          *index_name,
                                 DynExprNode         *key_condition,
                                 GError             **error)
{
  Checker c = { DYN_EXPR_ROLE_KEY_CONDITION, NULL, 0 };
  const DynIndexInfo *info;

  g_return_val_if_fail (table != NULL, FALSE);
  g_return_val_if_fail (key_condition != NULL, FALSE);

  info = dyn_table_keys_lookup (table, index_name);
  if (info == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "the table has no index %s", index_name);
      return FALSE;
    }
  return check_condition (&c, key_condition, 0, error) &&
         analyse_key_condition_full (key_condition, &info->keys, table, NULL, NULL, error);
}

gboolean
_dyn_expr_request_check (DynExprNode         *filter,
                         const DynKeySchema  *keys,
                         GError             **error)
{
  Checker c = { DYN_EXPR_ROLE_FILTER, keys, 0 };

  return check_condition (&c, filter, 0, error);
}

/* ------------------------------------------------------------------------ */
/* Table keys */

static void
key_schema_init (DynKeySchema *keys,
                 const char   *partition_key,
                 DynValueType  partition_type,
                 const char   *sort_key,
                 DynValueType  sort_type)
{
  keys->partition_key = g_strdup (partition_key);
  keys->partition_type = partition_type;
  keys->sort_key = g_strdup (sort_key);
  keys->sort_type = sort_type;
}

static void
index_info_free (gpointer data)
{
  DynIndexInfo *info = data;

  g_free (info->name);
  g_free (info->keys.partition_key);
  g_free (info->keys.sort_key);
  g_strfreev (info->non_key_attributes);
  g_free (info);
}

DynTableKeys *
dyn_table_keys_new (const char   *table_name,
                    const char   *partition_key,
                    DynValueType  partition_type,
                    const char   *sort_key,
                    DynValueType  sort_type)
{
  DynTableKeys *self;

  g_return_val_if_fail (partition_key != NULL, NULL);

  self = g_new0 (DynTableKeys, 1);
  self->table.name = g_strdup (table_name);
  self->table.kind = DYN_INDEX_TABLE;
  self->table.projection = DYN_PROJECTION_ALL;
  key_schema_init (&self->table.keys, partition_key, partition_type, sort_key, sort_type);
  self->indexes = g_ptr_array_new_with_free_func (index_info_free);
  return self;
}

DynIndexInfo *
dyn_table_keys_add_index (DynTableKeys      *self,
                          const char        *name,
                          DynIndexKind       kind,
                          const char        *partition_key,
                          DynValueType       partition_type,
                          const char        *sort_key,
                          DynValueType       sort_type,
                          DynProjectionType  projection)
{
  DynIndexInfo *info;

  g_return_val_if_fail (self != NULL && name != NULL && partition_key != NULL, NULL);

  info = g_new0 (DynIndexInfo, 1);
  info->name = g_strdup (name);
  info->kind = kind;
  info->projection = projection;
  key_schema_init (&info->keys, partition_key, partition_type, sort_key, sort_type);
  g_ptr_array_add (self->indexes, info);
  return info;
}

DynTableKeys *
dyn_table_keys_copy (const DynTableKeys *self)
{
  DynTableKeys *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = dyn_table_keys_new (self->table.name,
                             self->table.keys.partition_key, self->table.keys.partition_type,
                             self->table.keys.sort_key, self->table.keys.sort_type);
  copy->table.projection = self->table.projection;
  copy->table.non_key_attributes = g_strdupv (self->table.non_key_attributes);
  for (guint i = 0; i < self->indexes->len; i++)
    {
      const DynIndexInfo *info = self->indexes->pdata[i];
      DynIndexInfo *added;

      added = dyn_table_keys_add_index (copy, info->name, info->kind,
                                        info->keys.partition_key, info->keys.partition_type,
                                        info->keys.sort_key, info->keys.sort_type,
                                        info->projection);
      added->non_key_attributes = g_strdupv (info->non_key_attributes);
    }
  return copy;
}

const DynIndexInfo *
dyn_table_keys_lookup (const DynTableKeys *self,
                       const char         *index_name)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (index_name == NULL || index_name[0] == '\0')
    return &self->table;
  for (guint i = 0; i < self->indexes->len; i++)
    {
      const DynIndexInfo *info = self->indexes->pdata[i];

      if (strcmp (info->name, index_name) == 0)
        return info;
    }
  return NULL;
}

void
dyn_table_keys_free (DynTableKeys *self)
{
  if (self == NULL)
    return;
  g_free (self->table.name);
  g_free (self->table.keys.partition_key);
  g_free (self->table.keys.sort_key);
  g_strfreev (self->table.non_key_attributes);
  g_ptr_array_unref (self->indexes);
  g_free (self);
}

/* ------------------------------------------------------------------------ */
/* Planner */

void
dyn_expr_plan_free (DynExprPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->index_name);
  g_free (plan->reason);
  g_clear_pointer (&plan->key_condition, dyn_expr_node_unref);
  g_clear_pointer (&plan->filter, dyn_expr_node_unref);
  g_free (plan->suggested_index);
  g_free (plan->suggestion);
  g_clear_pointer (&plan->suggested_key_condition, dyn_expr_node_unref);
  g_clear_pointer (&plan->suggested_filter, dyn_expr_node_unref);
  g_free (plan);
}

static char *
describe_term (DynExprNode *term)
{
  g_autofree char *text = dyn_expr_node_to_string (term);

  return g_steal_pointer (&text);
}

static const char *
index_label (const DynIndexInfo *info,
             GString            *buf)
{
  g_string_truncate (buf, 0);
  if (info->kind == DYN_INDEX_TABLE)
    {
      /* TRANSLATORS: the source of a read: "table Movies" */
      g_string_append (buf, _("table"));
      if (info->name != NULL)
        g_string_append_printf (buf, " %s", info->name);
    }
  else
    /* TRANSLATORS: the source of a read: "index ByRating" */
    g_string_append_printf (buf, _("index %s"), info->name);
  return buf->str;
}

/* The term of a top-level conjunct "key = value" (value inline or placeholder). */
static gboolean
term_is_key_equality (DynExprNode  *t,
                      const char   *key,
                      DynValueType  key_type)
{
  DynExprNode *a, *b;

  if (t->kind != DYN_EXPR_COMPARE || t->op != DYN_EXPR_OP_EQ || t->children->len != 2)
    return FALSE;
  a = t->children->pdata[0];
  b = t->children->pdata[1];
  if (a->kind != DYN_EXPR_PATH)
    {
      DynExprNode *tmp = a;
      a = b;
      b = tmp;
    }
  return a->kind == DYN_EXPR_PATH && b->kind == DYN_EXPR_VALUE &&
         g_strcmp0 (dyn_expr_path_get_top_name (a->path), key) == 0 &&
         (b->value == NULL || dyn_value_get_value_type (b->value) == key_type);
}

static gboolean
term_is_sort_condition (DynExprNode        *t,
                        const DynKeySchema *keys)
{
  g_autoptr(DynExprNode) probe = NULL;
  DynKeySchema only_sort;

  if (keys->sort_key == NULL)
    return FALSE;
  if (t->kind != DYN_EXPR_COMPARE && t->kind != DYN_EXPR_BETWEEN && t->kind != DYN_EXPR_BEGINS_WITH)
    return FALSE;
  /* Reuse the key-condition rules: "pk = x AND <term>" must pass. */
  only_sort = *keys;
  probe = dyn_expr_node_new (DYN_EXPR_AND);
  g_ptr_array_add (probe->children,
                   dyn_expr_node_new_compare (DYN_EXPR_OP_EQ, dyn_expr_node_new_name (keys->partition_key),
                                              dyn_expr_node_new_placeholder (":x")));
  g_ptr_array_add (probe->children, dyn_expr_node_ref (t));
  return analyse_key_condition (probe, &only_sort, NULL, NULL, NULL);
}

/* Splits @filter's top-level conjuncts for a Query on @info. */
static gboolean
try_split (DynExprNode         *filter,
           const DynIndexInfo  *info,
           DynExprNode        **key_condition,
           DynExprNode        **rest)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  DynExprNode *pk = NULL;
  DynExprNode *sk = NULL;
  g_autoptr(DynExprNode) kc = NULL;
  g_autoptr(DynExprNode) remaining = NULL;

  collect_conjuncts (filter, terms);
  for (guint i = 0; i < terms->len && pk == NULL; i++)
    if (term_is_key_equality (terms->pdata[i], info->keys.partition_key, info->keys.partition_type))
      pk = terms->pdata[i];
  if (pk == NULL)
    return FALSE;
  for (guint i = 0; i < terms->len && sk == NULL; i++)
    if (terms->pdata[i] != pk && term_is_sort_condition (terms->pdata[i], &info->keys))
      sk = terms->pdata[i];

  kc = dyn_expr_node_copy (pk);
  if (sk != NULL)
    kc = dyn_expr_node_new_binary (DYN_EXPR_AND, g_steal_pointer (&kc), dyn_expr_node_copy (sk));

  remaining = dyn_expr_node_new (DYN_EXPR_AND);
  for (guint i = 0; i < terms->len; i++)
    if (terms->pdata[i] != pk && terms->pdata[i] != sk)
      g_ptr_array_add (remaining->children, dyn_expr_node_copy (terms->pdata[i]));

  *key_condition = g_steal_pointer (&kc);
  if (remaining->children->len == 0)
    *rest = NULL;
  else if (remaining->children->len == 1)
    *rest = dyn_expr_node_ref (remaining->children->pdata[0]);
  else
    *rest = g_steal_pointer (&remaining);
  return TRUE;
}

/* try_split() whose rest DynamoDB takes as the Query's filter (which may not
 * name the key attributes of @info). */
static gboolean
split_for_query (DynExprNode         *condition,
                 const DynIndexInfo  *info,
                 DynExprNode        **key_condition,
                 DynExprNode        **rest)
{
  g_autoptr(DynExprNode) kc = NULL;
  g_autoptr(DynExprNode) remaining = NULL;

  if (!try_split (condition, info, &kc, &remaining))
    return FALSE;
  if (remaining != NULL && !_dyn_expr_request_check (remaining, &info->keys, NULL))
    return FALSE;
  *key_condition = g_steal_pointer (&kc);
  *rest = g_steal_pointer (&remaining);
  return TRUE;
}

static gboolean
key_condition_has_sort (DynExprNode        *key_condition,
                        const DynKeySchema *keys)
{
  DynExprNode *sk = NULL;

  return analyse_key_condition (key_condition, keys, NULL, &sk, NULL) && sk != NULL;
}

/* Where a Query could run instead: @info first, then the table, then each
 * index (borrowed pointers). */
static GPtrArray *
list_candidates (const DynTableKeys *table,
                 const DynIndexInfo *info)
{
  GPtrArray *candidates = g_ptr_array_new ();

  g_ptr_array_add (candidates, (gpointer) info);
  if (info != &table->table)
    g_ptr_array_add (candidates, (gpointer) &table->table);
  for (guint i = 0; i < table->indexes->len; i++)
    if (table->indexes->pdata[i] != info)
      g_ptr_array_add (candidates, table->indexes->pdata[i]);
  return candidates;
}

/* Takes @kc and @rest. @narrower: the suggestion reads fewer items by the
 * candidate's sort key. */
static void
set_suggestion (DynExprPlan        *plan,
                const DynIndexInfo *cand,
                DynExprNode        *kc,
                DynExprNode        *rest,
                gboolean            narrower)
{
  g_autoptr(GString) label = g_string_new (NULL);

  plan->suggested_index = g_strdup (cand->kind == DYN_INDEX_TABLE ? (cand->name ? cand->name : "")
                                                                   : cand->name);
  plan->suggested_key_condition = kc;
  plan->suggested_filter = rest;
  if (narrower && cand->kind == DYN_INDEX_TABLE)
    plan->suggestion = g_strdup_printf (_("Query on the %s possible: its sort key %s narrows the read"),
                                        index_label (cand, label), cand->keys.sort_key);
  else if (narrower)
    plan->suggestion = g_strdup_printf (_("Query on index %s possible: its sort key %s narrows the read"),
                                        cand->name, cand->keys.sort_key);
  else if (cand->kind == DYN_INDEX_TABLE)
    plan->suggestion = g_strdup_printf (_("Query on the %s possible"), index_label (cand, label));
  else
    plan->suggestion = g_strdup_printf (_("Query on index %s possible"), cand->name);
}

/* A Query without a sort-key condition: is there a source with the same
 * partition key whose sort key @condition also limits? Only sources that
 * return every attribute (a narrower read must not return less). */
static void
suggest_narrower (DynExprPlan        *plan,
                  const DynTableKeys *table,
                  const DynIndexInfo *info,
                  DynExprNode        *condition)
{
  g_autoptr(GPtrArray) candidates = list_candidates (table, info);

  for (guint i = 1; i < candidates->len; i++)
    {
      const DynIndexInfo *cand = candidates->pdata[i];
      DynExprNode *kc = NULL, *rest = NULL;

      if (cand->projection != DYN_PROJECTION_ALL ||
          g_strcmp0 (cand->keys.partition_key, info->keys.partition_key) != 0 ||
          !split_for_query (condition, cand, &kc, &rest))
        continue;
      if (!key_condition_has_sort (kc, &cand->keys))
        {
          dyn_expr_node_unref (kc);
          g_clear_pointer (&rest, dyn_expr_node_unref);
          continue;
        }
      set_suggestion (plan, cand, kc, rest, TRUE);
      return;
    }
}

/* A Scan of @info: the first source (of list_candidates(), from @first)
 * where @condition runs as a Query — or a later one with the same partition
 * key that also narrows it by its sort key. Returns the source suggested. */
static const DynIndexInfo *
suggest_query (DynExprPlan        *plan,
               const DynTableKeys *table,
               const DynIndexInfo *info,
               DynExprNode        *condition,
               guint               first)
{
  g_autoptr(GPtrArray) candidates = list_candidates (table, info);
  const DynIndexInfo *best = NULL;
  DynExprNode *best_kc = NULL, *best_rest = NULL;
  gboolean best_sorted = FALSE;

  for (guint i = first; i < candidates->len && !best_sorted; i++)
    {
      const DynIndexInfo *cand = candidates->pdata[i];
      DynExprNode *kc = NULL, *rest = NULL;
      gboolean sorted;

      if (!split_for_query (condition, cand, &kc, &rest))
        continue;
      sorted = key_condition_has_sort (kc, &cand->keys);
      if (best == NULL ||
          (sorted && cand->projection == DYN_PROJECTION_ALL &&
           g_strcmp0 (cand->keys.partition_key, best->keys.partition_key) == 0))
        {
          g_clear_pointer (&best_kc, dyn_expr_node_unref);
          g_clear_pointer (&best_rest, dyn_expr_node_unref);
          best = cand;
          best_kc = kc;
          best_rest = rest;
          best_sorted = sorted;
        }
      else
        {
          dyn_expr_node_unref (kc);
          g_clear_pointer (&rest, dyn_expr_node_unref);
        }
    }
  if (best != NULL)
    set_suggestion (plan, best, best_kc, best_rest, FALSE);
  return best;
}

static void
set_query_reason (DynExprPlan        *plan,
                  const DynIndexInfo *info,
                  DynExprNode        *key_condition)
{
  g_autoptr(GString) label = g_string_new (NULL);
  DynExprNode *pk = NULL, *sk = NULL;
  g_autofree char *pk_text = NULL;

  analyse_key_condition (key_condition, &info->keys, &pk, &sk, NULL);
  pk_text = pk ? describe_term (pk) : g_strdup ("");
  if (sk != NULL)
    {
      g_autofree char *sk_text = describe_term (sk);

      plan->reason = g_strdup_printf (_("Query on %s: partition key %s, sort key %s"),
                                      index_label (info, label), pk_text, sk_text);
    }
  else
    plan->reason = g_strdup_printf (_("Query on %s: partition key %s"), index_label (info, label), pk_text);
}

static DynExprNode *
conjunction (DynExprNode *a,
             DynExprNode *b)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  DynExprNode *and = dyn_expr_node_new (DYN_EXPR_AND);

  collect_conjuncts (a, terms);
  collect_conjuncts (b, terms);
  for (guint i = 0; i < terms->len; i++)
    g_ptr_array_add (and->children, dyn_expr_node_copy (terms->pdata[i]));
  return and;
}

DynExprPlan *
dyn_expr_plan (const DynTableKeys  *table,
               const char          *index_name,
               DynExprNode         *key_condition,
               DynExprNode         *filter,
               GError             **error)
{
  g_autoptr(DynExprPlan) plan = NULL;
  const DynIndexInfo *info;
  DynExprNode *kc = NULL, *rest = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  info = dyn_table_keys_lookup (table, index_name);
  if (info == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "the table has no index %s", index_name);
      return NULL;
    }

  plan = g_new0 (DynExprPlan, 1);
  plan->index_name = info->kind == DYN_INDEX_TABLE ? NULL : g_strdup (info->name);
  plan->key_condition = key_condition ? dyn_expr_node_ref (key_condition) : NULL;
  plan->filter = filter ? dyn_expr_node_ref (filter) : NULL;

  if (key_condition != NULL)
    {
      if (!dyn_expr_validate_key_condition (table, index_name, key_condition, error))
        return NULL;
      if (filter != NULL && !dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, &info->keys, error))
        return NULL;

      plan->operation = DYN_EXPR_PLAN_QUERY;
      set_query_reason (plan, info, key_condition);
      if (filter != NULL && !key_condition_has_sort (key_condition, &info->keys))
        {
          g_autoptr(DynExprNode) all = conjunction (key_condition, filter);

          suggest_narrower (plan, table, info, all);
        }
      return g_steal_pointer (&plan);
    }

  plan->operation = DYN_EXPR_PLAN_SCAN;
  if (filter != NULL && !dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, NULL, error))
    return NULL;

  if (filter == NULL)
    {
      plan->reason = g_strdup_printf (_("Scan: no condition on the partition key %s"),
                                      info->keys.partition_key);
      return g_steal_pointer (&plan);
    }

  plan->reason = g_strdup_printf (_("Scan: no equality on the partition key %s"),
                                  info->keys.partition_key);

  /* Could the filter run as a Query: first on the chosen table/index, then
   * on the table, then on each index? */
  if (suggest_query (plan, table, info, filter, 0) != NULL && split_for_query (filter, info, &kc, &rest))
    {
      g_clear_pointer (&kc, dyn_expr_node_unref);
      g_clear_pointer (&rest, dyn_expr_node_unref);
      g_free (plan->reason);
      plan->reason = g_strdup_printf (_("Scan: the equality on the partition key %s is in the filter, "
                                        "not in the key condition"),
                                      info->keys.partition_key);
    }

  return g_steal_pointer (&plan);
}

/* A top-level condition on a key attribute of the source compares it with a
 * value of another type: no item can match, and a Query would refuse it. The
 * same message as the key condition's check. */
static gboolean
check_key_types (DynExprNode         *condition,
                 const DynKeySchema  *keys,
                 GError             **error)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();

  collect_conjuncts (condition, terms);
  for (guint i = 0; i < terms->len; i++)
    {
      DynExprNode *t = terms->pdata[i];
      DynExprNode *path = NULL;
      const char *name;
      DynValueType type;

      if (t->kind != DYN_EXPR_COMPARE && t->kind != DYN_EXPR_BETWEEN && t->kind != DYN_EXPR_BEGINS_WITH)
        continue;
      for (guint j = 0; j < t->children->len && path == NULL; j++)
        if (((DynExprNode *) t->children->pdata[j])->kind == DYN_EXPR_PATH)
          path = t->children->pdata[j];
      name = path ? dyn_expr_path_get_top_name (path->path) : NULL;
      if (name == NULL)
        continue;
      if (g_strcmp0 (name, keys->partition_key) == 0)
        type = keys->partition_type;
      else if (keys->sort_key != NULL && strcmp (name, keys->sort_key) == 0)
        type = keys->sort_type;
      else
        continue;
      for (guint j = 0; j < t->children->len; j++)
        {
          DynExprNode *v = t->children->pdata[j];

          if (v->kind == DYN_EXPR_VALUE && !check_key_value (v, name, type, error))
            return FALSE;
        }
    }
  return TRUE;
}

DynExprPlan *
dyn_expr_plan_condition (const DynTableKeys  *table,
                         const char          *index_name,
                         DynExprNode         *condition,
                         GError             **error)
{
  g_autoptr(DynExprPlan) plan = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  const DynIndexInfo *info;
  DynExprNode *kc = NULL, *rest = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  info = dyn_table_keys_lookup (table, index_name);
  if (info == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "the table has no index %s", index_name);
      return NULL;
    }

  plan = g_new0 (DynExprPlan, 1);
  plan->index_name = info->kind == DYN_INDEX_TABLE ? NULL : g_strdup (info->name);

  if (condition == NULL)
    {
      plan->operation = DYN_EXPR_PLAN_SCAN;
      plan->reason = g_strdup_printf (_("Scan: no condition on the partition key %s"),
                                      info->keys.partition_key);
      return g_steal_pointer (&plan);
    }
  if (!dyn_expr_validate (condition, DYN_EXPR_ROLE_FILTER, NULL, error) ||
      !check_key_types (condition, &info->keys, error))
    return NULL;

  if (split_for_query (condition, info, &kc, &rest))
    {
      plan->operation = DYN_EXPR_PLAN_QUERY;
      plan->key_condition = kc;
      plan->filter = rest;
      set_query_reason (plan, info, kc);
      if (!key_condition_has_sort (kc, &info->keys))
        suggest_narrower (plan, table, info, condition);
      return g_steal_pointer (&plan);
    }

  plan->operation = DYN_EXPR_PLAN_SCAN;
  plan->filter = dyn_expr_node_ref (condition);
  if (try_split (condition, info, &kc, &rest))
    {
      /* The key attributes are compared more than a key condition allows,
       * and a Query's filter may not name them. */
      g_clear_pointer (&kc, dyn_expr_node_unref);
      g_clear_pointer (&rest, dyn_expr_node_unref);
      plan->reason = g_strdup_printf (_("Scan: the conditions on the keys of %s do not fit one key condition"),
                                      index_label (info, label));
    }
  else
    plan->reason = g_strdup_printf (_("Scan: no equality on the partition key %s"),
                                    info->keys.partition_key);

  suggest_query (plan, table, info, condition, 1);
  return g_steal_pointer (&plan);
}

/* ------------------------------------------------------------------------ */
/* Sharded keys */

#define MAX_SHARDS 10000

GStrv
dyn_expr_expand_shard_range (const char  *value,
                             GError     **error)
{
  const char *dots, *lo_start, *hi_start;
  gsize lo_len, hi_len, width;
  guint64 lo, hi;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *prefix = NULL;

  g_return_val_if_fail (value != NULL, NULL);

  dots = g_strrstr (value, "..");
  if (dots == NULL)
    return NULL;
  hi_start = dots + 2;
  hi_len = strlen (hi_start);
  if (hi_len == 0 || hi_len > 9)
    return NULL;
  for (gsize i = 0; i < hi_len; i++)
    if (!g_ascii_isdigit (hi_start[i]))
      return NULL;
  lo_start = dots;
  while (lo_start > value && g_ascii_isdigit (lo_start[-1]))
    lo_start--;
  lo_len = dots - lo_start;
  if (lo_len == 0 || lo_len > 9)
    return NULL;

  lo = g_ascii_strtoull (lo_start, NULL, 10);
  hi = g_ascii_strtoull (hi_start, NULL, 10);
  if (hi < lo)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   "the shard range %s runs backwards", lo_start);
      return NULL;
    }
  if (hi - lo + 1 > MAX_SHARDS)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   "the shard range %s has more than %d shards", lo_start, MAX_SHARDS);
      return NULL;
    }

  /* "01..10" pads to the width of the lower bound; "1..10" does not pad. */
  width = lo_start[0] == '0' && lo_len > 1 ? lo_len : (lo_len == hi_len ? lo_len : 0);
  prefix = g_strndup (value, lo_start - value);
  builder = g_strv_builder_new ();
  for (guint64 n = lo; n <= hi; n++)
    {
      g_autofree char *key = g_strdup_printf ("%s%0*" G_GUINT64_FORMAT, prefix, (int) width, n);

      g_strv_builder_add (builder, key);
    }
  return g_strv_builder_end (builder);
}

GPtrArray *
dyn_expr_expand_sharded_key_condition (DynExprNode         *key_condition,
                                       const DynKeySchema  *keys,
                                       GError             **error)
{
  DynExprNode *pk = NULL;
  DynExprNode *value_node;
  g_auto(GStrv) shards = NULL;
  GError *local_error = NULL;
  GPtrArray *result;
  guint vi;

  g_return_val_if_fail (key_condition != NULL && keys != NULL, NULL);

  if (!analyse_key_condition (key_condition, keys, &pk, NULL, error))
    return NULL;
  vi = ((DynExprNode *) pk->children->pdata[0])->kind == DYN_EXPR_VALUE ? 0 : 1;
  value_node = pk->children->pdata[vi];
  if (value_node->value == NULL || dyn_value_get_value_type (value_node->value) != DYN_VALUE_S)
    return NULL;
  shards = dyn_expr_expand_shard_range (dyn_value_get_string (value_node->value), &local_error);
  if (shards == NULL)
    {
      if (local_error != NULL)
        g_propagate_error (error, local_error);
      return NULL;
    }

  result = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_expr_node_unref);
  for (guint i = 0; shards[i] != NULL; i++)
    {
      g_autoptr(DynValue) v = dyn_value_new_string (shards[i]);
      DynExprNode *copy = dyn_expr_node_copy (key_condition);
      DynExprNode *cpk = NULL;

      analyse_key_condition (copy, keys, &cpk, NULL, NULL);
      dyn_expr_node_set_value (cpk->children->pdata[vi], v);
      g_ptr_array_add (result, copy);
    }
  return result;
}
