/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr"

/* DynamoDB's rules for each kind of expression, checked before a request is
 * sent: operand kinds, functions, key conditions against the table's keys,
 * overlapping update paths, limits. */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"

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
  return dyn_key_schema_has_attribute (keys, name);
}

static gboolean
check_path (Checker      *c,
            DynExprNode  *node,
            GError      **error)
{
  if (node->kind != DYN_EXPR_PATH)
    {
      _dyn_expr_set_error_at (error, node->offset, _("expected an attribute path"));
      return FALSE;
    }
  if (node->path == NULL || node->path->segments->len == 0 || dyn_expr_path_is_index (node->path, 0))
    {
      _dyn_expr_set_error_at (error, node->offset, _("a path must start with an attribute name"));
      return FALSE;
    }
  if (node->path->segments->len > DYN_EXPR_MAX_PATH_DEPTH)
    {
      _dyn_expr_set_error_at (error, node->offset,
                              /* Translators: %u is how deep the path is nested, %d DynamoDB's limit (32) */
                              _("the document path is nested %u levels deep; the limit is %d"),
                              node->path->segments->len, DYN_EXPR_MAX_PATH_DEPTH);
      return FALSE;
    }
  for (guint i = 0; i < node->path->segments->len; i++)
    {
      const char *name = dyn_expr_path_get_name (node->path, i, NULL);

      if (name != NULL && name[0] == '\0')
        {
          _dyn_expr_set_error_at (error, node->offset, _("an attribute name cannot be empty"));
          return FALSE;
        }
    }
  if (c->role == DYN_EXPR_ROLE_FILTER && is_key_name (c->keys, path_first_name (node->path)))
    {
      _dyn_expr_set_error_at (error, node->offset,
                              /* Translators: Query is the operation; %s is an attribute name */
                              _("a Query's filter cannot use the key attribute %s; put it in the key condition"),
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
      _dyn_expr_set_error_at (error, node->offset, _("expected a value"));
      return FALSE;
    }
  if (node->value == NULL && node->placeholder == NULL)
    {
      _dyn_expr_set_error_at (error, node->offset, _("a value is missing"));
      return FALSE;
    }
  return TRUE;
}

/* The type of an operand when it is known before any item is read: a
 * value's, size()'s (N), arithmetic's (N), list_append's (L). */
static gboolean
operand_type (DynExprNode  *node,
              DynValueType *type)
{
  switch (node->kind)
    {
    case DYN_EXPR_VALUE:
      if (node->value == NULL)
        return FALSE;
      *type = dyn_value_get_value_type (node->value);
      return TRUE;
    case DYN_EXPR_SIZE:
    case DYN_EXPR_PLUS:
    case DYN_EXPR_MINUS:
      *type = DYN_VALUE_N;
      return TRUE;
    case DYN_EXPR_LIST_APPEND:
      *type = DYN_VALUE_L;
      return TRUE;
    default:
      return FALSE;
    }
}

/* DynamoDB refuses an operand whose known type the operator does not take:
 * "Incorrect operand type for operator or function". */
static gboolean
check_operand_type (DynExprNode         *node,
                    const char          *op,
                    const DynValueType  *allowed,
                    guint                n_allowed,
                    GError             **error)
{
  DynValueType type;

  if (!operand_type (node, &type))
    return TRUE;
  for (guint i = 0; i < n_allowed; i++)
    if (allowed[i] == type)
      return TRUE;
  _dyn_expr_set_error_at (error, node->offset,
                          /* Translators: the first %s is an operator or function (<, BETWEEN, size, +…),
                           * the second a DynamoDB type (L, M, BOOL…) */
                          _("%s cannot take an operand of type %s"), op, dyn_value_type_to_string (type));
  return FALSE;
}

static const DynValueType scalar_types[] = { DYN_VALUE_S, DYN_VALUE_N, DYN_VALUE_B };
static const DynValueType prefix_types[] = { DYN_VALUE_S, DYN_VALUE_B };
static const DynValueType sized_types[] = {
  DYN_VALUE_S, DYN_VALUE_B, DYN_VALUE_L, DYN_VALUE_M, DYN_VALUE_SS, DYN_VALUE_NS, DYN_VALUE_BS,
};
static const DynValueType number_types[] = { DYN_VALUE_N };
static const DynValueType list_types[] = { DYN_VALUE_L };

/* The first operand of a comparison or function and another that names the
 * same document path: DynamoDB refuses "a = a", "a BETWEEN :lo AND a",
 * "contains(a, a)". */
static gboolean
check_distinct (DynExprNode  *node,
                const char   *op,
                GError      **error)
{
  DynExprNode *first = node->children->pdata[0];

  if (first->kind != DYN_EXPR_PATH)
    return TRUE;
  for (guint i = 1; i < node->children->len; i++)
    {
      DynExprNode *other = node->children->pdata[i];

      if (other->kind == DYN_EXPR_PATH && dyn_expr_path_equal (first->path, other->path))
        {
          g_autofree char *text = dyn_expr_path_to_string (first->path);

          _dyn_expr_set_error_at (error, other->offset,
                                  /* Translators: %s is an operator or function (=, BETWEEN, contains…),
                                   * the second %s a document path */
                                  _("%s compares %s with itself: its first operand must differ from the others"),
                                  op, text);
          return FALSE;
        }
    }
  return TRUE;
}

/* Condition operands: a path, a value or size(operand). */
static gboolean
check_cond_operand (Checker      *c,
                    DynExprNode  *node,
                    guint         depth,
                    GError      **error)
{
  if (depth > DYN_EXPR_MAX_NESTING)
    {
      _dyn_expr_set_error_at (error, node->offset, _("the expression is nested too deeply"));
      return FALSE;
    }
  switch (node->kind)
    {
    case DYN_EXPR_PATH:
      return check_path (c, node, error);
    case DYN_EXPR_VALUE:
      return check_value (node, error);
    case DYN_EXPR_SIZE:
      return _dyn_expr_check_arity (node, 1, 1, error) &&
             check_cond_operand (c, node->children->pdata[0], depth + 1, error) &&
             check_operand_type (node->children->pdata[0], "size", sized_types, G_N_ELEMENTS (sized_types),
                                 error);
    default:
      _dyn_expr_set_error_at (error, node->offset,
                              _("a condition compares attribute paths, values and size()"));
      return FALSE;
    }
}

static gboolean
check_operands (Checker      *c,
                DynExprNode  *node,
                guint         depth,
                GError      **error)
{
  for (guint i = 0; i < node->children->len; i++)
    if (!check_cond_operand (c, node->children->pdata[i], depth + 1, error))
      return FALSE;
  return TRUE;
}

/* BETWEEN's bounds, when both are values: of one type, the lower not
 * above the upper. */
static gboolean
check_between_bounds (DynExprNode  *node,
                      GError      **error)
{
  DynExprNode *lo = node->children->pdata[1];
  DynExprNode *hi = node->children->pdata[2];

  if (lo->kind != DYN_EXPR_VALUE || hi->kind != DYN_EXPR_VALUE || lo->value == NULL || hi->value == NULL)
    return TRUE;
  if (dyn_value_get_value_type (lo->value) != dyn_value_get_value_type (hi->value))
    {
      _dyn_expr_set_error_at (error, hi->offset,
                              /* Translators: BETWEEN is a keyword; the %s are DynamoDB types (S, N, B) */
                              _("BETWEEN's bounds must have the same type, not %s and %s"),
                              dyn_value_type_to_string (dyn_value_get_value_type (lo->value)),
                              dyn_value_type_to_string (dyn_value_get_value_type (hi->value)));
      return FALSE;
    }
  if (dyn_value_compare (lo->value, hi->value) > 0)
    {
      _dyn_expr_set_error_at (error, lo->offset,
                              /* Translators: BETWEEN and AND are keywords */
                              _("BETWEEN's lower bound is greater than its upper bound (write the smaller "
                                "value first)"));
      return FALSE;
    }
  return TRUE;
}

/* Operators as DynamoDB counts them in a condition: each comparison,
 * BETWEEN, IN, function (size too), NOT, and each AND or OR joining two
 * conditions. */
static guint
count_operators (DynExprNode *node)
{
  guint n = 0;

  switch (node->kind)
    {
    case DYN_EXPR_PATH:
    case DYN_EXPR_VALUE:
      return 0;
    case DYN_EXPR_AND:
    case DYN_EXPR_OR:
      n = node->children->len > 0 ? node->children->len - 1 : 0;
      break;
    default:
      n = 1;
      break;
    }
  for (guint i = 0; i < node->children->len; i++)
    n += count_operators (node->children->pdata[i]);
  return n;
}

static gboolean
check_condition (Checker      *c,
                 DynExprNode  *node,
                 guint         depth,
                 GError      **error)
{
  if (depth > DYN_EXPR_MAX_NESTING)
    {
      _dyn_expr_set_error_at (error, node->offset, _("the expression is nested too deeply"));
      return FALSE;
    }
  if (depth == 0)
    {
      guint n = count_operators (node);

      if (n > DYN_EXPR_MAX_UPDATE_OPS)
        {
          _dyn_expr_set_error_at (error, node->offset,
                                  /* Translators: %u is how many the condition uses, %d DynamoDB's limit (300) */
                                  _("the condition uses %u operators and functions; the limit is %d"),
                                  n, DYN_EXPR_MAX_UPDATE_OPS);
          return FALSE;
        }
    }

  switch (node->kind)
    {
    case DYN_EXPR_COMPARE:
      {
        const char *op;

        if (!_dyn_expr_check_arity (node, 2, 2, error))
          return FALSE;
        if ((guint) node->op > DYN_EXPR_OP_GE)
          {
            _dyn_expr_set_error_at (error, node->offset, _("unknown comparison operator"));
            return FALSE;
          }
        op = dyn_expr_compare_op_to_string (node->op);
        if (!check_operands (c, node, depth, error) || !check_distinct (node, op, error))
          return FALSE;
        if (node->op != DYN_EXPR_OP_EQ && node->op != DYN_EXPR_OP_NE)
          for (guint i = 0; i < 2; i++)
            if (!check_operand_type (node->children->pdata[i], op, scalar_types, G_N_ELEMENTS (scalar_types),
                                     error))
              return FALSE;
        return TRUE;
      }

    case DYN_EXPR_BETWEEN:
      if (!_dyn_expr_check_arity (node, 3, 3, error) || !check_operands (c, node, depth, error) ||
          !check_distinct (node, "BETWEEN", error))
        return FALSE;
      for (guint i = 0; i < 3; i++)
        if (!check_operand_type (node->children->pdata[i], "BETWEEN", scalar_types,
                                 G_N_ELEMENTS (scalar_types), error))
          return FALSE;
      return check_between_bounds (node, error);

    case DYN_EXPR_IN:
      if (node->children->len < 2)
        {
          _dyn_expr_set_error_at (error, node->offset, _("IN needs at least one value"));
          return FALSE;
        }
      if (node->children->len - 1 > DYN_EXPR_MAX_IN_OPERANDS)
        {
          /* Translators: IN is a keyword; %u is the number of operands, %d DynamoDB's limit (100) */
          _dyn_expr_set_error_at (error, node->offset, _("IN has %u operands; the limit is %d"),
                                  node->children->len - 1, DYN_EXPR_MAX_IN_OPERANDS);
          return FALSE;
        }
      return check_operands (c, node, depth, error) && check_distinct (node, "IN", error);

    case DYN_EXPR_ATTRIBUTE_EXISTS:
    case DYN_EXPR_ATTRIBUTE_NOT_EXISTS:
      return _dyn_expr_check_arity (node, 1, 1, error) && check_path (c, node->children->pdata[0], error);

    case DYN_EXPR_ATTRIBUTE_TYPE:
      {
        DynExprNode *t;

        if (!_dyn_expr_check_arity (node, 2, 2, error) || !check_operands (c, node, depth, error))
          return FALSE;
        t = node->children->pdata[1];
        if (t->kind != DYN_EXPR_VALUE)
          {
            _dyn_expr_set_error_at (error, t->offset, _("attribute_type's type must be a value"));
            return FALSE;
          }
        if (t->value != NULL)
          {
            DynValueType type;

            if (dyn_value_get_value_type (t->value) != DYN_VALUE_S ||
                !dyn_value_type_from_string (dyn_value_get_string (t->value), &type))
              {
                _dyn_expr_set_error_at (error, t->offset,
                                        _("attribute_type's type must be one of S, SS, N, NS, B, BS, BOOL, "
                                          "NULL, L, M"));
                return FALSE;
              }
          }
        return TRUE;
      }

    case DYN_EXPR_BEGINS_WITH:
      if (!_dyn_expr_check_arity (node, 2, 2, error) || !check_operands (c, node, depth, error) ||
          !check_distinct (node, "begins_with", error))
        return FALSE;
      /* In a key condition the key's rules say it better ("… the number sort key …"). */
      for (guint i = 0; i < 2 && c->role != DYN_EXPR_ROLE_KEY_CONDITION; i++)
        if (!check_operand_type (node->children->pdata[i], "begins_with", prefix_types,
                                 G_N_ELEMENTS (prefix_types), error))
          return FALSE;
      return TRUE;

    case DYN_EXPR_CONTAINS:
      return _dyn_expr_check_arity (node, 2, 2, error) && check_operands (c, node, depth, error) &&
             check_distinct (node, "contains", error);

    case DYN_EXPR_AND:
    case DYN_EXPR_OR:
      if (node->children->len == 0)
        {
          /* Translators: %s is AND or OR, a keyword */
          _dyn_expr_set_error_at (error, node->offset, _("empty %s group"),
                                  node->kind == DYN_EXPR_AND ? "AND" : "OR");
          return FALSE;
        }
      for (guint i = 0; i < node->children->len; i++)
        if (!check_condition (c, node->children->pdata[i], depth + 1, error))
          return FALSE;
      return TRUE;

    case DYN_EXPR_NOT:
      return _dyn_expr_check_arity (node, 1, 1, error) &&
             check_condition (c, node->children->pdata[0], depth + 1, error);

    default:
      _dyn_expr_set_error_at (error, node->offset, _("expected a condition"));
      return FALSE;
    }
}

/* Operands of SET's right-hand side. @top: the value itself, where + and -
 * and list_append may stand (list_append may not be nested in another
 * function or in arithmetic). */
static gboolean
check_set_operand (Checker      *c,
                   DynExprNode  *node,
                   gboolean      top,
                   guint         depth,
                   GError      **error)
{
  if (depth > DYN_EXPR_MAX_NESTING)
    {
      _dyn_expr_set_error_at (error, node->offset, _("the expression is nested too deeply"));
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
      if (!_dyn_expr_check_arity (node, 2, 2, error))
        return FALSE;
      if (((DynExprNode *) node->children->pdata[0])->kind != DYN_EXPR_PATH)
        {
          _dyn_expr_set_error_at (error, ((DynExprNode *) node->children->pdata[0])->offset,
                                  /* Translators: %s is a function such as attribute_exists */
                                  _("%s requires a document path, not a value"), "if_not_exists");
          return FALSE;
        }
      return check_path (c, node->children->pdata[0], error) &&
             check_set_operand (c, node->children->pdata[1], FALSE, depth + 1, error) &&
             check_distinct (node, "if_not_exists", error);
    case DYN_EXPR_LIST_APPEND:
      c->update_ops++;
      if (!top)
        {
          _dyn_expr_set_error_at (error, node->offset,
                                  /* Translators: keep list_append and SET */
                                  _("list_append cannot be used inside another function or + and -: it must be "
                                    "the whole SET value"));
          return FALSE;
        }
      if (!_dyn_expr_check_arity (node, 2, 2, error))
        return FALSE;
      for (guint i = 0; i < 2; i++)
        if (!check_set_operand (c, node->children->pdata[i], FALSE, depth + 1, error) ||
            !check_operand_type (node->children->pdata[i], "list_append", list_types, 1, error))
          return FALSE;
      return TRUE;
    case DYN_EXPR_PLUS:
    case DYN_EXPR_MINUS:
      {
        const char *op = node->kind == DYN_EXPR_PLUS ? "+" : "-";
        DynExprNode *a, *b;

        if (!top)
          {
            _dyn_expr_set_error_at (error, node->offset,
                                    _("a SET value holds at most one + or -, at its top level"));
            return FALSE;
          }
        c->update_ops++;
        if (!_dyn_expr_check_arity (node, 2, 2, error))
          return FALSE;
        for (guint i = 0; i < 2; i++)
          if (!check_set_operand (c, node->children->pdata[i], FALSE, depth + 1, error) ||
              !check_operand_type (node->children->pdata[i], op, number_types, 1, error))
            return FALSE;
        a = node->children->pdata[0];
        b = node->children->pdata[1];
        if (a->kind == DYN_EXPR_VALUE && b->kind == DYN_EXPR_VALUE && a->value != NULL && b->value != NULL)
          {
            g_autoptr(GError) local_error = NULL;
            g_autofree char *result = dyn_number_add (dyn_value_get_number (a->value),
                                                      dyn_value_get_number (b->value),
                                                      node->kind == DYN_EXPR_MINUS, &local_error);

            if (result == NULL)
              {
                _dyn_expr_set_error_at (error, node->offset, "%s", local_error->message);
                return FALSE;
              }
          }
        return TRUE;
      }
    default:
      _dyn_expr_set_error_at (error, node->offset, _("not allowed in a SET value"));
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
      if (!_dyn_expr_segment_equal (sa, sb))
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
              /* Translators: both %s are document paths such as a.b[0] */
              _dyn_expr_set_error_at (error, b->offset, _("the document paths %s and %s conflict"), sa, sb);
            else if (dyn_expr_path_equal (a->path, b->path))
              /* Translators: %s is a document path such as a.b[0] */
              _dyn_expr_set_error_at (error, b->offset, _("the document path %s is used twice"), sb);
            else
              /* Translators: both %s are document paths such as a and a.b */
              _dyn_expr_set_error_at (error, b->offset, _("the document paths %s and %s overlap"), sa, sb);
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
      _dyn_expr_set_error_at (error, node->offset, _("expected an update expression"));
      return FALSE;
    }
  if (node->children->len == 0)
    {
      _dyn_expr_set_error_at (error, node->offset, _("empty update expression"));
      return FALSE;
    }

  for (guint i = 0; i < node->children->len; i++)
    {
      DynExprNode *action = node->children->pdata[i];
      DynExprNode *target;
      const char *top;

      if (action->kind < DYN_EXPR_SET || action->kind > DYN_EXPR_DELETE)
        {
          _dyn_expr_set_error_at (error, action->offset,
                                  /* Translators: SET, REMOVE, ADD and DELETE are keywords */
                                  _("an update holds only SET, REMOVE, ADD and DELETE actions"));
          return FALSE;
        }
      if (!_dyn_expr_check_arity (action, action->kind == DYN_EXPR_REMOVE ? 1 : 2,
                        action->kind == DYN_EXPR_REMOVE ? 1 : 2, error))
        return FALSE;
      target = action->children->pdata[0];
      if (!check_path (c, target, error))
        return FALSE;
      top = path_first_name (target->path);
      if (is_key_name (c->keys, top))
        {
          _dyn_expr_set_error_at (error, target->offset,
                                  /* Translators: %s is an attribute name */
                                  _("the key attribute %s cannot be updated"), top);
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
                /* Translators: %s is ADD or DELETE, a keyword */
                _dyn_expr_set_error_at (error, v->offset, _("%s takes a value, not an attribute path"), what);
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
                                            /* Translators: ADD is a keyword; %s a DynamoDB type (S, L, M …) */
                                            _("ADD takes a number or a set, not a value of type %s"),
                                            dyn_value_type_to_string (t));
                    return FALSE;
                  }
                if (action->kind == DYN_EXPR_DELETE && !is_set)
                  {
                    _dyn_expr_set_error_at (error, v->offset,
                                            /* Translators: DELETE is a keyword; %s a DynamoDB type (S, L, M …) */
                                            _("DELETE takes a set, not a value of type %s"),
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
                              /* Translators: %u is how many the update uses, %d DynamoDB's limit (300) */
                              _("the update uses %u operators and functions; the limit is %d"),
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
      _dyn_expr_set_error_at (error, node->offset, _("expected a projection (a list of paths)"));
      return FALSE;
    }
  if (node->children->len == 0)
    {
      _dyn_expr_set_error_at (error, node->offset, _("empty projection"));
      return FALSE;
    }
  for (guint i = 0; i < node->children->len; i++)
    if (!check_path (c, node->children->pdata[i], error))
      return FALSE;
  return check_no_overlap (node->children, error);
}

void
_dyn_expr_collect_conjuncts (DynExprNode *node,
                             GPtrArray   *out)
{
  if (node->kind == DYN_EXPR_AND)
    {
      for (guint i = 0; i < node->children->len; i++)
        _dyn_expr_collect_conjuncts (node->children->pdata[i], out);
    }
  else
    g_ptr_array_add (out, node);
}

/* The key attribute a key-condition term is about, and the value nodes. */
gboolean
_dyn_expr_check_key_value (DynExprNode   *v,
                           const char    *key,
                           DynValueType   key_type,
                           GError       **error)
{
  if (v->kind != DYN_EXPR_VALUE)
    {
      _dyn_expr_set_error_at (error, v->offset,
                              /* Translators: %s is a key attribute's name */
                              _("a key condition compares the key %s with a value, not with an attribute"), key);
      return FALSE;
    }
  if (v->value != NULL && dyn_value_get_value_type (v->value) != key_type)
    {
      const char *type = dyn_value_type_to_string (dyn_value_get_value_type (v->value));

      if (key_type == DYN_VALUE_N)
        /* Translators: the first %s is a key attribute, the second a DynamoDB type (S, B, L …) */
        _dyn_expr_set_error_at (error, v->offset, _("the key %s is a number, but the value is of type %s"),
                                key, type);
      else if (key_type == DYN_VALUE_B)
        /* Translators: the first %s is a key attribute, the second a DynamoDB type (S, N, L …) */
        _dyn_expr_set_error_at (error, v->offset, _("the key %s is a binary, but the value is of type %s"),
                                key, type);
      else
        /* Translators: the first %s is a key attribute, the second a DynamoDB type (N, B, L …) */
        _dyn_expr_set_error_at (error, v->offset, _("the key %s is a string, but the value is of type %s"),
                                key, type);
      return FALSE;
    }
  if (v->value != NULL &&
      ((key_type == DYN_VALUE_S && dyn_value_get_string_length (v->value) == 0) ||
       (key_type == DYN_VALUE_B && g_bytes_get_size (dyn_value_get_binary (v->value)) == 0)))
    {
      _dyn_expr_set_error_at (error, v->offset,
                              /* Translators: %s is a key attribute's name */
                              _("a value compared with the key %s cannot be empty"), key);
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
      dyn_key_schema_same_partition (&table->table.keys, keys) &&
      g_strcmp0 (table->table.keys.sort_key, attribute) == 0)
    return &table->table;
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynIndexInfo *info = table->indexes->pdata[i];

      if (info->kind == DYN_INDEX_LOCAL && &info->keys != keys &&
          dyn_key_schema_same_partition (&info->keys, keys) &&
          g_strcmp0 (info->keys.sort_key, attribute) == 0)
        return info;
    }
  return NULL;
}

static gboolean
is_equality (DynExprNode *term)
{
  return term->kind == DYN_EXPR_COMPARE && term->op == DYN_EXPR_OP_EQ;
}

/* The names of the sort attributes @terms[0 .. @before) that have no term
 * (@missing) or a term that is not an equality, joined by ", "; NULL when
 * there is none. */
static char *
sort_names_lacking (const DynKeySchema  *keys,
                    DynExprNode * const *terms,
                    guint                before,
                    gboolean             missing)
{
  GString *out = NULL;

  for (guint j = 0; j < before; j++)
    {
      if (missing ? terms[j] != NULL : (terms[j] == NULL || is_equality (terms[j])))
        continue;
      if (out == NULL)
        out = g_string_new (NULL);
      else
        g_string_append (out, ", ");
      g_string_append (out, dyn_key_schema_get_sort_key (keys, j, NULL));
    }
  return out ? g_string_free (out, FALSE) : NULL;
}

/* @hints (nullable): the table @keys belong to; a non-key attribute that is
 * the sort key of its table or of a local secondary index is named so.
 * @partition_terms / @sort_terms (each DYN_KEY_MAX_ATTRIBUTES long, optional)
 * get the term of each key attribute in key order, NULL for one without.
 *
 * A multi-attribute key (global secondary indexes): every partition
 * attribute needs an equality; sort attributes are used left to right, each
 * but the last used one with an equality, the last one with any key
 * condition; one condition per attribute. DynamoDB reports a gap before a
 * sort attribute with a condition first (from the left), then the
 * non-equalities before the last one used. */
static gboolean
analyse_key_condition_full (DynExprNode         *node,
                            const DynKeySchema  *keys,
                            const DynTableKeys  *hints,
                            DynExprNode        **partition_terms,
                            DynExprNode        **sort_terms,
                            GError             **error)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  DynExprNode *pk[DYN_KEY_MAX_ATTRIBUTES] = { NULL };
  DynExprNode *sk[DYN_KEY_MAX_ATTRIBUTES] = { NULL };
  guint n_partition = dyn_key_schema_get_n_partition_keys (keys);
  guint n_sort = dyn_key_schema_get_n_sort_keys (keys);
  gint last_sort = -1;

  _dyn_expr_collect_conjuncts (node, terms);
  for (guint i = 0; i < terms->len; i++)
    {
      DynExprNode *t = terms->pdata[i];
      DynExprNode *pathn = NULL;
      const char *name;
      guint path_index = 0;
      gboolean is_sort = FALSE;
      guint position = 0;
      DynValueType type = DYN_VALUE_S;

      switch (t->kind)
        {
        case DYN_EXPR_COMPARE:
          if (t->op == DYN_EXPR_OP_NE)
            {
              _dyn_expr_set_error_at (error, t->offset, _("a key condition cannot use <>"));
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
          _dyn_expr_set_error_at (error, t->offset, _("a key condition cannot use OR"));
          return FALSE;
        case DYN_EXPR_NOT:
          _dyn_expr_set_error_at (error, t->offset, _("a key condition cannot use NOT"));
          return FALSE;
        case DYN_EXPR_IN:
          _dyn_expr_set_error_at (error, t->offset, _("a key condition cannot use IN"));
          return FALSE;
        default:
          _dyn_expr_set_error_at (error, t->offset,
                                  _("a key condition allows only =, <, <=, >, >=, BETWEEN and begins_with"));
          return FALSE;
        }

      if (pathn->kind == DYN_EXPR_SIZE)
        {
          _dyn_expr_set_error_at (error, pathn->offset, _("a key condition cannot use size()"));
          return FALSE;
        }
      if (pathn->kind != DYN_EXPR_PATH)
        {
          _dyn_expr_set_error_at (error, t->offset, _("a key condition needs a key attribute on one side"));
          return FALSE;
        }
      if (pathn->path->segments->len != 1)
        {
          _dyn_expr_set_error_at (error, pathn->offset, _("a key condition cannot use nested paths"));
          return FALSE;
        }
      name = path_first_name (pathn->path);
      if (name == NULL)
        {
          /* Unresolved #placeholder: nothing more can be known. */
          _dyn_expr_set_error_at (error, pathn->offset,
                                  /* Translators: %s is a name placeholder such as #k */
                                  _("the key condition's attribute %s is not defined"),
                                  dyn_expr_path_get_name (pathn->path, 0, NULL));
          return FALSE;
        }

      if (!dyn_key_schema_find (keys, name, &is_sort, &position, &type))
        {
          const DynIndexInfo *other = source_with_sort_key (hints, keys, name);

          if (other != NULL && other->kind == DYN_INDEX_LOCAL)
            _dyn_expr_set_error_at (error, pathn->offset,
                                    /* Translators: the first %s is an attribute, the second an index */
                                    _("%s is not a key attribute; move it to the filter, or query "
                                      "the local secondary index %s, whose sort key it is"),
                                    name, other->name);
          else if (other != NULL)
            _dyn_expr_set_error_at (error, pathn->offset,
                                    /* Translators: %s is an attribute */
                                    _("%s is not a key attribute of the index; move it to the filter, "
                                      "or query the table, whose sort key it is"), name);
          else
            _dyn_expr_set_error_at (error, pathn->offset,
                                    /* Translators: %s is an attribute */
                                    _("%s is not a key attribute; move it to the filter"), name);
          return FALSE;
        }

      if (!is_sort)
        {
          if (!is_equality (t))
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      /* Translators: %s is the partition key's name */
                                      _("the partition key %s must be compared with ="), name);
              return FALSE;
            }
          if (pk[position] != NULL)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      /* Translators: %s is the partition key's name */
                                      _("the partition key %s is used twice"), name);
              return FALSE;
            }
          if (!_dyn_expr_check_key_value (t->children->pdata[1 - path_index], name, type, error))
            return FALSE;
          pk[position] = t;
        }
      else
        {
          if (sk[position] != NULL)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      /* Translators: %s is the sort key's name */
                                      _("a key condition allows one condition on the sort key %s"), name);
              return FALSE;
            }
          if (t->kind == DYN_EXPR_BEGINS_WITH && type == DYN_VALUE_N)
            {
              _dyn_expr_set_error_at (error, t->offset,
                                      /* Translators: begins_with is a function; %s the sort key's name */
                                      _("begins_with cannot be used on the number sort key %s"), name);
              return FALSE;
            }
          for (guint j = 0; j < t->children->len; j++)
            if (j != path_index && !_dyn_expr_check_key_value (t->children->pdata[j], name, type, error))
              return FALSE;
          sk[position] = t;
          last_sort = MAX (last_sort, (gint) position);
        }
    }

  if (n_partition <= 1 && pk[0] == NULL)
    {
      _dyn_expr_set_error_at (error, node->offset,
                              /* Translators: %s is the partition key's name */
                              _("a key condition needs an equality on the partition key %s"),
                              keys->partition_key);
      return FALSE;
    }
  if (n_partition > 1)
    {
      g_autoptr(GString) missing = NULL;

      for (guint j = 0; j < n_partition; j++)
        if (pk[j] == NULL)
          {
            if (missing == NULL)
              missing = g_string_new (NULL);
            else
              g_string_append (missing, ", ");
            g_string_append (missing, dyn_key_schema_get_partition_key (keys, j, NULL));
          }
      if (missing != NULL)
        {
          _dyn_expr_set_error_at (error, node->offset,
                                  /* Translators: %s lists partition key attributes: “region, tenant” */
                                  _("a key condition needs an equality on each partition key attribute of "
                                    "the index; there is none on %s"), missing->str);
          return FALSE;
        }
    }
  for (guint j = 0; n_sort > 1 && j < n_sort; j++)
    {
      g_autofree char *gap = sk[j] != NULL ? sort_names_lacking (keys, sk, j, TRUE) : NULL;

      if (gap != NULL)
        {
          _dyn_expr_set_error_at (error, sk[j]->offset,
                                  /* Translators: the first %s is a sort key attribute, the second lists the
                                   * ones before it that the key condition leaves out: “r1, r2” */
                                  _("the sort key attribute %s has a condition, so each one before it needs "
                                    "an equality; there is none on %s"),
                                  dyn_key_schema_get_sort_key (keys, j, NULL), gap);
          return FALSE;
        }
    }
  if (n_sort > 1 && last_sort > 0)
    {
      g_autofree char *ranged = sort_names_lacking (keys, sk, last_sort, FALSE);

      if (ranged != NULL)
        {
          DynExprNode *first = NULL;

          for (gint j = 0; j < last_sort && first == NULL; j++)
            if (!is_equality (sk[j]))
              first = sk[j];
          _dyn_expr_set_error_at (error, first->offset,
                                  /* Translators: the first %s is a sort key attribute, the second lists the
                                   * ones before it compared otherwise than with =: “r1, r2” */
                                  _("the sort key attribute %s has a condition, so each one before it must "
                                    "be compared with =; compared otherwise: %s"),
                                  dyn_key_schema_get_sort_key (keys, last_sort, NULL), ranged);
          return FALSE;
        }
    }

  if (partition_terms != NULL)
    memcpy (partition_terms, pk, sizeof pk);
  if (sort_terms != NULL)
    memcpy (sort_terms, sk, sizeof sk);
  return TRUE;
}

