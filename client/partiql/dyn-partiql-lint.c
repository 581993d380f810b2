/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * DynamoDB's PartiQL dialect: tokenizer, a recursive-descent parser into a
 * small syntax tree, and the lint rules that run on it against the key
 * schema (see README.md for the rules and what DynamoDB Local answers).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyn-partiql.h"

/* ------------------------------------------------------------------ */
/* Tokens                                                               */

typedef enum {
  T_EOF,
  T_IDENT,     /* a bare word: keyword or name */
  T_QIDENT,    /* "double quoted": a name */
  T_STRING,    /* 'single quoted' */
  T_NUMBER,
  T_PARAM,     /* ? */
  T_ION,       /* `...` */
  T_PUNCT,
  T_BAD,       /* a character PartiQL has no use for, or an unterminated quote */
} TokKind;

typedef struct {
  TokKind  kind;
  gsize    start;
  gsize    end;
  char    *text;   /* decoded name/string; the punctuation itself */
} Tok;

static void
tok_clear (gpointer data)
{
  Tok *t = data;
  g_free (t->text);
}

static char *
unquote (const char *s,
         gsize       len,
         char        q)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == q && i + 1 < len && s[i + 1] == q)
        i++;
      g_string_append_c (out, s[i]);
    }
  return g_string_free (out, FALSE);
}

static GArray *
tokenize (const char *text)
{
  GArray *toks = g_array_new (FALSE, TRUE, sizeof (Tok));
  gsize i = 0;
  gsize n = strlen (text);

  g_array_set_clear_func (toks, tok_clear);
  while (i < n)
    {
      Tok t = { T_BAD, i, i + 1, NULL };
      char c = text[i];

      if (g_ascii_isspace (c))
        {
          i++;
          continue;
        }
      if (c == '-' && text[i + 1] == '-')
        {
          while (i < n && text[i] != '\n')
            i++;
          continue;
        }
      if (c == '/' && text[i + 1] == '*')
        {
          const char *close = strstr (text + i + 2, "*/");
          if (close == NULL)
            {
              t.kind = T_BAD;
              t.end = n;
              t.text = g_strdup ("/*");
              g_array_append_val (toks, t);
              break;
            }
          i = close - text + 2;
          continue;
        }
      if (c == '\'' || c == '"' || c == '`')
        {
          gsize j = i + 1;
          gboolean closed = FALSE;

          while (j < n)
            {
              if (text[j] == c)
                {
                  if (c != '`' && text[j + 1] == c)
                    {
                      j += 2;
                      continue;
                    }
                  closed = TRUE;
                  break;
                }
              j++;
            }
          if (!closed)
            {
              t.kind = T_BAD;
              t.end = n;
              t.text = g_strndup (text + i, 1);
              g_array_append_val (toks, t);
              break;
            }
          t.kind = c == '\'' ? T_STRING : c == '"' ? T_QIDENT : T_ION;
          t.end = j + 1;
          t.text = unquote (text + i + 1, j - i - 1, c);
          g_array_append_val (toks, t);
          i = j + 1;
          continue;
        }
      if (g_ascii_isdigit (c) || (c == '.' && g_ascii_isdigit (text[i + 1])))
        {
          gsize j = i;

          while (g_ascii_isdigit (text[j]))
            j++;
          if (text[j] == '.')
            {
              j++;
              while (g_ascii_isdigit (text[j]))
                j++;
            }
          if ((text[j] == 'e' || text[j] == 'E')
              && (g_ascii_isdigit (text[j + 1])
                  || ((text[j + 1] == '+' || text[j + 1] == '-') && g_ascii_isdigit (text[j + 2]))))
            {
              j += 2;
              while (g_ascii_isdigit (text[j]))
                j++;
            }
          if (g_ascii_isalpha (text[j]) || text[j] == '_')
            {
              /* 0x1F, 12abc: not a PartiQL number */
              while (g_ascii_isalnum (text[j]) || text[j] == '_')
                j++;
              t.kind = T_BAD;
            }
          else
            t.kind = T_NUMBER;
          t.end = j;
          t.text = g_strndup (text + i, j - i);
          g_array_append_val (toks, t);
          i = j;
          continue;
        }
      if (g_ascii_isalpha (c) || c == '_' || c == '$')
        {
          gsize j = i;

          while (g_ascii_isalnum (text[j]) || text[j] == '_' || text[j] == '$')
            j++;
          t.kind = T_IDENT;
          t.end = j;
          t.text = g_strndup (text + i, j - i);
          g_array_append_val (toks, t);
          i = j;
          continue;
        }
      if (c == '?')
        {
          t.kind = T_PARAM;
          t.text = g_strdup ("?");
          g_array_append_val (toks, t);
          i++;
          continue;
        }
      {
        static const char * const two[] = { "<=", ">=", "<>", "!=", "<<", ">>", "||", NULL };
        gboolean found = FALSE;

        for (guint k = 0; two[k] != NULL; k++)
          if (c == two[k][0] && text[i + 1] == two[k][1])
            {
              t.kind = T_PUNCT;
              t.end = i + 2;
              t.text = g_strdup (two[k]);
              found = TRUE;
              break;
            }
        if (!found && strchr ("()[]{},.:;*=<>+-/%", c) != NULL)
          {
            t.kind = T_PUNCT;
            t.text = g_strndup (&c, 1);
            found = TRUE;
          }
        if (!found)
          {
            /* one whole UTF-8 character */
            const char *next = g_utf8_find_next_char (text + i, text + n);
            t.kind = T_BAD;
            t.end = next != NULL ? (gsize) (next - text) : n;
            t.text = g_strndup (text + i, t.end - i);
          }
        g_array_append_val (toks, t);
        i = t.end;
      }
    }
  {
    Tok eof = { T_EOF, n, n, g_strdup ("") };
    g_array_append_val (toks, eof);
  }
  return toks;
}

/* ------------------------------------------------------------------ */
/* Syntax tree                                                          */

typedef enum {
  N_PATH,      /* parts: the names; "[]" for an index step */
  N_STRING,
  N_NUMBER,
  N_PARAM,
  N_BOOL,
  N_NULL,
  N_MISSING,
  N_ION,
  N_LIST,
  N_BAG,
  N_TUPLE,     /* kids: key, value, key, value … */
  N_CALL,      /* name; kids: arguments */
  N_AND,
  N_OR,
  N_NOT,
  N_CMP,       /* name: the operator; kids: left, right */
  N_IN,        /* kids: left, then the elements; n_list elements */
  N_BETWEEN,   /* kids: value, low, high */
  N_IS,        /* kids: value; name: NULL, MISSING, STRING … */
  N_ARITH,     /* name: + - * / % || */
  N_NEG,
  N_LIKE,      /* kids: value, pattern */
  N_SUBQUERY,
} NodeKind;

typedef struct _Node Node;
struct _Node {
  NodeKind   kind;
  gsize      start;
  gsize      end;
  char      *name;
  gboolean   quoted;     /* N_PATH: its first name was "double quoted" */
  GPtrArray *parts;      /* N_PATH */
  GPtrArray *kids;       /* Node* */
  gboolean   in_list;    /* N_IN: the right side was a list/bag, not a parameter */
};

static void
node_free (gpointer data)
{
  Node *node = data;

  if (node == NULL)
    return;
  g_free (node->name);
  g_clear_pointer (&node->parts, g_ptr_array_unref);
  g_clear_pointer (&node->kids, g_ptr_array_unref);
  g_free (node);
}

static Node *
node_new (NodeKind kind,
          gsize    start,
          gsize    end)
{
  Node *node = g_new0 (Node, 1);

  node->kind = kind;
  node->start = start;
  node->end = end;
  node->kids = g_ptr_array_new_with_free_func (node_free);
  return node;
}

static Node *
kid (const Node *node,
     guint       i)
{
  return i < node->kids->len ? node->kids->pdata[i] : NULL;
}

/* ------------------------------------------------------------------ */
/* Statements                                                           */

typedef struct {
  gsize start;
  gsize end;
  Node *target;   /* N_PATH */
  Node *value;    /* NULL for REMOVE */
} Assignment;

typedef struct {
  DynPartiqlKind kind;
  gboolean       exists;        /* EXISTS(SELECT …) of a transaction */
  gsize          start;
  gsize          end;
  gsize          keyword_end;   /* end of SELECT/INSERT/UPDATE/DELETE */
  char          *table;
  char          *index;
  gsize          source_start;
  gsize          source_end;
  Node          *where;
  gsize          where_start;   /* the WHERE keyword */
  Node          *value;         /* INSERT */
  GPtrArray     *assignments;   /* UPDATE: Assignment* */
  GPtrArray     *order_by;      /* Node* (paths) */
  gsize          order_start;
  guint          n_parameters;
  gboolean       syntax_error;
} Statement;

static void
assignment_free (gpointer data)
{
  Assignment *a = data;

  node_free (a->target);
  node_free (a->value);
  g_free (a);
}

static void
statement_free (Statement *st)
{
  g_free (st->table);
  g_free (st->index);
  node_free (st->where);
  node_free (st->value);
  g_clear_pointer (&st->assignments, g_ptr_array_unref);
  g_clear_pointer (&st->order_by, g_ptr_array_unref);
  g_free (st);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Statement, statement_free)

/* ------------------------------------------------------------------ */
/* Diagnostics                                                          */

typedef struct {
  const char            *text;
  GPtrArray             *diags;
  DynPartiqlSchemaFunc   schema_func;
  gpointer               schema_data;
  const char * const    *tables;
} Linter;

static void
position (const char *text,
          gsize       offset,
          guint      *line,
          guint      *column)
{
  guint l = 1;
  guint c = 1;

  for (gsize i = 0; i < offset && text[i] != '\0';)
    {
      if (text[i] == '\n')
        {
          l++;
          c = 1;
          i++;
          continue;
        }
      /* count characters: skip UTF-8 continuation bytes */
      i++;
      while (((guchar) text[i] & 0xC0) == 0x80 && i < offset)
        i++;
      c++;
    }
  *line = l;
  *column = c;
}

