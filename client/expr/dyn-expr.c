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

  /* The rules also check expressions that were built, not parsed, so a
   * rule's message is one sentence without a position, and the position is
   * added when there is one. */
  if (offset >= 0)
    /* Translators: %s says what is wrong with an expression (“the key attribute pk cannot be
     * updated”), %ld the position of the character where it is */
    g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("%s at character %ld"), msg, offset + 1);
  else
    g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION, msg);
}

gboolean
_dyn_expr_is_dynamodb_name (const char *name)
{
  if (!g_ascii_isalpha (name[0]))
    return FALSE;
  for (const char *p = name + 1; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
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

gboolean
_dyn_expr_segment_equal (const DynExprSegment *a,
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
    if (!_dyn_expr_segment_equal (&g_array_index (a->segments, DynExprSegment, i),
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
      if (row_ops[op].n_values < 0)
        g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                     /* Translators: %u is the number of values given */
                     _("this operator needs at least one value, %u given"), n_values);
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                     /* Translators: %d is the number of values the operator takes, %u the number given */
                     g_dngettext (GETTEXT_PACKAGE, "this operator needs %d value, %u given",
                                  "this operator needs %d values, %u given", row_ops[op].n_values),
                     row_ops[op].n_values, n_values);
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

gboolean
_dyn_expr_check_arity (DynExprNode  *node,
                       guint         min,
                       guint         max,
                       GError      **error)
{
  if (node->children->len < min || node->children->len > max)
    {
      _dyn_expr_set_error_at (error, node->offset,
                              /* Translators: an expression built by a program has a node with %u operands */
                              g_dngettext (GETTEXT_PACKAGE, "malformed expression node (%u operand)",
                                           "malformed expression node (%u operands)", node->children->len),
                              node->children->len);
      return FALSE;
    }
  return TRUE;
}