gboolean
_dyn_expr_analyse_key_terms (DynExprNode         *node,
                             const DynKeySchema  *keys,
                             DynExprNode        **partition_terms,
                             DynExprNode        **sort_terms,
                             GError             **error)
{
  return analyse_key_condition_full (node, keys, NULL, partition_terms, sort_terms, error);
}

gboolean
_dyn_expr_analyse_key_condition (DynExprNode         *node,
                                 const DynKeySchema  *keys,
                                 DynExprNode        **pk_term,
                                 DynExprNode        **sk_term,
                                 GError             **error)
{
  DynExprNode *pk[DYN_KEY_MAX_ATTRIBUTES], *sk[DYN_KEY_MAX_ATTRIBUTES];

  if (!analyse_key_condition_full (node, keys, NULL, pk, sk, error))
    return FALSE;
  if (pk_term != NULL)
    *pk_term = pk[0];
  if (sk_term != NULL)
    {
      *sk_term = NULL;
      for (guint j = 0; j < DYN_KEY_MAX_ATTRIBUTES && sk[j] != NULL; j++)
        *sk_term = sk[j];
    }
  return TRUE;
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
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                               _("checking a key condition needs the key schema"));
          return FALSE;
        }
      c.keys = NULL;
      return check_condition (&c, node, 0, error) &&
             _dyn_expr_analyse_key_condition (node, keys, NULL, NULL, error);
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
      /* Translators: %s is an index name */
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("the table has no index %s"), index_name);
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
/* Writes to index keys */