static DynPartiqlDiagnostic *
add_diag (Linter             *lint,
          const char         *code,
          DynPartiqlSeverity  severity,
          gsize               start,
          gsize               end,
          char               *message)
{
  DynPartiqlDiagnostic *d = g_new0 (DynPartiqlDiagnostic, 1);

  d->code = code;
  d->severity = severity;
  d->start = start;
  d->end = MAX (end, start);
  d->message = message;
  position (lint->text, start, &d->line, &d->column);
  g_ptr_array_add (lint->diags, d);
  return d;
}

void
dyn_partiql_diagnostic_free (DynPartiqlDiagnostic *self)
{
  if (self == NULL)
    return;
  g_free (self->message);
  g_free (self->fix_label);
  g_free (self->fix_text);
  g_free (self);
}

/* ------------------------------------------------------------------ */
/* Parser                                                               */

#define MAX_DEPTH 100

typedef struct {
  Linter     *lint;      /* NULL: inspect only, no diagnostics */
  GArray     *toks;
  guint       pos;
  guint       end;       /* the statement's end token (a ; or EOF) */
  gboolean    failed;
  guint       depth;
  Statement  *st;
  gboolean    in_where;
} Parser;

static const Tok *
peek_at (Parser *p,
         guint   ahead)
{
  guint i = p->pos + ahead;

  if (i >= p->end)
    i = p->end;
  return &g_array_index (p->toks, Tok, i);
}

static const Tok *
peek (Parser *p)
{
  return peek_at (p, 0);
}

static const Tok *
advance (Parser *p)
{
  const Tok *t = peek (p);

  if (p->pos < p->end)
    p->pos++;
  return t;
}

static gboolean
at_end (Parser *p)
{
  return p->pos >= p->end;
}

static gboolean
is_kw (const Tok  *t,
       const char *kw)
{
  return t->kind == T_IDENT && g_ascii_strcasecmp (t->text, kw) == 0;
}

static gboolean
is_punct (const Tok  *t,
          const char *s)
{
  return t->kind == T_PUNCT && strcmp (t->text, s) == 0;
}

static gboolean
accept_kw (Parser     *p,
           const char *kw)
{
  if (is_kw (peek (p), kw))
    {
      advance (p);
      return TRUE;
    }
  return FALSE;
}

static gboolean
accept_punct (Parser     *p,
              const char *s)
{
  if (is_punct (peek (p), s))
    {
      advance (p);
      return TRUE;
    }
  return FALSE;
}

/* Words that end an expression or start a clause: never a bare attribute name. */
static const char * const reserved[] = {
  "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "IS", "FROM", "WHERE", "ORDER", "GROUP", "BY",
  "HAVING", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "ASC", "DESC", "SET", "REMOVE",
  "RETURNING", "VALUE", "VALUES", "INTO", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER",
  "CROSS", "ON", "AS", "SELECT", "INSERT", "UPDATE", "DELETE", "DISTINCT", "NULL", "MISSING",
  "TRUE", "FALSE", NULL
};

static gboolean
is_reserved (const Tok *t)
{
  if (t->kind != T_IDENT)
    return FALSE;
  for (guint i = 0; reserved[i] != NULL; i++)
    if (g_ascii_strcasecmp (t->text, reserved[i]) == 0)
      return TRUE;
  return FALSE;
}

static const char *
tok_display (const Tok *t)
{
  return t->kind == T_EOF ? NULL : t->text;
}

static void
syntax_error (Parser     *p,
              const Tok  *at,
              const char *expected)
{
  const char *found;

  if (p->failed)
    return;
  p->failed = TRUE;
  p->st->syntax_error = TRUE;
  if (p->lint == NULL)
    return;
  found = tok_display (at);
  if (found == NULL)
    add_diag (p->lint, "syntax", DYN_PARTIQL_ERROR, at->start, at->end,
              /* Translators: %s is what the parser expected: "FROM", "an expression" … */
              g_strdup_printf (_("Syntax error: the statement ends where %s is expected."), expected));
  else
    add_diag (p->lint, "syntax", DYN_PARTIQL_ERROR, at->start, at->end,
              /* Translators: the first %s is the text found, the second what was expected */
              g_strdup_printf (_("Syntax error at “%s”: %s expected."), found, expected));
}

static gboolean
expect_punct (Parser     *p,
              const char *s)
{
  if (accept_punct (p, s))
    return TRUE;
  syntax_error (p, peek (p), s);
  return FALSE;
}

static gboolean
expect_kw (Parser     *p,
           const char *kw)
{
  if (accept_kw (p, kw))
    return TRUE;
  syntax_error (p, peek (p), kw);
  return FALSE;
}

static Node *parse_expr (Parser *p);
static void  skip_to_clause (Parser *p);

static Node *
parse_list (Parser     *p,
            NodeKind    kind,
            const char *close,
            const Tok  *open)
{
  Node *node = node_new (kind, open->start, open->end);

  if (!accept_punct (p, close))
    {
      do
        {
          Node *e = parse_expr (p);
          if (e == NULL)
            {
              node_free (node);
              return NULL;
            }
          g_ptr_array_add (node->kids, e);
        }
      while (accept_punct (p, ","));
      if (!expect_punct (p, close))
        {
          node_free (node);
          return NULL;
        }
    }
  node->end = g_array_index (p->toks, Tok, p->pos - 1).end;
  return node;
}

static Node *
parse_tuple (Parser    *p,
             const Tok *open)
{
  Node *node = node_new (N_TUPLE, open->start, open->end);

  if (!accept_punct (p, "}"))
    {
      do
        {
          Node *k = parse_expr (p);
          Node *v;

          if (k == NULL)
            {
              node_free (node);
              return NULL;
            }
          g_ptr_array_add (node->kids, k);
          if (!expect_punct (p, ":"))
            {
              node_free (node);
              return NULL;
            }
          v = parse_expr (p);
          if (v == NULL)
            {
              node_free (node);
              return NULL;
            }
          g_ptr_array_add (node->kids, v);
        }
      while (accept_punct (p, ","));
      if (!expect_punct (p, "}"))
        {
          node_free (node);
          return NULL;
        }
    }
  node->end = g_array_index (p->toks, Tok, p->pos - 1).end;
  return node;
}

/* A path's further steps: .name ."name" [expr] */
static Node *
parse_path_steps (Parser *p,
                  Node   *node)
{
  for (;;)
    {
      if (is_punct (peek (p), ".")
          && (peek_at (p, 1)->kind == T_IDENT || peek_at (p, 1)->kind == T_QIDENT))
        {
          const Tok *t;

          advance (p);
          t = advance (p);
          g_ptr_array_add (node->parts, g_strdup (t->text));
          node->end = t->end;
        }
      else if (is_punct (peek (p), "["))
        {
          Node *index;

          advance (p);
          index = parse_expr (p);
          if (index == NULL)
            {
              node_free (node);
              return NULL;
            }
          g_ptr_array_add (node->kids, index);
          if (!expect_punct (p, "]"))
            {
              node_free (node);
              return NULL;
            }
          g_ptr_array_add (node->parts, g_strdup ("[]"));
          node->end = g_array_index (p->toks, Tok, p->pos - 1).end;
        }
      else
        return node;
    }
}

/* Skips a parenthesised subquery up to its closing parenthesis. */
static Node *
parse_subquery (Parser    *p,
                const Tok *open)
{
  guint depth = 1;
  Node *node = node_new (N_SUBQUERY, open->start, open->end);

  while (!at_end (p))
    {
      const Tok *t = advance (p);

      if (is_punct (t, "("))
        depth++;
      else if (is_punct (t, ")") && --depth == 0)
        {
          node->end = t->end;
          return node;
        }
    }
  node_free (node);
  syntax_error (p, peek (p), ")");
  return NULL;
}

static Node *
parse_primary (Parser *p)
{
  const Tok *t = peek (p);
  Node *node;

  switch (t->kind)
    {
    case T_STRING:
      advance (p);
      node = node_new (N_STRING, t->start, t->end);
      node->name = g_strdup (t->text);
      return node;
    case T_NUMBER:
      advance (p);
      node = node_new (N_NUMBER, t->start, t->end);
      node->name = g_strdup (t->text);
      return node;
    case T_PARAM:
      advance (p);
      return node_new (N_PARAM, t->start, t->end);
    case T_ION:
      advance (p);
      node = node_new (N_ION, t->start, t->end);
      node->name = g_strdup (t->text);
      return node;
    case T_QIDENT:
      advance (p);
      node = node_new (N_PATH, t->start, t->end);
      node->quoted = TRUE;
      node->parts = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (node->parts, g_strdup (t->text));
      return parse_path_steps (p, node);
    case T_IDENT:
      if (is_kw (t, "TRUE") || is_kw (t, "FALSE"))
        {
          advance (p);
          node = node_new (N_BOOL, t->start, t->end);
          node->name = g_ascii_strup (t->text, -1);
          return node;
        }
      if (is_kw (t, "NULL"))
        {
          advance (p);
          return node_new (N_NULL, t->start, t->end);
        }
      if (is_kw (t, "MISSING"))
        {
          advance (p);
          return node_new (N_MISSING, t->start, t->end);
        }
      if (is_punct (peek_at (p, 1), "("))
        {
          const Tok *open;

          advance (p);
          open = advance (p);
          if (is_kw (peek (p), "SELECT"))
            {
              /* EXISTS(SELECT …) and the like: a subquery */
              node = parse_subquery (p, open);
              if (node != NULL)
                node->start = t->start;
              return node;
            }
          node = node_new (N_CALL, t->start, t->end);
          node->name = g_strdup (t->text);
          if (is_punct (peek (p), "*"))
            {
              /* COUNT(*) */
              const Tok *star = advance (p);
              Node *arg = node_new (N_PATH, star->start, star->end);
              arg->parts = g_ptr_array_new_with_free_func (g_free);
              g_ptr_array_add (arg->parts, g_strdup ("*"));
              g_ptr_array_add (node->kids, arg);
              if (!expect_punct (p, ")"))
                {
                  node_free (node);
                  return NULL;
                }
            }
          else if (!accept_punct (p, ")"))
            {
              accept_kw (p, "DISTINCT");
              do
                {
                  Node *arg = parse_expr (p);
                  if (arg == NULL)
                    {
                      node_free (node);
                      return NULL;
                    }
                  g_ptr_array_add (node->kids, arg);
                }
              while (accept_punct (p, ","));
              if (!expect_punct (p, ")"))
                {
                  node_free (node);
                  return NULL;
                }
            }
          node->end = g_array_index (p->toks, Tok, p->pos - 1).end;
          return node;
        }
      if (is_reserved (t))
        break;
      advance (p);
      node = node_new (N_PATH, t->start, t->end);
      node->parts = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (node->parts, g_strdup (t->text));
      return parse_path_steps (p, node);
    case T_PUNCT:
      if (is_punct (t, "("))
        {
          advance (p);
          if (is_kw (peek (p), "SELECT"))
            return parse_subquery (p, t);
          node = parse_expr (p);
          if (node == NULL)
            return NULL;
          if (!expect_punct (p, ")"))
            {
              node_free (node);
              return NULL;
            }
          return node;
        }
      if (is_punct (t, "["))
        {
          advance (p);
          return parse_list (p, N_LIST, "]", t);
        }
      if (is_punct (t, "<<"))
        {
          advance (p);
          return parse_list (p, N_BAG, ">>", t);
        }
      if (is_punct (t, "{"))
        {
          advance (p);
          return parse_tuple (p, t);
        }
      break;
    case T_BAD:
    case T_EOF:
    default:
      break;
    }
  syntax_error (p, t, _("an expression"));
  return NULL;
}

static Node *
parse_unary (Parser *p)
{
  const Tok *t = peek (p);

  if (is_punct (t, "-") || is_punct (t, "+"))
    {
      Node *operand;
      Node *node;

      advance (p);
      operand = parse_unary (p);
      if (operand == NULL)
        return NULL;
      if (is_punct (t, "+"))
        {
          operand->start = t->start;
          return operand;
        }
      if (operand->kind == N_NUMBER)
        {
          /* a negative number literal */
          char *neg = g_strconcat ("-", operand->name, NULL);
          g_free (operand->name);
          operand->name = neg;
          operand->start = t->start;
          return operand;
        }
      node = node_new (N_NEG, t->start, operand->end);
      g_ptr_array_add (node->kids, operand);
      return node;
    }
  return parse_primary (p);
}

static Node *
binary (NodeKind    kind,
        const char *name,
        Node       *left,
        Node       *right)
{
  Node *node = node_new (kind, left->start, right->end);

  node->name = g_strdup (name);
  g_ptr_array_add (node->kids, left);
  g_ptr_array_add (node->kids, right);
  return node;
}

static Node *
parse_additive (Parser *p)
{
  Node *left = parse_unary (p);

  while (left != NULL)
    {
      const Tok *t = peek (p);
      Node *right;

      if (!(is_punct (t, "+") || is_punct (t, "-") || is_punct (t, "||") || is_punct (t, "*")
            || is_punct (t, "/") || is_punct (t, "%")))
        break;
      advance (p);
      right = parse_unary (p);
      if (right == NULL)
        {
          node_free (left);
          return NULL;
        }
      left = binary (N_ARITH, t->text, left, right);
    }
  return left;
}

static Node *
parse_comparison (Parser *p)
{
  static const char * const ops[] = { "=", "<>", "!=", "<", "<=", ">", ">=", NULL };
  Node *left = parse_additive (p);
  const Tok *t;
  gboolean negated = FALSE;
  gsize not_start = 0;

  if (left == NULL)
    return NULL;
  t = peek (p);
  for (guint i = 0; ops[i] != NULL; i++)
    if (is_punct (t, ops[i]))
      {
        Node *right;

        advance (p);
        right = parse_additive (p);
        if (right == NULL)
          {
            node_free (left);
            return NULL;
          }
        return binary (N_CMP, ops[i], left, right);
      }
  if (is_kw (t, "IS"))
    {
      const Tok *what;
      Node *node;

      advance (p);
      negated = accept_kw (p, "NOT");
      what = peek (p);
      if (what->kind != T_IDENT)
        {
          syntax_error (p, what, "MISSING, NULL");
          node_free (left);
          return NULL;
        }
      advance (p);
      node = node_new (N_IS, left->start, what->end);
      node->name = g_ascii_strup (what->text, -1);
      g_ptr_array_add (node->kids, left);
      if (negated)
        {
          Node *not = node_new (N_NOT, node->start, node->end);
          g_ptr_array_add (not->kids, node);
          return not;
        }
      return node;
    }
  if (is_kw (t, "NOT") && (is_kw (peek_at (p, 1), "IN") || is_kw (peek_at (p, 1), "BETWEEN")
                           || is_kw (peek_at (p, 1), "LIKE")))
    {
      negated = TRUE;
      not_start = t->start;
      advance (p);
      t = peek (p);
    }
  if (is_kw (t, "IN") || is_kw (t, "BETWEEN") || is_kw (t, "LIKE"))
    {
      Node *node = NULL;

      advance (p);
      if (is_kw (t, "IN"))
        {
          const Tok *open = peek (p);

          node = node_new (N_IN, left->start, left->end);
          g_ptr_array_add (node->kids, left);
          if (is_punct (open, "[") || is_punct (open, "(") || is_punct (open, "<<"))
            {
              Node *list;

              advance (p);
              if (is_kw (peek (p), "SELECT"))
                list = parse_subquery (p, open);
              else
                list = parse_list (p, N_LIST, is_punct (open, "[") ? "]" : is_punct (open, "(") ? ")" : ">>",
                                   open);
              if (list == NULL)
                {
                  node_free (node);
                  return NULL;
                }
              node->end = list->end;
              if (list->kind == N_SUBQUERY)
                g_ptr_array_add (node->kids, list);
              else
                {
                  node->in_list = TRUE;
                  while (list->kids->len > 0)
                    g_ptr_array_add (node->kids, g_ptr_array_steal_index (list->kids, 0));
                  node_free (list);
                }
            }
          else
            {
              Node *right = parse_additive (p);
              if (right == NULL)
                {
                  node_free (node);
                  return NULL;
                }
              node->end = right->end;
              g_ptr_array_add (node->kids, right);
            }
        }
      else if (is_kw (t, "BETWEEN"))
        {
          Node *low = parse_additive (p);
          Node *high = NULL;

          if (low == NULL || !expect_kw (p, "AND") || (high = parse_additive (p)) == NULL)
            {
              node_free (low);
              node_free (left);
              return NULL;
            }
          node = node_new (N_BETWEEN, left->start, high->end);
          g_ptr_array_add (node->kids, left);
          g_ptr_array_add (node->kids, low);
          g_ptr_array_add (node->kids, high);
        }
      else
        {
          Node *pattern = parse_additive (p);
          if (pattern == NULL)
            {
              node_free (left);
              return NULL;
            }
          node = binary (N_LIKE, "LIKE", left, pattern);
        }
      if (negated)
        {
          Node *not = node_new (N_NOT, not_start, node->end);
          g_ptr_array_add (not->kids, node);
          return not;
        }
      return node;
    }
  return left;
}

static Node *
parse_not (Parser *p)
{
  const Tok *t = peek (p);

  if (is_kw (t, "NOT"))
    {
      Node *operand;
      Node *node;

      advance (p);
      if (++p->depth > MAX_DEPTH)
        {
          syntax_error (p, t, _("a less deeply nested expression"));
          return NULL;
        }
      operand = parse_not (p);
      p->depth--;
      if (operand == NULL)
        return NULL;
      node = node_new (N_NOT, t->start, operand->end);
      g_ptr_array_add (node->kids, operand);
      return node;
    }
  return parse_comparison (p);
}

static Node *
parse_and (Parser *p)
{
  Node *left = parse_not (p);

  while (left != NULL && is_kw (peek (p), "AND"))
    {
      Node *right;

      advance (p);
      right = parse_not (p);
      if (right == NULL)
        {
          node_free (left);
          return NULL;
        }
      left = binary (N_AND, "AND", left, right);
    }
  return left;
}

static Node *
parse_expr (Parser *p)
{
  Node *left;

  if (p->failed)
    return NULL;
  if (++p->depth > MAX_DEPTH)
    {
      syntax_error (p, peek (p), _("a less deeply nested expression"));
      return NULL;
    }
  left = parse_and (p);
  while (left != NULL && is_kw (peek (p), "OR"))
    {
      Node *right;

      advance (p);
      right = parse_and (p);
      if (right == NULL)
        {
          node_free (left);
          left = NULL;
          break;
        }
      left = binary (N_OR, "OR", left, right);
    }
  p->depth--;
  return left;
}

/* ------------------------------------------------------------------ */
/* SQL that DynamoDB's PartiQL refuses                                  */

static void
sql_error (Parser     *p,
           const char *code,
           gsize       start,
           gsize       end,
           char       *message,
           gboolean    open_in_sql)
{
  DynPartiqlDiagnostic *d;

  if (p->lint == NULL)
    {
      g_free (message);
      return;
    }
  d = add_diag (p->lint, code, DYN_PARTIQL_ERROR, start, end, message);
  d->open_in_sql = open_in_sql;
}

static const char * const clause_words[] = {
  "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT",
  "RETURNING", "SET", "REMOVE", NULL
};

static gboolean
at_clause (Parser *p)
{
  const Tok *t = peek (p);

  for (guint i = 0; clause_words[i] != NULL; i++)
    if (is_kw (t, clause_words[i]))
      return TRUE;
  return FALSE;
}

/* After a refused construct: continue at the next clause word outside parentheses. */
static void
skip_to_clause (Parser *p)
{
  guint depth = 0;

  while (!at_end (p))
    {
      const Tok *t = peek (p);

      if (depth == 0 && at_clause (p))
        return;
      if (is_punct (t, "(") || is_punct (t, "[") || is_punct (t, "{") || is_punct (t, "<<"))
        depth++;
      else if ((is_punct (t, ")") || is_punct (t, "]") || is_punct (t, "}") || is_punct (t, ">>")) && depth > 0)
        depth--;
      advance (p);
    }
}

static gboolean
is_aggregate (const char *name)
{
  static const char * const aggregates[] = { "COUNT", "SUM", "AVG", "MIN", "MAX", "TOTAL",
                                             "GROUP_CONCAT", NULL };

  for (guint i = 0; aggregates[i] != NULL; i++)
    if (g_ascii_strcasecmp (name, aggregates[i]) == 0)
      return TRUE;
  return FALSE;
}