gboolean
dyn_expr_validate_update_indexes (DynExprNode         *update,
                                  const DynTableKeys  *table,
                                  GError             **error)
{
  g_return_val_if_fail (update != NULL, FALSE);

  if (table == NULL || update->kind != DYN_EXPR_UPDATE)
    return TRUE;
  for (guint i = 0; i < update->children->len; i++)
    {
      DynExprNode *action = update->children->pdata[i];
      DynExprNode *target;
      DynExprNode *value;
      const char *name;
      DynValueType type;

      if ((action->kind != DYN_EXPR_SET && action->kind != DYN_EXPR_ADD) || action->children->len != 2)
        continue;
      target = action->children->pdata[0];
      value = action->children->pdata[1];
      name = target->kind == DYN_EXPR_PATH ? dyn_expr_path_get_top_name (target->path) : NULL;
      if (name == NULL || !operand_type (value, &type))
        continue;
      for (guint k = 0; k < table->indexes->len; k++)
        {
          const DynIndexInfo *index = table->indexes->pdata[k];
          DynValueType key_type;

          if (!dyn_key_schema_find (&index->keys, name, NULL, NULL, &key_type))
            continue;
          /* DynamoDB Local takes a local index's sort key of another scalar
           * type, but not a set, list, map, BOOL or NULL. */
          if (index->kind != DYN_INDEX_GLOBAL)
            {
              if (type != DYN_VALUE_S && type != DYN_VALUE_N && type != DYN_VALUE_B)
                {
                  _dyn_expr_set_error_at (error, value->offset,
                                          /* Translators: the first %s is an attribute, the second an index, the
                                           * third a DynamoDB type (L, M, SS …) */
                                          _("%s is a key of the index %s and must be a string, number or binary, "
                                            "not %s"),
                                          name, index->name, dyn_value_type_to_string (type));
                  return FALSE;
                }
            }
          else if (type != key_type)
            {
              _dyn_expr_set_error_at (error, value->offset,
                                      /* Translators: the first %s is an attribute, the second an index, the
                                       * third and fourth DynamoDB types (S, N, B …) */
                                      _("%s is a key of the index %s and must be of type %s, not %s"),
                                      name, index->name, dyn_value_type_to_string (key_type),
                                      dyn_value_type_to_string (type));
              return FALSE;
            }
          if (value->kind == DYN_EXPR_VALUE && value->value != NULL &&
              ((type == DYN_VALUE_S && dyn_value_get_string_length (value->value) == 0) ||
               (type == DYN_VALUE_B && g_bytes_get_size (dyn_value_get_binary (value->value)) == 0)))
            {
              _dyn_expr_set_error_at (error, value->offset,
                                      /* Translators: the first %s is an attribute, the second an index */
                                      _("%s is a key of the index %s and cannot be empty"), name, index->name);
              return FALSE;
            }
        }
    }
  return TRUE;
}