static gsize
prev_end (Parser *p)
{
  return p->pos > 0 ? g_array_index (p->toks, Tok, p->pos - 1).end : 0;
}

/* The clauses after FROM/WHERE that SQL has and DynamoDB's PartiQL has not. */
static void
parse_refused_clauses (Parser *p)
{
  while (!at_end (p) && !p->failed)
    {
      const Tok *t = peek (p);
      gsize start = t->start;

      if (is_kw (t, "GROUP") || is_kw (t, "HAVING"))
        {
          gboolean group = is_kw (t, "GROUP");
          advance (p);
          skip_to_clause (p);
          sql_error (p, group ? "group-by" : "having", start, prev_end (p),
                     g_strdup (group ? _("DynamoDB’s PartiQL has no GROUP BY: run the statement in the SQL Workbench, which groups and aggregates.")
                                     : _("DynamoDB’s PartiQL has no HAVING: run the statement in the SQL Workbench.")),
                     TRUE);
        }
      else if (is_kw (t, "LIMIT"))
        {
          advance (p);
          skip_to_clause (p);
          sql_error (p, "limit", start, prev_end (p),
                     g_strdup (_("DynamoDB’s PartiQL has no LIMIT in the statement: remove it and set the request’s Limit (items read per page), or run it in the SQL Workbench.")),
                     TRUE);
        }
      else if (is_kw (t, "OFFSET"))
        {
          advance (p);
          skip_to_clause (p);
          sql_error (p, "offset", start, prev_end (p),
                     g_strdup (_("DynamoDB’s PartiQL has no OFFSET: page with NextToken instead, or run the statement in the SQL Workbench.")),
                     TRUE);
        }
      else if (is_kw (t, "UNION") || is_kw (t, "INTERSECT") || is_kw (t, "EXCEPT"))
        {
          const Tok *last = peek (p);
          while (!at_end (p))
            last = advance (p);
          sql_error (p, "union", start, last->end,
                     /* Translators: %s is UNION, INTERSECT or EXCEPT */
                     g_strdup_printf (_("DynamoDB’s PartiQL reads one table or index per statement and has no %s: run it in the SQL Workbench."),
                                      t->text),
                     TRUE);
        }
      else
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Statement parsing                                                    */

static gboolean
parse_source (Parser *p)
{
  const Tok *t = peek (p);
  Statement *st = p->st;

  if (t->kind != T_IDENT && t->kind != T_QIDENT)
    {
      syntax_error (p, t, _("a table name"));
      return FALSE;
    }
  if (t->kind == T_IDENT && is_reserved (t))
    {
      syntax_error (p, t, _("a table name"));
      return FALSE;
    }
  advance (p);
  st->table = g_strdup (t->text);
  st->source_start = t->start;
  st->source_end = t->end;
  if (is_punct (peek (p), ".") && (peek_at (p, 1)->kind == T_IDENT || peek_at (p, 1)->kind == T_QIDENT))
    {
      const Tok *index;

      advance (p);
      index = advance (p);
      st->index = g_strdup (index->text);
      st->source_end = index->end;
    }
  return TRUE;
}

/* After the source of a SELECT: an alias or a join. */
static void
parse_after_source (Parser *p)
{
  const Tok *t = peek (p);

  if (is_punct (t, ",") || is_kw (t, "JOIN") || is_kw (t, "INNER") || is_kw (t, "LEFT")
      || is_kw (t, "RIGHT") || is_kw (t, "FULL") || is_kw (t, "CROSS")
      || ((t->kind == T_IDENT || is_kw (t, "AS")) && !at_clause (p)
          && (is_kw (peek_at (p, 1), "JOIN") || is_kw (peek_at (p, 2), "JOIN")
              || is_punct (peek_at (p, 1), ",") || is_punct (peek_at (p, 2), ","))))
    {
      gsize start = t->start;

      skip_to_clause (p);
      sql_error (p, "join", start, prev_end (p),
                 g_strdup (_("DynamoDB’s PartiQL reads one table or index per statement and has no JOIN: run the statement in the SQL Workbench, which joins by key lookups.")),
                 TRUE);
      return;
    }
  if (is_kw (t, "AS") || (t->kind == T_IDENT && !is_reserved (t)) || t->kind == T_QIDENT)
    {
      gsize start = t->start;

      accept_kw (p, "AS");
      if (peek (p)->kind == T_IDENT || peek (p)->kind == T_QIDENT)
        advance (p);
      sql_error (p, "alias", start, prev_end (p),
                 g_strdup (_("DynamoDB’s PartiQL does not support a table alias: remove it and name attributes directly.")),
                 FALSE);
    }
}

static void
parse_projection (Parser *p)
{
  if (accept_punct (p, "*"))
    return;
  if (is_kw (peek (p), "DISTINCT"))
    {
      const Tok *t = advance (p);
      sql_error (p, "distinct", t->start, t->end,
                 g_strdup (_("DynamoDB’s PartiQL has no DISTINCT: run the statement in the SQL Workbench.")),
                 TRUE);
    }
  do
    {
      Node *e = parse_additive (p);

      if (e == NULL)
        return;
      if (e->kind == N_CALL && is_aggregate (e->name))
        {
          g_autofree char *upper = g_ascii_strup (e->name, -1);
          sql_error (p, strcmp (upper, "COUNT") == 0 ? "count" : "aggregate", e->start, e->end,
                     /* Translators: %s is COUNT, SUM, AVG, MIN or MAX */
                     g_strdup_printf (_("DynamoDB’s PartiQL has no %s: run the statement in the SQL Workbench, which aggregates exactly."),
                                      upper),
                     TRUE);
        }
      else if (e->kind != N_PATH)
        sql_error (p, "projection", e->start, e->end,
                   g_strdup (_("DynamoDB’s PartiQL selects attributes and document paths only, not functions or values.")),
                   FALSE);
      else if (e->quoted && e->parts->len == 1 && strcmp (e->parts->pdata[0], "") == 0)
        sql_error (p, "syntax", e->start, e->end, g_strdup (_("An attribute name cannot be empty.")), FALSE);
      node_free (e);
      if (accept_kw (p, "AS"))
        {
          const Tok *t = advance (p);
          sql_error (p, "alias", t->start, t->end,
                     g_strdup (_("DynamoDB’s PartiQL does not support a column alias: remove it.")), FALSE);
        }
    }
  while (!p->failed && accept_punct (p, ","));
}

static void
parse_where (Parser *p)
{
  const Tok *t = peek (p);

  if (!is_kw (t, "WHERE"))
    return;
  advance (p);
  p->st->where_start = t->start;
  p->in_where = TRUE;
  p->st->where = parse_expr (p);
  p->in_where = FALSE;
}

static void
parse_order_by (Parser *p)
{
  const Tok *t = peek (p);

  if (!is_kw (t, "ORDER"))
    return;
  advance (p);
  if (!expect_kw (p, "BY"))
    return;
  p->st->order_start = t->start;
  p->st->order_by = g_ptr_array_new_with_free_func (node_free);
  do
    {
      Node *e = parse_additive (p);
      if (e == NULL)
        return;
      g_ptr_array_add (p->st->order_by, e);
      if (!accept_kw (p, "ASC"))
        accept_kw (p, "DESC");
    }
  while (accept_punct (p, ","));
}

static void
parse_returning (Parser *p)
{
  if (!accept_kw (p, "RETURNING"))
    return;
  /* RETURNING ALL|MODIFIED OLD|NEW * */
  if (!accept_kw (p, "ALL") && !accept_kw (p, "MODIFIED"))
    {
      syntax_error (p, peek (p), "ALL, MODIFIED");
      return;
    }
  if (!accept_kw (p, "OLD") && !accept_kw (p, "NEW"))
    {
      syntax_error (p, peek (p), "OLD, NEW");
      return;
    }
  expect_punct (p, "*");
}

static void
parse_statement (Parser *p)
{
  Statement *st = p->st;
  const Tok *first = peek (p);

  st->start = first->start;
  st->keyword_end = first->end;
  if (is_kw (first, "SELECT"))
    {
      st->kind = DYN_PARTIQL_SELECT;
      advance (p);
      parse_projection (p);
      if (p->failed)
        return;
      if (!expect_kw (p, "FROM") || !parse_source (p))
        return;
      parse_after_source (p);
      parse_where (p);
      if (p->failed)
        return;
      parse_refused_clauses (p);
      parse_order_by (p);
      if (p->failed)
        return;
      parse_refused_clauses (p);
    }
  else if (is_kw (first, "EXISTS") && is_punct (peek_at (p, 1), "("))
    {
      /* EXISTS(SELECT …): a condition check, in ExecuteTransaction only */
      st->kind = DYN_PARTIQL_SELECT;
      st->exists = TRUE;
      advance (p);
      advance (p);
      if (!expect_kw (p, "SELECT"))
        return;
      parse_projection (p);
      if (p->failed || !expect_kw (p, "FROM") || !parse_source (p))
        return;
      parse_where (p);
      if (p->failed)
        return;
      expect_punct (p, ")");
    }
  else if (is_kw (first, "INSERT"))
    {
      st->kind = DYN_PARTIQL_INSERT;
      advance (p);
      if (!expect_kw (p, "INTO") || !parse_source (p))
        return;
      if (is_kw (peek (p), "VALUES") || is_punct (peek (p), "("))
        {
          const Tok *t = peek (p);
          syntax_error (p, t, "VALUE {…}");
          return;
        }
      if (!expect_kw (p, "VALUE"))
        return;
      st->value = parse_expr (p);
    }
  else if (is_kw (first, "UPDATE"))
    {
      gboolean any = FALSE;

      st->kind = DYN_PARTIQL_UPDATE;
      advance (p);
      if (!parse_source (p))
        return;
      st->assignments = g_ptr_array_new_with_free_func (assignment_free);
      for (;;)
        {
          gboolean set = is_kw (peek (p), "SET");

          if (!set && !is_kw (peek (p), "REMOVE"))
            break;
          advance (p);
          do
            {
              Assignment *a = g_new0 (Assignment, 1);
              const Tok *t = peek (p);

              g_ptr_array_add (st->assignments, a);
              a->start = t->start;
              if (t->kind != T_IDENT && t->kind != T_QIDENT)
                {
                  syntax_error (p, t, _("an attribute name"));
                  return;
                }
              a->target = parse_primary (p);
              if (a->target == NULL)
                return;
              if (a->target->kind != N_PATH)
                {
                  syntax_error (p, t, _("an attribute name"));
                  return;
                }
              if (set)
                {
                  if (!expect_punct (p, "="))
                    return;
                  a->value = parse_expr (p);
                  if (a->value == NULL)
                    return;
                }
              a->end = prev_end (p);
              any = TRUE;
            }
          while (accept_punct (p, ","));
        }
      if (!any)
        {
          syntax_error (p, peek (p), "SET, REMOVE");
          return;
        }
      parse_where (p);
      if (p->failed)
        return;
      parse_returning (p);
    }
  else if (is_kw (first, "DELETE"))
    {
      st->kind = DYN_PARTIQL_DELETE;
      advance (p);
      if (!expect_kw (p, "FROM") || !parse_source (p))
        return;
      parse_where (p);
      if (p->failed)
        return;
      parse_returning (p);
    }
  else
    {
      st->kind = DYN_PARTIQL_UNKNOWN;
      syntax_error (p, first, "SELECT, INSERT, UPDATE, DELETE");
      return;
    }
  if (!p->failed && !at_end (p))
    syntax_error (p, peek (p), _("the end of the statement"));
}

/* ------------------------------------------------------------------ */
/* Analysis helpers                                                     */

/* The attribute a path names when it is one plain name (a table-qualified
 * "T".PK counts), or NULL. */
static const char *
simple_attribute (const Node  *node,
                  const char  *table)
{
  if (node == NULL || node->kind != N_PATH || node->parts == NULL)
    return NULL;
  if (node->parts->len == 1)
    return node->parts->pdata[0];
  if (node->parts->len == 2 && table != NULL && strcmp (node->parts->pdata[0], table) == 0
      && strcmp (node->parts->pdata[1], "[]") != 0)
    return node->parts->pdata[1];
  return NULL;
}

static gboolean
is_value (const Node *node)
{
  switch (node->kind)
    {
    case N_STRING: case N_NUMBER: case N_PARAM: case N_BOOL: case N_NULL: case N_LIST:
    case N_BAG: case N_TUPLE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* For a comparison @cmp of an attribute with a value: the attribute and the value. */
static gboolean
attribute_and_value (const Node  *cmp,
                     const char  *table,
                     const char **attribute,
                     const Node **value)
{
  const Node *l = kid (cmp, 0);
  const Node *r = kid (cmp, 1);

  if (simple_attribute (l, table) != NULL && is_value (r))
    {
      *attribute = simple_attribute (l, table);
      *value = r;
      return TRUE;
    }
  if (simple_attribute (r, table) != NULL && is_value (l))
    {
      *attribute = simple_attribute (r, table);
      *value = l;
      return TRUE;
    }
  return FALSE;
}

/* Bit i set: every OR branch of @node has an equality or IN (when @allow_in)
 * with a value on attribute @names[i]. */
static guint
covered_mask (const Node         *node,
              const char         *table,
              const char * const *names,
              guint               n_names,
              gboolean            allow_in)
{
  const char *attribute = NULL;
  const Node *value = NULL;
  guint mask = 0;

  if (node == NULL)
    return 0;
  switch (node->kind)
    {
    case N_AND:
      return covered_mask (kid (node, 0), table, names, n_names, allow_in)
             | covered_mask (kid (node, 1), table, names, n_names, allow_in);
    case N_OR:
      return covered_mask (kid (node, 0), table, names, n_names, allow_in)
             & covered_mask (kid (node, 1), table, names, n_names, allow_in);
    case N_CMP:
      if (strcmp (node->name, "=") != 0 || !attribute_and_value (node, table, &attribute, &value))
        return 0;
      break;
    case N_IN:
      if (!allow_in || !node->in_list || node->kids->len < 2)
        return 0;
      attribute = simple_attribute (kid (node, 0), table);
      if (attribute == NULL)
        return 0;
      for (guint i = 1; i < node->kids->len; i++)
        if (!is_value (kid (node, i)))
          return 0;
      break;
    default:
      return 0;
    }
  for (guint i = 0; i < n_names; i++)
    if (strcmp (names[i], attribute) == 0)
      mask |= 1u << i;
  return mask;
}

static guint
partition_names (const DynKeySchema *keys,
                 const char        **names)
{
  guint n = dyn_key_schema_get_n_partition_keys (keys);

  for (guint i = 0; i < n; i++)
    names[i] = dyn_key_schema_get_partition_key (keys, i, NULL);
  return n;
}

static gboolean
partition_covered (const Node         *where,
                   const char         *table,
                   const DynKeySchema *keys)
{
  const char *names[DYN_KEY_MAX_ATTRIBUTES];
  guint n = partition_names (keys, names);

  if (n == 0)
    return TRUE;
  return covered_mask (where, table, names, n, TRUE) == (1u << n) - 1;
}

static char *
quote_name (const char *name)
{
  GString *out = g_string_new ("\"");

  for (const char *s = name; *s != '\0'; s++)
    {
      if (*s == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static char *
single_quote (const char *text)
{
  GString *out = g_string_new ("'");

  for (const char *s = text; *s != '\0'; s++)
    {
      if (*s == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

typedef void (*NodeFunc) (const Node *node, gpointer data);

static void
walk (const Node *node,
      NodeFunc    func,
      gpointer    data)
{
  if (node == NULL)
    return;
  func (node, data);
  for (guint i = 0; i < node->kids->len; i++)
    walk (node->kids->pdata[i], func, data);
}

/* ------------------------------------------------------------------ */
/* Rules                                                                */

static gsize
prev_end_of (Statement *st)
{
  return st->end;
}

typedef struct {
  Linter              *lint;
  Statement           *st;
  const DynTableKeys  *table_keys;    /* nullable */
  const DynKeySchema  *keys;          /* the source read or written, nullable */
} Check;

/* Significant digits and the decimal exponent of the first one. */
static gboolean
number_shape (const char *text,
              guint      *digits,
              glong      *exponent)
{
  const char *s = text;
  glong point = -1;
  glong first = -1;
  glong last = -1;
  glong pos = 0;
  glong exp = 0;

  if (*s == '-' || *s == '+')
    s++;
  for (; *s != '\0' && *s != 'e' && *s != 'E'; s++)
    {
      if (*s == '.')
        {
          point = pos;
          continue;
        }
      if (*s != '0')
        {
          if (first < 0)
            first = pos;
          last = pos;
        }
      pos++;
    }
  if (point < 0)
    point = pos;
  if (*s == 'e' || *s == 'E')
    {
      gboolean neg = FALSE;

      s++;
      if (*s == '+' || *s == '-')
        neg = *s++ == '-';
      for (; g_ascii_isdigit (*s); s++)
        {
          if (exp < 100000000)
            exp = exp * 10 + (*s - '0');
        }
      if (neg)
        exp = -exp;
    }
  if (first < 0)
    {
      *digits = 0;
      *exponent = 0;
      return FALSE;   /* zero */
    }
  *digits = last - first + 1;
  *exponent = point - first - 1 + exp;
  return TRUE;
}

static void
check_number (const Node *node,
              gpointer    data)
{
  Check *c = data;
  guint digits;
  glong exponent;

  if (node->kind != N_NUMBER || !number_shape (node->name, &digits, &exponent))
    return;
  if (digits > 38)
    add_diag (c->lint, "number-digits", DYN_PARTIQL_ERROR, node->start, node->end,
              /* Translators: %u is the number of significant digits (39 or more) */
              g_strdup_printf (_("This number has %u significant digits; DynamoDB keeps at most 38."), digits));
  else if (exponent > 125)
    add_diag (c->lint, "number-range", DYN_PARTIQL_ERROR, node->start, node->end,
              g_strdup (_("This number is too large for DynamoDB (at most 9.9999999999999999999999999999999999999E+125).")));
  else if (exponent < -130)
    add_diag (c->lint, "number-range", DYN_PARTIQL_ERROR, node->start, node->end,
              g_strdup (_("This number is too close to zero for DynamoDB (at least 1E-130).")));
}

static gboolean
is_key_attribute (const Check *c,
                  const char  *name)
{
  if (c->table_keys == NULL)
    return FALSE;
  if (dyn_key_schema_has_attribute (&c->table_keys->table.keys, name))
    return TRUE;
  for (guint i = 0; c->table_keys->indexes != NULL && i < c->table_keys->indexes->len; i++)
    {
      const DynIndexInfo *index = c->table_keys->indexes->pdata[i];
      if (dyn_key_schema_has_attribute (&index->keys, name))
        return TRUE;
    }
  return FALSE;
}

static void
warn_double_quoted (Check      *c,
                    const Node *value)
{
  const char *name;
  DynPartiqlDiagnostic *d;

  if (value == NULL || value->kind != N_PATH || !value->quoted || value->parts->len != 1)
    return;
  name = value->parts->pdata[0];
  /* A name the schema knows is an attribute: the comparison of two attributes is meant. */
  if (is_key_attribute (c, name))
    return;
  d = add_diag (c->lint, "double-quoted-string", DYN_PARTIQL_WARNING, value->start, value->end,
                /* Translators: %s is the text between the double quotes */
                g_strdup_printf (_("\"%s\" is an attribute name in PartiQL, so this compares two attributes; write a string in single quotes."),
                                 name));
  d->fix_label = g_strdup (_("Use single quotes"));
  d->fix_text = single_quote (name);
}

static DynValueType
literal_type (const Node *value,
              gboolean   *known)
{
  *known = TRUE;
  switch (value->kind)
    {
    case N_STRING: return DYN_VALUE_S;
    case N_NUMBER: return DYN_VALUE_N;
    case N_BOOL: return DYN_VALUE_BOOL;
    case N_NULL: return DYN_VALUE_NULL;
    case N_LIST: return DYN_VALUE_L;
    case N_TUPLE: return DYN_VALUE_M;
    case N_BAG: return DYN_VALUE_SS;
    default:
      *known = FALSE;
      return DYN_VALUE_NULL;
    }
}

static void
check_key_type (Check              *c,
                const DynKeySchema *keys,
                const char         *attribute,
                const Node         *value,
                const char         *code)
{
  DynValueType type;
  DynValueType got;
  gboolean known;

  if (keys == NULL || attribute == NULL || value == NULL
      || !dyn_key_schema_find (keys, attribute, NULL, NULL, &type))
    return;
  got = literal_type (value, &known);
  /* Binary keys have no literal; a parameter or an Ion value can be anything. */
  if (!known || type == DYN_VALUE_B || got == type)
    return;
  add_diag (c->lint, code, DYN_PARTIQL_ERROR, value->start, value->end,
            /* Translators: %s is a key attribute, the second %s its type: "string", "number" */
            g_strdup_printf (_("The key attribute %s is a %s: this value has another type, which DynamoDB refuses."),
                             attribute, type == DYN_VALUE_N ? _("number") : _("string")));
}

static void
check_where_node (const Node *node,
                  gpointer    data)
{
  Check *c = data;
  const char *table = c->st->table;

  switch (node->kind)
    {
    case N_CMP:
      {
        const Node *l = kid (node, 0);
        const Node *r = kid (node, 1);
        const char *attribute = NULL;
        const Node *value = NULL;

        if (r->kind == N_MISSING || l->kind == N_MISSING)
          {
            const Node *m = r->kind == N_MISSING ? r : l;
            DynPartiqlDiagnostic *d =
              add_diag (c->lint, "missing-compare", DYN_PARTIQL_ERROR, node->start, node->end,
                        g_strdup (_("MISSING is tested with IS MISSING or IS NOT MISSING, not compared.")));
            const Node *other = m == r ? l : r;
            gboolean neg = strcmp (node->name, "=") != 0;
            d->fix_label = g_strdup (neg ? _("Use IS NOT MISSING") : _("Use IS MISSING"));
            d->fix_text = g_strdup_printf ("%.*s %s", (int) (other->end - other->start),
                                           c->lint->text + other->start,
                                           neg ? "IS NOT MISSING" : "IS MISSING");
            break;
          }
        if (l->kind == N_PATH)
          warn_double_quoted (c, r);
        if (attribute_and_value (node, table, &attribute, &value))
          check_key_type (c, c->keys, attribute, value, "key-type");
        break;
      }
    case N_BETWEEN:
      if (kid (node, 0)->kind == N_PATH)
        {
          warn_double_quoted (c, kid (node, 1));
          warn_double_quoted (c, kid (node, 2));
          for (guint i = 1; i < 3; i++)
            if (is_value (kid (node, i)))
              check_key_type (c, c->keys, simple_attribute (kid (node, 0), table), kid (node, i), "key-type");
        }
      break;
    case N_IN:
      {
        const char *attribute = simple_attribute (kid (node, 0), table);
        guint n = node->kids->len - 1;

        if (node->kids->len == 2 && kid (node, 1)->kind == N_SUBQUERY)
          break;
        if (node->in_list && n == 0)
          add_diag (c->lint, "syntax", DYN_PARTIQL_ERROR, node->start, node->end,
                    g_strdup (_("IN needs at least one value.")));
        for (guint i = 1; i < node->kids->len; i++)
          {
            if (kid (node, 0)->kind == N_PATH)
              warn_double_quoted (c, kid (node, i));
            if (is_value (kid (node, i)))
              check_key_type (c, c->keys, attribute, kid (node, i), "key-type");
          }
        if (n > 100)
          add_diag (c->lint, "in-too-many", DYN_PARTIQL_ERROR, node->start, node->end,
                    /* Translators: %u is the number of values (more than 100) */
                    g_strdup_printf (_("IN has %u values; DynamoDB allows at most 100."), n));
        else if (n > 50 && c->keys != NULL && attribute != NULL
                 && dyn_key_schema_find (c->keys, attribute, NULL, NULL, NULL)
                 && strcmp (attribute, dyn_key_schema_get_partition_key (c->keys, 0, NULL)) == 0)
          add_diag (c->lint, "in-too-many", DYN_PARTIQL_ERROR, node->start, node->end,
                    /* Translators: %u is the number of values (more than 50), %s the partition key */
                    g_strdup_printf (_("IN has %u values of the partition key %s; DynamoDB allows at most 50: split the statement."),
                                     n, attribute));
        break;
      }
    case N_CALL:
      {
        static const char * const functions[] = { "begins_with", "contains", "attribute_type",
                                                  "size", "exists", "missing", NULL };
        gboolean known = FALSE;

        for (guint i = 0; functions[i] != NULL; i++)
          if (g_ascii_strcasecmp (node->name, functions[i]) == 0)
            known = TRUE;
        if (is_aggregate (node->name))
          {
            g_autofree char *upper = g_ascii_strup (node->name, -1);
            sql_error (&(Parser) { .lint = c->lint }, "aggregate", node->start, node->end,
                       g_strdup_printf (_("DynamoDB’s PartiQL has no %s: run the statement in the SQL Workbench, which aggregates exactly."),
                                        upper),
                       TRUE);
          }
        else if (!known)
          add_diag (c->lint, "unknown-function", DYN_PARTIQL_ERROR, node->start, node->end,
                    /* Translators: %s is a function name */
                    g_strdup_printf (_("DynamoDB’s PartiQL has no function %s (it has begins_with, contains, attribute_type, size, EXISTS, MISSING)."),
                                     node->name));
        else if ((g_ascii_strcasecmp (node->name, "begins_with") == 0
                  || g_ascii_strcasecmp (node->name, "contains") == 0)
                 && node->kids->len == 2 && kid (node, 0)->kind == N_PATH)
          warn_double_quoted (c, kid (node, 1));
        break;
      }
    case N_LIKE:
      {
        const Node *pattern = kid (node, 1);
        DynPartiqlDiagnostic *d =
          add_diag (c->lint, "like", DYN_PARTIQL_ERROR, node->start, node->end,
                    g_strdup (_("DynamoDB’s PartiQL has no LIKE: use begins_with(attribute, 'prefix') for a prefix, contains() for a part, or run the statement in the SQL Workbench.")));
        d->open_in_sql = TRUE;
        if (pattern->kind == N_STRING)
          {
            gsize len = strlen (pattern->name);
            gboolean prefix = len > 1 && pattern->name[len - 1] == '%'
                              && strpbrk (pattern->name, "_") == NULL
                              && memchr (pattern->name, '%', len - 1) == NULL;
            if (prefix)
              {
                g_autofree char *text = g_strndup (pattern->name, len - 1);
                g_autofree char *quoted = single_quote (text);
                const Node *l = kid (node, 0);

                d->fix_label = g_strdup (_("Use begins_with"));
                d->fix_text = g_strdup_printf ("begins_with(%.*s, %s)", (int) (l->end - l->start),
                                               c->lint->text + l->start, quoted);
              }
          }
        break;
      }
    case N_SUBQUERY:
      sql_error (&(Parser) { .lint = c->lint }, "subquery", node->start, node->end,
                 g_strdup (_("DynamoDB’s PartiQL has no subqueries: run the statement in the SQL Workbench.")),
                 TRUE);
      break;
    case N_ARITH:
    case N_NEG:
      add_diag (c->lint, "operator", DYN_PARTIQL_ERROR, node->start, node->end,
                g_strdup (_("DynamoDB’s PartiQL does not compute in a WHERE clause: compare attributes with values.")));
      break;
    case N_ION:
      add_diag (c->lint, "ion-literal", DYN_PARTIQL_ERROR, node->start, node->end,
                g_strdup (_("DynamoDB does not accept Ion literals in backticks: write 'strings', numbers, [lists], {maps} or <<sets>>.")));
      break;
    case N_PATH:
      if (node->quoted && strcmp (node->parts->pdata[0], "") == 0)
        add_diag (c->lint, "syntax", DYN_PARTIQL_ERROR, node->start, node->end,
                  g_strdup (_("An attribute name cannot be empty.")));
      else if (c->keys != NULL && node->parts->len > 1)
        {
          const char *root = node->parts->pdata[0];
          if (dyn_key_schema_has_attribute (c->keys, root)
              && !(c->st->table != NULL && strcmp (root, c->st->table) == 0))
            add_diag (c->lint, "key-path", DYN_PARTIQL_ERROR, node->start, node->end,
                      /* Translators: %s is a key attribute */
                      g_strdup_printf (_("The key attribute %s is a scalar: it has no elements or members."), root));
        }
      break;
    default:
      break;
    }
}

static void
check_select (Check *c)
{
  Statement *st = c->st;
  const char *names[DYN_KEY_MAX_ATTRIBUTES];
  guint n;

  if (st->order_by != NULL)
    {
      if (st->where == NULL)
        add_diag (c->lint, "order-by", DYN_PARTIQL_ERROR, st->order_start, prev_end_of (st),
                  g_strdup (_("ORDER BY needs a WHERE clause with an equality on the partition key.")));
      else if (c->keys != NULL && !partition_covered (st->where, st->table, c->keys))
        {
          g_autofree char *pk = dyn_key_schema_join_names (c->keys, FALSE);
          add_diag (c->lint, "order-by", DYN_PARTIQL_ERROR, st->order_start, prev_end_of (st),
                    /* Translators: %s is the partition key */
                    g_strdup_printf (_("ORDER BY needs an equality or IN on the partition key %s in the WHERE clause."), pk));
        }
      for (guint i = 0; c->keys != NULL && i < st->order_by->len; i++)
        {
          const Node *e = st->order_by->pdata[i];
          const char *attribute = simple_attribute (e, st->table);

          if (attribute == NULL || !dyn_key_schema_has_attribute (c->keys, attribute))
            add_diag (c->lint, "order-by", DYN_PARTIQL_ERROR, e->start, e->end,
                      g_strdup (_("ORDER BY sorts by key attributes only.")));
        }
    }

  if (c->keys == NULL || st->exists || st->syntax_error)
    return;
  if (st->where != NULL && partition_covered (st->where, st->table, c->keys))
    return;

  /* A full Scan. */
  {
    g_autofree char *pk = dyn_key_schema_join_names (c->keys, FALSE);
    g_autofree char *source = st->index != NULL ? g_strdup_printf ("%s.%s", st->table, st->index)
                                                : g_strdup (st->table);
    const DynIndexInfo *better = NULL;
    DynPartiqlDiagnostic *d;
    gsize start = st->where != NULL ? st->where_start : st->source_start;
    gsize end = st->where != NULL && st->where != NULL ? st->where->end : st->source_end;

    /* An index (or the table, when an index is read) whose partition key the WHERE has. */
    if (st->where != NULL && c->table_keys != NULL)
      {
        GPtrArray *all = g_ptr_array_new ();

        g_ptr_array_add (all, (gpointer) &c->table_keys->table);
        for (guint i = 0; c->table_keys->indexes != NULL && i < c->table_keys->indexes->len; i++)
          g_ptr_array_add (all, c->table_keys->indexes->pdata[i]);
        for (guint i = 0; i < all->len && better == NULL; i++)
          {
            const DynIndexInfo *info = all->pdata[i];
            if (&info->keys == c->keys)
              continue;
            n = partition_names (&info->keys, names);
            if (n > 0 && covered_mask (st->where, st->table, names, n, TRUE) == (1u << n) - 1)
              better = info;
          }
        g_ptr_array_unref (all);
      }
    if (better != NULL)
      {
        g_autofree char *bpk = dyn_key_schema_join_names (&better->keys, FALSE);
        gboolean is_table = better == &c->table_keys->table;
        g_autofree char *qt = quote_name (st->table);
        g_autofree char *qi = is_table ? NULL : quote_name (better->name);

        d = add_diag (c->lint, "full-scan", DYN_PARTIQL_WARNING, start, end,
                      is_table
                      /* Translators: %s: the index read; %s: the table; %s: its partition key */
                      ? g_strdup_printf (_("This SELECT scans all of %s: read the table %s instead, whose partition key %s the WHERE clause has, for a Query."),
                                         source, st->table, bpk)
                      /* Translators: %s: source; %s: partition key; %s: index; %s: its partition key */
                      : g_strdup_printf (_("This SELECT scans all of %s: an equality or IN on %s in every OR branch makes it a Query, or read the index %s (partition key %s)."),
                                         source, pk, better->name, bpk));
        d->fix_label = is_table ? g_strdup (_("Read the table")) : g_strdup_printf (_("Read the index %s"), better->name);
        d->fix_text = is_table ? g_strdup (qt) : g_strdup_printf ("%s.%s", qt, qi);
        d->start = st->source_start;
        d->end = st->source_end;
        position (c->lint->text, d->start, &d->line, &d->column);
      }
    else
      add_diag (c->lint, "full-scan", DYN_PARTIQL_WARNING, start, end,
                /* Translators: %s: the table or index; %s: its partition key */
                g_strdup_printf (_("This SELECT scans all of %s: an equality or IN on %s in every OR branch makes it a Query."),
                                 source, pk));
  }
}

/* The equalities of the top-level AND of @where: attribute → value node. */
static void
top_equalities (const Node  *where,
                const char  *table,
                GHashTable  *out)
{
  const char *attribute;
  const Node *value;

  if (where == NULL)
    return;
  if (where->kind == N_AND)
    {
      top_equalities (kid (where, 0), table, out);
      top_equalities (kid (where, 1), table, out);
    }
  else if (where->kind == N_CMP && strcmp (where->name, "=") == 0
           && attribute_and_value (where, table, &attribute, &value)
           && !g_hash_table_contains (out, attribute))
    g_hash_table_insert (out, (gpointer) attribute, (gpointer) value);
}

static guint
count_conjuncts (const Node *where)
{
  if (where == NULL)
    return 0;
  if (where->kind == N_AND)
    return count_conjuncts (kid (where, 0)) + count_conjuncts (kid (where, 1));
  return 1;
}

/* The key attributes the top-level equalities of the statement's WHERE do
 * not give, joined by ", " (empty when it names the whole key). */
static GString *
missing_key_attributes (Check *c)
{
  Statement *st = c->st;
  g_autoptr(GHashTable) eq = g_hash_table_new (g_str_hash, g_str_equal);
  GString *missing = g_string_new (NULL);
  guint n = dyn_key_schema_get_n_attributes (c->keys);

  top_equalities (st->where, st->table, eq);
  for (guint i = 0; i < n; i++)
    {
      const char *name = dyn_key_schema_get_attribute (c->keys, i, NULL);
      if (!g_hash_table_contains (eq, name))
        {
          if (missing->len > 0)
            g_string_append (missing, ", ");
          g_string_append (missing, name);
        }
    }
  return missing;
}

/* EXISTS(SELECT …) of a transaction: one item by its full key, and a condition on it. */
static void
check_exists (Check *c)
{
  Statement *st = c->st;
  g_autoptr(GString) missing = NULL;

  if (c->keys == NULL)
    return;
  missing = missing_key_attributes (c);
  if (missing->len > 0)
    add_diag (c->lint, "exists", DYN_PARTIQL_ERROR, st->start, st->end,
              /* Translators: %s is a list of key attributes */
              g_strdup_printf (_("EXISTS(…) checks one item: its WHERE clause needs an equality on every key attribute (missing: %s)."),
                               missing->str));
  else if (count_conjuncts (st->where) <= dyn_key_schema_get_n_attributes (c->keys))
    add_diag (c->lint, "exists", DYN_PARTIQL_ERROR, st->start, st->end,
              g_strdup (_("EXISTS(…) needs a condition on the item besides its key, such as attribute_type(x, 'S') or x = 1.")));
}

static void
check_write_key (Check *c)
{
  Statement *st = c->st;
  g_autoptr(GString) missing = NULL;

  if (c->keys == NULL)
    return;
  missing = missing_key_attributes (c);
  if (missing->len > 0)
    add_diag (c->lint, "no-full-key", DYN_PARTIQL_ERROR,
              st->where != NULL ? st->where_start : st->start,
              st->where != NULL ? st->where->end : st->keyword_end,
              st->kind == DYN_PARTIQL_UPDATE
              /* Translators: %s is a list of key attributes */
              ? g_strdup_printf (_("An UPDATE writes one item: its WHERE clause needs an equality on every key attribute (missing: %s)."), missing->str)
              : g_strdup_printf (_("A DELETE removes one item: its WHERE clause needs an equality on every key attribute (missing: %s)."), missing->str));

  for (guint i = 0; st->assignments != NULL && i < st->assignments->len; i++)
    {
      const Assignment *a = st->assignments->pdata[i];
      const char *attribute = simple_attribute (a->target, st->table);

      if (attribute != NULL && dyn_key_schema_has_attribute (c->keys, attribute))
        add_diag (c->lint, "update-key", DYN_PARTIQL_ERROR, a->start, a->end,
                  /* Translators: %s is a key attribute */
                  g_strdup_printf (_("%s is part of the key and cannot be changed: delete the item and insert a new one."),
                                   attribute));
    }
}

static void
check_insert (Check *c)
{
  Statement *st = c->st;
  const Node *value = st->value;
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GHashTable) members = g_hash_table_new (g_str_hash, g_str_equal);
  guint n;

  if (value == NULL)
    return;
  if (value->kind == N_PARAM)
    return;
  if (value->kind != N_TUPLE)
    {
      add_diag (c->lint, "insert-value", DYN_PARTIQL_ERROR, value->start, value->end,
                g_strdup (_("INSERT needs an item in braces: VALUE {'attribute': value, …}.")));
      return;
    }
  for (guint i = 0; i + 1 < value->kids->len; i += 2)
    {
      const Node *k = kid (value, i);
      if (k->kind == N_STRING)
        g_hash_table_insert (members, k->name, kid (value, i + 1));
      else if (k->kind == N_PATH && k->quoted && k->parts->len == 1)
        {
          DynPartiqlDiagnostic *d =
            add_diag (c->lint, "insert-name", DYN_PARTIQL_ERROR, k->start, k->end,
                      g_strdup (_("An attribute name in VALUE is a string in single quotes.")));
          d->fix_label = g_strdup (_("Use single quotes"));
          d->fix_text = single_quote (k->parts->pdata[0]);
          g_hash_table_insert (members, k->parts->pdata[0], kid (value, i + 1));
        }
      else if (k->kind != N_PARAM)
        add_diag (c->lint, "insert-name", DYN_PARTIQL_ERROR, k->start, k->end,
                  g_strdup (_("An attribute name in VALUE is a string in single quotes.")));
    }
  if (c->table_keys == NULL)
    return;
  n = dyn_key_schema_get_n_attributes (&c->table_keys->table.keys);
  for (guint i = 0; i < n; i++)
    {
      const char *name = dyn_key_schema_get_attribute (&c->table_keys->table.keys, i, NULL);
      if (!g_hash_table_contains (members, name))
        {
          if (missing->len > 0)
            g_string_append (missing, ", ");
          g_string_append (missing, name);
        }
    }
  if (missing->len > 0)
    add_diag (c->lint, "insert-no-key", DYN_PARTIQL_ERROR, value->start, value->end,
              /* Translators: %s is a list of key attributes */
              g_strdup_printf (_("The item lacks its key attribute(s) %s."), missing->str));
  /* Types of the table's and the indexes' key attributes. */
  {
    GHashTableIter iter;
    gpointer name, member;

    g_hash_table_iter_init (&iter, members);
    while (g_hash_table_iter_next (&iter, &name, &member))
      {
        if (dyn_key_schema_has_attribute (&c->table_keys->table.keys, name))
          check_key_type (c, &c->table_keys->table.keys, name, member, "key-type");
        else
          for (guint i = 0; c->table_keys->indexes != NULL && i < c->table_keys->indexes->len; i++)
            {
              const DynIndexInfo *index = c->table_keys->indexes->pdata[i];
              if (dyn_key_schema_has_attribute (&index->keys, name))
                {
                  check_key_type (c, &index->keys, name, member, "key-type");
                  break;
                }
            }
      }
  }
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

/* Token ranges of the statements: [first, last) with last at a ; or EOF. */
static GArray *
statement_ranges (GArray *toks)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  guint first = 0;

  for (guint i = 0; i < toks->len; i++)
    {
      Tok *t = &g_array_index (toks, Tok, i);

      if (t->kind == T_EOF || is_punct (t, ";"))
        {
          if (i > first)
            {
              guint range[2] = { first, i };
              g_array_append_val (ranges, range);
            }
          first = i + 1;
        }
    }
  return ranges;
}

static Statement *
parse_range (Linter *lint,
             GArray *toks,
             guint   first,
             guint   last)
{
  Parser p = { lint, toks, first, last, FALSE, 0, NULL, FALSE };
  Statement *st = g_new0 (Statement, 1);

  p.st = st;
  for (guint i = first; i < last; i++)
    if (g_array_index (toks, Tok, i).kind == T_PARAM)
      st->n_parameters++;
  parse_statement (&p);
  st->end = g_array_index (toks, Tok, last > first ? last - 1 : first).end;
  return st;
}

static void
lint_statement (Linter    *lint,
                Statement *st,
                guint      n_statements)
{
  Check c = { lint, st, NULL, NULL };

  if (st->table == NULL)
    return;
  if (lint->tables != NULL && !g_strv_contains (lint->tables, st->table))
    add_diag (lint, "unknown-table", DYN_PARTIQL_ERROR, st->source_start, st->source_end,
              /* Translators: %s is a table name */
              g_strdup_printf (_("There is no table %s on this connection (names are case-sensitive)."), st->table));
  else if (lint->schema_func != NULL)
    {
      c.table_keys = lint->schema_func (st->table, lint->schema_data);
      if (c.table_keys != NULL)
        {
          const DynIndexInfo *info = dyn_table_keys_lookup (c.table_keys, st->index);
          if (info == NULL)
            add_diag (lint, "unknown-index", DYN_PARTIQL_ERROR, st->source_start, st->source_end,
                      /* Translators: the first %s is a table, the second an index name */
                      g_strdup_printf (_("The table %s has no index %s."), st->table, st->index));
          else
            c.keys = &info->keys;
        }
    }
  if (st->index != NULL && st->kind != DYN_PARTIQL_SELECT)
    add_diag (lint, "write-index", DYN_PARTIQL_ERROR, st->source_start, st->source_end,
              g_strdup (_("Only SELECT reads an index; write to the table itself.")));
  if (st->exists && n_statements < 2)
    add_diag (lint, "exists", DYN_PARTIQL_ERROR, st->start, st->end,
              g_strdup (_("EXISTS(…) is a condition of a transaction: run it together with write statements.")));

  if (st->where != NULL)
    walk (st->where, check_where_node, &c);
  if (st->value != NULL)
    walk (st->value, check_number, &c);
  if (st->where != NULL)
    walk (st->where, check_number, &c);
  for (guint i = 0; st->assignments != NULL && i < st->assignments->len; i++)
    {
      const Assignment *a = st->assignments->pdata[i];
      walk (a->value, check_number, &c);
    }

  switch (st->kind)
    {
    case DYN_PARTIQL_SELECT:
      if (st->exists)
        check_exists (&c);
      check_select (&c);
      break;
    case DYN_PARTIQL_UPDATE:
    case DYN_PARTIQL_DELETE:
      if (st->where == NULL && c.keys != NULL)
        add_diag (lint, "no-full-key", DYN_PARTIQL_ERROR, st->start, st->end,
                  st->kind == DYN_PARTIQL_UPDATE
                  ? g_strdup (_("An UPDATE writes one item: it needs a WHERE clause with an equality on every key attribute."))
                  : g_strdup (_("A DELETE removes one item: it needs a WHERE clause with an equality on every key attribute.")));
      else
        check_write_key (&c);
      break;
    case DYN_PARTIQL_INSERT:
      check_insert (&c);
      break;
    case DYN_PARTIQL_UNKNOWN:
    default:
      break;
    }
}

static gint
diag_compare (gconstpointer a,
              gconstpointer b)
{
  const DynPartiqlDiagnostic *x = *(DynPartiqlDiagnostic * const *) a;
  const DynPartiqlDiagnostic *y = *(DynPartiqlDiagnostic * const *) b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return 0;
}

GPtrArray *
dyn_partiql_lint_with_tables (const char           *text,
                              DynPartiqlSchemaFunc  schema_func,
                              gpointer              schema_data,
                              const char * const   *tables)
{
  Linter lint = { text, NULL, schema_func, schema_data, tables };
  g_autoptr(GArray) toks = NULL;
  g_autoptr(GArray) ranges = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  lint.diags = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_partiql_diagnostic_free);
  toks = tokenize (text);
  ranges = statement_ranges (toks);
  for (guint i = 0; i < ranges->len; i++)
    {
      guint *range = &g_array_index (ranges, guint, i * 2);
      g_autoptr(Statement) st = parse_range (&lint, toks, range[0], range[1]);

      lint_statement (&lint, st, ranges->len);
    }
  g_ptr_array_sort (lint.diags, diag_compare);
  return lint.diags;
}

GPtrArray *
dyn_partiql_lint (const char           *text,
                  DynPartiqlSchemaFunc  schema_func,
                  gpointer              schema_data)
{
  return dyn_partiql_lint_with_tables (text, schema_func, schema_data, NULL);
}

GPtrArray *
dyn_partiql_split (const char *text)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) toks = NULL;
  g_autoptr(GArray) ranges = NULL;

  g_return_val_if_fail (text != NULL, out);
  toks = tokenize (text);
  ranges = statement_ranges (toks);
  for (guint i = 0; i < ranges->len; i++)
    {
      guint *range = &g_array_index (ranges, guint, i * 2);
      gsize start = g_array_index (toks, Tok, range[0]).start;
      gsize end = g_array_index (toks, Tok, range[1] - 1).end;

      g_ptr_array_add (out, g_strndup (text + start, end - start));
    }
  return out;
}

void
dyn_partiql_info_free (DynPartiqlInfo *self)
{
  if (self == NULL)
    return;
  g_free (self->table);
  g_free (self->index);
  g_free (self->keys);
  g_free (self);
}

static void
append_equalities (const char *text,
                   const Node *where,
                   const char *table,
                   const DynKeySchema *keys,
                   GString    *out)
{
  g_autoptr(GHashTable) eq = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();

  top_equalities (where, table, eq);
  if (keys != NULL)
    {
      for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
        g_ptr_array_add (order, (gpointer) dyn_key_schema_get_attribute (keys, i, NULL));
    }
  else
    {
      /* in the order of the text */
      GHashTableIter iter;
      gpointer name, value;

      g_hash_table_iter_init (&iter, eq);
      while (g_hash_table_iter_next (&iter, &name, &value))
        g_ptr_array_add (order, name);
      for (guint i = 0; i < order->len; i++)
        for (guint j = i + 1; j < order->len; j++)
          {
            const Node *a = g_hash_table_lookup (eq, order->pdata[i]);
            const Node *b = g_hash_table_lookup (eq, order->pdata[j]);
            if (b->start < a->start)
              {
                gpointer tmp = order->pdata[i];
                order->pdata[i] = order->pdata[j];
                order->pdata[j] = tmp;
              }
          }
    }
  for (guint i = 0; i < order->len; i++)
    {
      const Node *value = g_hash_table_lookup (eq, order->pdata[i]);
      if (value == NULL)
        continue;
      if (out->len > 0)
        g_string_append (out, ", ");
      g_string_append_printf (out, "%s = %.*s", (const char *) order->pdata[i],
                              (int) (value->end - value->start), text + value->start);
    }
}

DynPartiqlInfo *
dyn_partiql_inspect_with_schema (const char           *statement,
                                 DynPartiqlSchemaFunc  schema_func,
                                 gpointer              schema_data)
{
  DynPartiqlInfo *info = g_new0 (DynPartiqlInfo, 1);
  g_autoptr(GArray) toks = NULL;
  g_autoptr(GArray) ranges = NULL;
  g_autoptr(Statement) st = NULL;
  g_autoptr(GString) keys = g_string_new (NULL);
  const DynTableKeys *table_keys = NULL;
  const DynKeySchema *key_schema = NULL;

  info->kind = DYN_PARTIQL_UNKNOWN;
  g_return_val_if_fail (statement != NULL, info);
  toks = tokenize (statement);
  ranges = statement_ranges (toks);
  if (ranges->len == 0)
    return info;
  {
    guint *range = &g_array_index (ranges, guint, 0);
    st = parse_range (NULL, toks, range[0], range[1]);
  }
  info->kind = st->kind;
  info->table = g_strdup (st->table);
  info->index = g_strdup (st->index);
  info->n_parameters = st->n_parameters;
  info->is_write = st->kind == DYN_PARTIQL_INSERT || st->kind == DYN_PARTIQL_UPDATE
                   || st->kind == DYN_PARTIQL_DELETE;
  if (st->table != NULL && schema_func != NULL)
    table_keys = schema_func (st->table, schema_data);
  if (table_keys != NULL)
    {
      const DynIndexInfo *index = dyn_table_keys_lookup (table_keys, st->index);
      if (index != NULL)
        key_schema = &index->keys;
    }
  if (st->kind == DYN_PARTIQL_INSERT && st->value != NULL && st->value->kind == N_TUPLE)
    {
      if (key_schema != NULL)
        for (guint i = 0; i < dyn_key_schema_get_n_attributes (key_schema); i++)
          {
            const char *name = dyn_key_schema_get_attribute (key_schema, i, NULL);
            for (guint j = 0; j + 1 < st->value->kids->len; j += 2)
              {
                const Node *k = kid (st->value, j);
                const Node *v = kid (st->value, j + 1);
                if (k->kind == N_STRING && strcmp (k->name, name) == 0)
                  {
                    if (keys->len > 0)
                      g_string_append (keys, ", ");
                    g_string_append_printf (keys, "%s = %.*s", name, (int) (v->end - v->start),
                                            statement + v->start);
                    break;
                  }
              }
          }
    }
  else if (st->where != NULL)
    append_equalities (statement, st->where, st->table, key_schema, keys);
  if (keys->len > 0)
    info->keys = g_strdup (keys->str);
  return info;
}

DynPartiqlInfo *
dyn_partiql_inspect (const char *statement)
{
  return dyn_partiql_inspect_with_schema (statement, NULL, NULL);
}
