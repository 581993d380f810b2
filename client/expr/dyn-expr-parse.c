/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr-parse"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"
#include "dyn-reserved.h"

/* A recursive-descent parser over an on-demand lexer. Positions are byte
 * offsets internally and 0-based character offsets in nodes and errors.
 * A list index follows its path without a space ("a[0]"), so that in
 * "ADD a [1]" the list is a value. */

typedef enum {
  TOK_EOF,
  TOK_NAME,          /* bare identifier */
  TOK_QNAME,         /* `backquoted` name */
  TOK_NAME_PH,       /* #name */
  TOK_VALUE_PH,      /* :value */
  TOK_STRING,        /* "…" */
  TOK_NUMBER,
  TOK_BINARY,        /* b64"…" */
  TOK_LPAREN, TOK_RPAREN, TOK_LBRACK, TOK_RBRACK, TOK_LBRACE, TOK_RBRACE,
  TOK_COMMA, TOK_DOT,
  TOK_EQ, TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE,
  TOK_PLUS, TOK_MINUS,
  TOK_SET_OPEN,      /* << */
  TOK_SET_CLOSE,     /* >> */
} TokKind;

typedef struct {
  TokKind  kind;
  gsize    start;    /* byte offset */
  gsize    end;
  char    *text;     /* decoded text for names, strings, numbers, placeholders */
  gsize    text_len;
  GBytes  *bytes;    /* TOK_BINARY */
} Token;

typedef struct {
  const char  *src;
  gsize        len;
  gsize        pos;
  gboolean     have_tok;
  Token        tok;
  DynExprRole  role;
  GHashTable  *names;
  GHashTable  *values;
  GHashTable  *used;         /* placeholders seen, or NULL */
  guint        depth;
  /* Cache for byte → character offsets. */
  gsize        cache_byte;
  glong        cache_char;
  /* The first error. */
  GError      *error;
  glong        error_offset;
  /* Tokens consumed, and the last parenthesized group (token numbers of its
   * '(' and ')'), to find "((…))", which DynamoDB refuses. */
  guint        n_tokens;
  guint        group_open;
  guint        group_close;
  /* Dynoscope's own forms (an inline value, a `name`) make the text
   * Dynoscope's syntax; without them it is DynamoDB's language, and what
   * only DynamoDB refuses (a bare reserved word, "_name", "((…))") is an
   * error: the first such, kept until the end. */
  gboolean     extension;
  gsize        extension_at;
  gboolean     placeholder_seen;
  GError      *dynamodb_error;
  glong        dynamodb_error_offset;
} Parser;

static glong
char_offset (Parser *p,
             gsize   byte)
{
  if (byte > p->len)
    byte = p->len;
  if (byte < p->cache_byte)
    {
      p->cache_byte = 0;
      p->cache_char = 0;
    }
  p->cache_char += g_utf8_pointer_to_offset (p->src + p->cache_byte, p->src + byte);
  p->cache_byte = byte;
  return p->cache_char;
}

/* Every message of the parser says where it stopped, as one sentence for
 * the translators: its format ends in the 1-based character number ("…
 * at character %ld", which a translation may move), and fail_at() passes
 * that number after the other arguments.
 *
 * fail_at() sets the parser's error; refuse_in_dynamodb() notes what
 * DynamoDB's grammar refuses but Dynoscope's syntax allows, an error only if
 * the text turns out to be DynamoDB's language (see Parser). The first of
 * each is kept. */
G_GNUC_PRINTF (5, 6)
static void
note_error (Parser      *p,
            GError     **slot,
            glong       *offset,
            gsize        byte,
            const char  *format,
            ...)
{
  va_list args;

  if (*slot != NULL)
    return;
  *offset = char_offset (p, byte);
  va_start (args, format);
  *slot = g_error_new_valist (DYN_ERROR, DYN_ERROR_EXPRESSION, format, args);
  va_end (args);
}

#define fail_at(p, byte, ...) \
  note_error ((p), &(p)->error, &(p)->error_offset, (byte), __VA_ARGS__, char_offset ((p), (byte)) + 1)
#define refuse_in_dynamodb(p, byte, ...) \
  note_error ((p), &(p)->dynamodb_error, &(p)->dynamodb_error_offset, (byte), __VA_ARGS__, \
              char_offset ((p), (byte)) + 1)

static void
token_clear (Token *t)
{
  g_clear_pointer (&t->text, g_free);
  g_clear_pointer (&t->bytes, g_bytes_unref);
  t->text_len = 0;
}

static gboolean
is_ident_start (guchar c)
{
  return g_ascii_isalpha (c) || c == '_' || c >= 0x80;
}

static gboolean
is_ident_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c >= 0x80;
}

static gboolean
read_hex4 (Parser   *p,
           gsize     at,
           gunichar *out)
{
  gunichar v = 0;

  if (at + 4 > p->len)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int h = g_ascii_xdigit_value (p->src[at + i]);

      if (h < 0)
        return FALSE;
      v = v * 16 + h;
    }
  *out = v;
  return TRUE;
}

/* Lexes a JSON string starting at the opening quote; sets t->text. */
static gboolean
lex_string (Parser *p,
            gsize   start,
            Token  *t)
{
  GString *s = g_string_new (NULL);
  gsize i = start + 1;

  while (TRUE)
    {
      guchar c;

      if (i >= p->len)
        {
          g_string_free (s, TRUE);
          fail_at (p, start, _("unterminated string at character %ld"));
          return FALSE;
        }
      c = p->src[i];
      if (c == '"')
        break;
      if (c < 0x20)
        {
          g_string_free (s, TRUE);
          fail_at (p, i, _("control character in a string (write it as an escape) at character %ld"));
          return FALSE;
        }
      if (c != '\\')
        {
          g_string_append_c (s, c);
          i++;
          continue;
        }
      if (i + 1 >= p->len)
        {
          g_string_free (s, TRUE);
          fail_at (p, start, _("unterminated string at character %ld"));
          return FALSE;
        }
      switch (p->src[i + 1])
        {
        case '"': g_string_append_c (s, '"'); i += 2; break;
        case '\\': g_string_append_c (s, '\\'); i += 2; break;
        case '/': g_string_append_c (s, '/'); i += 2; break;
        case 'b': g_string_append_c (s, '\b'); i += 2; break;
        case 'f': g_string_append_c (s, '\f'); i += 2; break;
        case 'n': g_string_append_c (s, '\n'); i += 2; break;
        case 'r': g_string_append_c (s, '\r'); i += 2; break;
        case 't': g_string_append_c (s, '\t'); i += 2; break;
        case 'u':
          {
            gunichar u, lo;

            if (!read_hex4 (p, i + 2, &u))
              {
                g_string_free (s, TRUE);
                fail_at (p, i, _("invalid \\u escape at character %ld"));
                return FALSE;
              }
            i += 6;
            if (u >= 0xD800 && u <= 0xDBFF)
              {
                if (i + 1 < p->len && p->src[i] == '\\' && p->src[i + 1] == 'u' &&
                    read_hex4 (p, i + 2, &lo) && lo >= 0xDC00 && lo <= 0xDFFF)
                  {
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                  }
                else
                  {
                    g_string_free (s, TRUE);
                    fail_at (p, i - 6, _("unpaired surrogate in a \\u escape at character %ld"));
                    return FALSE;
                  }
              }
            else if (u >= 0xDC00 && u <= 0xDFFF)
              {
                g_string_free (s, TRUE);
                fail_at (p, i - 6, _("unpaired surrogate in a \\u escape at character %ld"));
                return FALSE;
              }
            else if (u == 0)
              {
                /* Values hold C strings. */
                g_string_free (s, TRUE);
                fail_at (p, i - 6, _("a string cannot contain \\u0000 at character %ld"));
                return FALSE;
              }
            g_string_append_unichar (s, u);
          }
          break;
        default:
          g_string_free (s, TRUE);
          /* Translators: %c is the letter after the backslash of an unknown escape (\x), %ld its position */
          fail_at (p, i, _("invalid escape '\\%c' in a string at character %ld"), p->src[i + 1]);
          return FALSE;
        }
    }
  t->end = i + 1;
  t->text_len = s->len;
  t->text = g_string_free (s, FALSE);
  return TRUE;
}

static gboolean
lex_placeholder (Parser *p,
                 gsize   start,
                 Token  *t)
{
  gsize i = start + 1;

  while (i < p->len && (g_ascii_isalnum (p->src[i]) || p->src[i] == '_'))
    i++;
  if (i == start + 1)
    {
      /* Translators: %c is '#' or ':', which start a placeholder such as #name or :value */
      fail_at (p, start, _("'%c' must be followed by a placeholder name at character %ld"), p->src[start]);
      return FALSE;
    }
  if (i - start > DYN_EXPR_MAX_PLACEHOLDER)
    {
      /* Translators: %d is DynamoDB's limit (255), %ld the position */
      fail_at (p, start, _("the placeholder is longer than %d bytes at character %ld"), DYN_EXPR_MAX_PLACEHOLDER);
      return FALSE;
    }
  t->kind = p->src[start] == '#' ? TOK_NAME_PH : TOK_VALUE_PH;
  p->placeholder_seen = TRUE;
  t->text = g_strndup (p->src + start, i - start);
  t->text_len = i - start;
  t->end = i;
  return TRUE;
}

static gboolean
lex_number (Parser *p,
            gsize   start,
            Token  *t)
{
  gsize i = start;

  while (i < p->len && g_ascii_isdigit (p->src[i]))
    i++;
  if (i < p->len && p->src[i] == '.')
    {
      i++;
      if (i >= p->len || !g_ascii_isdigit (p->src[i]))
        {
          fail_at (p, start, _("invalid number at character %ld"));
          return FALSE;
        }
      while (i < p->len && g_ascii_isdigit (p->src[i]))
        i++;
    }
  if (i < p->len && (p->src[i] == 'e' || p->src[i] == 'E'))
    {
      i++;
      if (i < p->len && (p->src[i] == '+' || p->src[i] == '-'))
        i++;
      if (i >= p->len || !g_ascii_isdigit (p->src[i]))
        {
          fail_at (p, start, _("invalid number at character %ld"));
          return FALSE;
        }
      while (i < p->len && g_ascii_isdigit (p->src[i]))
        i++;
    }
  if (i < p->len && (is_ident_char (p->src[i]) || p->src[i] == '.'))
    {
      fail_at (p, start, _("invalid number at character %ld"));
      return FALSE;
    }
  t->kind = TOK_NUMBER;
  t->text = g_strndup (p->src + start, i - start);
  t->text_len = i - start;
  t->end = i;
  return TRUE;
}

static gboolean
base64_valid (const char *s,
              gsize       len)
{
  gsize pad = 0;

  if (len % 4 != 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = s[i];

      if (c == '=')
        {
          pad++;
          continue;
        }
      if (pad > 0 || !(g_ascii_isalnum (c) || c == '+' || c == '/'))
        return FALSE;
    }
  return pad <= 2;
}

/* Reads the next token at p->pos into p->tok. On a lexical error, sets the
 * error and returns a TOK_EOF token. */
static Token *
peek (Parser *p)
{
  Token *t = &p->tok;
  gsize i;
  guchar c;

  if (p->have_tok)
    return t;
  token_clear (t);
  p->have_tok = TRUE;

  i = p->pos;
  while (i < p->len && g_ascii_isspace (p->src[i]))
    i++;
  t->start = i;
  t->end = i;
  t->kind = TOK_EOF;
  if (i >= p->len || p->error != NULL)
    return t;

  c = p->src[i];
  t->end = i + 1;
  switch (c)
    {
    case '(': t->kind = TOK_LPAREN; return t;
    case ')': t->kind = TOK_RPAREN; return t;
    case '[': t->kind = TOK_LBRACK; return t;
    case ']': t->kind = TOK_RBRACK; return t;
    case '{': t->kind = TOK_LBRACE; return t;
    case '}': t->kind = TOK_RBRACE; return t;
    case ',': t->kind = TOK_COMMA; return t;
    case '.': t->kind = TOK_DOT; return t;
    case '=': t->kind = TOK_EQ; return t;
    case '+': t->kind = TOK_PLUS; return t;
    case '-': t->kind = TOK_MINUS; return t;
    case '<':
      if (i + 1 < p->len && p->src[i + 1] == '>')
        t->kind = TOK_NE, t->end = i + 2;
      else if (i + 1 < p->len && p->src[i + 1] == '=')
        t->kind = TOK_LE, t->end = i + 2;
      else if (i + 1 < p->len && p->src[i + 1] == '<')
        t->kind = TOK_SET_OPEN, t->end = i + 2;
      else
        t->kind = TOK_LT;
      return t;
    case '>':
      if (i + 1 < p->len && p->src[i + 1] == '=')
        t->kind = TOK_GE, t->end = i + 2;
      else if (i + 1 < p->len && p->src[i + 1] == '>')
        t->kind = TOK_SET_CLOSE, t->end = i + 2;
      else
        t->kind = TOK_GT;
      return t;
    case '"':
      if (lex_string (p, i, t))
        t->kind = TOK_STRING;
      else
        t->kind = TOK_EOF;
      return t;
    case '#':
    case ':':
      if (!lex_placeholder (p, i, t))
        t->kind = TOK_EOF;
      return t;
    case '`':
      {
        GString *s = g_string_new (NULL);
        gsize j = i + 1;

        while (TRUE)
          {
            if (j >= p->len)
              {
                g_string_free (s, TRUE);
                fail_at (p, i, _("unterminated `name` at character %ld"));
                t->kind = TOK_EOF;
                return t;
              }
            if (p->src[j] == '`')
              {
                if (j + 1 < p->len && p->src[j + 1] == '`')
                  {
                    g_string_append_c (s, '`');
                    j += 2;
                    continue;
                  }
                break;
              }
            g_string_append_c (s, p->src[j]);
            j++;
          }
        if (s->len == 0)
          {
            g_string_free (s, TRUE);
            fail_at (p, i, _("empty `name` at character %ld"));
            t->kind = TOK_EOF;
            return t;
          }
        t->kind = TOK_QNAME;
        if (!p->extension)
          p->extension_at = i;
        p->extension = TRUE;
        t->text_len = s->len;
        t->text = g_string_free (s, FALSE);
        t->end = j + 1;
        return t;
      }
    default:
      break;
    }

  if (g_ascii_isdigit (c))
    {
      if (!lex_number (p, i, t))
        t->kind = TOK_EOF;
      return t;
    }

  if (is_ident_start (c))
    {
      gsize j = i;

      while (j < p->len && is_ident_char (p->src[j]))
        j++;
      if (j - i == 3 && strncmp (p->src + i, "b64", 3) == 0 && j < p->len && p->src[j] == '"')
        {
          Token tmp = { 0, };

          if (!lex_string (p, j, &tmp))
            {
              t->kind = TOK_EOF;
              return t;
            }
          if (!base64_valid (tmp.text, tmp.text_len))
            {
              fail_at (p, j, _("invalid base64 in a binary value at character %ld"));
              token_clear (&tmp);
              t->kind = TOK_EOF;
              return t;
            }
          {
            gsize n = 0;
            guchar *data = tmp.text_len ? g_base64_decode (tmp.text, &n) : g_malloc0 (1);

            t->bytes = g_bytes_new_take (data, n);
          }
          t->kind = TOK_BINARY;
          t->end = tmp.end;
          token_clear (&tmp);
          return t;
        }
      t->kind = TOK_NAME;
      t->text = g_strndup (p->src + i, j - i);
      t->text_len = j - i;
      t->end = j;
      return t;
    }

  /* Translators: %c is the character found, %ld its position */
  fail_at (p, i, _("unexpected character '%c' at character %ld"), c);
  t->kind = TOK_EOF;
  return t;
}

static void
advance (Parser *p)
{
  peek (p);
  p->pos = p->tok.end;
  p->have_tok = FALSE;
  p->n_tokens++;
  token_clear (&p->tok);
}

static gboolean
tok_is_word (Token      *t,
             const char *word)
{
  return t->kind == TOK_NAME && g_ascii_strcasecmp (t->text, word) == 0;
}

static gboolean
tok_is_keyword (Token *t)
{
  return t->kind == TOK_NAME && _dyn_expr_is_keyword (t->text, t->text_len);
}

static const char *
tok_describe (TokKind kind)
{
  switch (kind)
    {
    case TOK_EOF: return N_("end of expression");
    case TOK_LPAREN: return "'('";
    case TOK_RPAREN: return "')'";
    case TOK_LBRACK: return "'['";
    case TOK_RBRACK: return "']'";
    case TOK_LBRACE: return "'{'";
    case TOK_RBRACE: return "'}'";
    case TOK_COMMA: return "','";
    case TOK_DOT: return "'.'";
    case TOK_EQ: return "'='";
    case TOK_SET_CLOSE: return "'>>'";
    default: return N_("token");
    }
}

static gboolean
expect (Parser  *p,
        TokKind  kind)
{
  Token *t = peek (p);

  if (p->error != NULL)
    return FALSE;
  if (t->kind != kind)
    {
      /* Translators: %s is a token such as ')' or ',' (or “end of expression”), %ld its position */
      fail_at (p, t->start, _("expected %s at character %ld"), _(tok_describe (kind)));
      return FALSE;
    }
  advance (p);
  return TRUE;
}

static DynExprNode *
node_at (Parser      *p,
         DynExprKind  kind,
         gsize        byte)
{
  DynExprNode *n = dyn_expr_node_new (kind);

  n->offset = char_offset (p, byte);
  return n;
}

/* ------------------------------------------------------------------------ */
/* Literal values */

static DynValue *parse_literal (Parser *p);

static DynValue *
convert_value_error (Parser  *p,
                     gsize    at,
                     GError  *error)
{
  /* Translators: %s says what is wrong with a value (“invalid number …”), %ld where it starts */
  fail_at (p, at, _("%s at character %ld"), error->message);
  g_error_free (error);
  return NULL;
}

static DynValue *
parse_set (Parser *p)
{
  gsize start = peek (p)->start;
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) binaries = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  TokKind elem = TOK_EOF;
  GError *error = NULL;
  DynValue *v;

  advance (p);    /* << */
  if (peek (p)->kind == TOK_SET_CLOSE)
    {
      fail_at (p, start, _("a set cannot be empty at character %ld"));
      return NULL;
    }
  while (TRUE)
    {
      Token *t = peek (p);
      gsize at = t->start;
      TokKind kind = t->kind;
      g_autofree char *text = NULL;

      if (p->error != NULL)
        return NULL;
      if (kind == TOK_MINUS)
        {
          gsize minus_end = t->end;

          advance (p);
          t = peek (p);
          if (t->kind != TOK_NUMBER || t->start != minus_end)
            {
              fail_at (p, at, _("expected a number after '-' at character %ld"));
              return NULL;
            }
          text = g_strconcat ("-", t->text, NULL);
          kind = TOK_NUMBER;
        }
      else if (kind == TOK_STRING || kind == TOK_NUMBER)
        text = g_strdup (t->text);
      else if (kind != TOK_BINARY)
        {
          fail_at (p, at, _("a set holds strings, numbers or b64\"…\" binaries at character %ld"));
          return NULL;
        }
      if (kind == TOK_STRING && strlen (t->text) != t->text_len)
        {
          fail_at (p, at, _("a set string cannot contain \\u0000 at character %ld"));
          return NULL;
        }
      if (elem != TOK_EOF && elem != kind)
        {
          fail_at (p, at, _("all elements of a set must have the same type at character %ld"));
          return NULL;
        }
      elem = kind;
      if (kind == TOK_BINARY)
        g_ptr_array_add (binaries, g_bytes_ref (t->bytes));
      else
        g_ptr_array_add (strings, g_steal_pointer (&text));
      advance (p);

      t = peek (p);
      if (t->kind == TOK_COMMA)
        {
          advance (p);
          continue;
        }
      if (!expect (p, TOK_SET_CLOSE))
        return NULL;
      break;
    }

  if (elem == TOK_STRING)
    v = dyn_value_new_string_set ((const char * const *) strings->pdata, strings->len, &error);
  else if (elem == TOK_NUMBER)
    v = dyn_value_new_number_set ((const char * const *) strings->pdata, strings->len, &error);
  else
    v = dyn_value_new_binary_set ((GBytes * const *) binaries->pdata, binaries->len, &error);
  if (v == NULL)
    return convert_value_error (p, start, error);
  return v;
}

static DynValue *
parse_literal (Parser *p)
{
  Token *t = peek (p);
  gsize at = t->start;
  GError *error = NULL;
  DynValue *v = NULL;

  if (p->error != NULL)
    return NULL;
  if (!p->extension)
    p->extension_at = at;
  p->extension = TRUE;
  if (p->depth > DYN_EXPR_MAX_PATH_DEPTH)
    {
      /* Translators: %d is DynamoDB's limit (32), %ld the position */
      fail_at (p, at, _("the value is nested more than %d levels deep at character %ld"), DYN_EXPR_MAX_PATH_DEPTH);
      return NULL;
    }

  switch (t->kind)
    {
    case TOK_STRING:
      v = dyn_value_new_string_len (t->text, t->text_len);
      advance (p);
      return v;

    case TOK_MINUS:
    case TOK_NUMBER:
      {
        g_autofree char *text = NULL;

        if (t->kind == TOK_MINUS)
          {
            gsize minus_end = t->end;

            advance (p);
            t = peek (p);
            if (t->kind != TOK_NUMBER || t->start != minus_end)
              {
                fail_at (p, at, _("expected a number after '-' at character %ld"));
                return NULL;
              }
            text = g_strconcat ("-", t->text, NULL);
          }
        else
          text = g_strdup (t->text);
        v = dyn_value_new_number (text, &error);
        if (v == NULL)
          return convert_value_error (p, at, error);
        advance (p);
        return v;
      }

    case TOK_BINARY:
      v = dyn_value_new_binary (t->bytes);
      advance (p);
      return v;

    case TOK_NAME:
      if (strcmp (t->text, "true") == 0 || strcmp (t->text, "false") == 0)
        v = dyn_value_new_bool (t->text[0] == 't');
      else if (strcmp (t->text, "null") == 0)
        v = dyn_value_new_null ();
      else
        break;
      advance (p);
      return v;

    case TOK_SET_OPEN:
      return parse_set (p);

    case TOK_LBRACK:
      {
        g_autoptr(DynValue) list = dyn_value_new_list ();

        advance (p);
        if (peek (p)->kind == TOK_RBRACK)
          {
            advance (p);
            return g_steal_pointer (&list);
          }
        p->depth++;
        while (TRUE)
          {
            DynValue *e = parse_literal (p);

            if (e == NULL)
              return NULL;
            dyn_value_list_take (list, e);
            if (peek (p)->kind == TOK_COMMA)
              {
                advance (p);
                continue;
              }
            if (!expect (p, TOK_RBRACK))
              return NULL;
            break;
          }
        p->depth--;
        return g_steal_pointer (&list);
      }

    case TOK_LBRACE:
      {
        g_autoptr(DynValue) map = dyn_value_new_map ();

        advance (p);
        if (peek (p)->kind == TOK_RBRACE)
          {
            advance (p);
            return g_steal_pointer (&map);
          }
        p->depth++;
        while (TRUE)
          {
            g_autofree char *key = NULL;
            gsize key_at;
            DynValue *e;

            t = peek (p);
            key_at = t->start;
            if (t->kind != TOK_STRING)
              {
                fail_at (p, t->start, _("expected a string member name at character %ld"));
                return NULL;
              }
            if (strlen (t->text) != t->text_len || t->text_len == 0)
              {
                fail_at (p, t->start, _("a member name cannot be empty or contain \\u0000 at character %ld"));
                return NULL;
              }
            key = g_strdup (t->text);
            advance (p);
            /* ':' is lexed by hand: ":1" would otherwise read as a placeholder. */
            while (p->pos < p->len && g_ascii_isspace (p->src[p->pos]))
              p->pos++;
            if (p->pos >= p->len || p->src[p->pos] != ':')
              {
                fail_at (p, p->pos, _("expected ':' at character %ld"));
                return NULL;
              }
            p->pos++;
            if (dyn_value_map_lookup (map, key) != NULL)
              {
                /* Translators: %s is a member name of a map value, %ld its position */
                fail_at (p, key_at, _("the member \"%s\" appears twice at character %ld"), key);
                return NULL;
              }
            e = parse_literal (p);
            if (e == NULL)
              return NULL;
            dyn_value_map_take (map, key, e);
            if (peek (p)->kind == TOK_COMMA)
              {
                advance (p);
                continue;
              }
            if (!expect (p, TOK_RBRACE))
              return NULL;
            break;
          }
        p->depth--;
        return g_steal_pointer (&map);
      }

    default:
      break;
    }

  if (p->error == NULL)
    fail_at (p, at, _("expected a value at character %ld"));
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Paths and operands */

static gboolean
resolve_name (Parser      *p,
              Token       *t,
              DynExprPath *path)
{
  if (t->kind == TOK_NAME_PH)
    {
      const char *name;

      if (p->used != NULL)
        g_hash_table_add (p->used, g_strdup (t->text));
      if (p->names == NULL)
        {
          dyn_expr_path_append_placeholder (path, t->text);
          return TRUE;
        }
      name = g_hash_table_lookup (p->names, t->text);
      if (name == NULL)
        {
          /* Translators: %s is a placeholder such as #n; keep ExpressionAttributeNames, a request field */
          fail_at (p, t->start, _("the name placeholder %s is not defined in ExpressionAttributeNames at "
                                  "character %ld"), t->text);
          return FALSE;
        }
      if (name[0] == '\0')
        {
          /* Translators: %s is a placeholder such as #n, %ld its position */
          fail_at (p, t->start, _("the name placeholder %s stands for an empty name at character %ld"), t->text);
          return FALSE;
        }
      dyn_expr_path_append_name (path, name);
      return TRUE;
    }
  if (strlen (t->text) != t->text_len)
    {
      fail_at (p, t->start, _("a name cannot contain a NUL character at character %ld"));
      return FALSE;
    }
  if (t->kind == TOK_NAME)
    {
      if (!g_ascii_isalpha (t->text[0]) || !_dyn_expr_is_dynamodb_name (t->text))
        /* Translators: %s is the name written; keep #name, the placeholder syntax */
        refuse_in_dynamodb (p, t->start, _("%s cannot be written bare in DynamoDB: a name must start with a "
                                           "letter and hold only letters, digits and _ (use a #name "
                                           "placeholder) at character %ld"), t->text);
      /* DynamoDB's list names CONVERT and SIZE too, but DynamoDB Local reads
       * both as names (asked of it in tests/test-expr-classes.c). */
      else if (dyn_reserved_word_is_reserved (t->text) && g_ascii_strcasecmp (t->text, "size") != 0 &&
               g_ascii_strcasecmp (t->text, "convert") != 0)
        /* Translators: %s is the name written; keep #name, the placeholder syntax */
        refuse_in_dynamodb (p, t->start, _("%s is a reserved word in DynamoDB (use a #name placeholder) at "
                                           "character %ld"), t->text);
    }
  dyn_expr_path_append_name (path, t->text);
  return TRUE;
}

static gboolean
is_literal_word (Token *t)
{
  return t->kind == TOK_NAME &&
         (strcmp (t->text, "true") == 0 || strcmp (t->text, "false") == 0 || strcmp (t->text, "null") == 0);
}

static gboolean
tok_starts_path (Token *t)
{
  return (t->kind == TOK_NAME && !tok_is_keyword (t)) || t->kind == TOK_QNAME ||
         t->kind == TOK_NAME_PH;
}

/* Is the '[' at @t, written after a space, a list index of the path before
 * it? Always, except after the path of an ADD or DELETE action
 * (@spaced_index FALSE), where "ADD a [1]" is a list value and "ADD a [1] :v"
 * an index: there it is one when a value placeholder follows the ']'. */
static gboolean
index_follows (Parser   *p,
               Token    *t,
               gboolean  spaced_index)
{
  gsize i = t->end;

  if (spaced_index)
    return TRUE;
  while (i < p->len && (g_ascii_isdigit (p->src[i]) || g_ascii_isspace (p->src[i])))
    i++;
  if (i >= p->len || p->src[i] != ']')
    return FALSE;
  i++;
  while (i < p->len && g_ascii_isspace (p->src[i]))
    i++;
  return i < p->len && p->src[i] == ':';
}

static DynExprNode *
parse_path_full (Parser   *p,
                 gboolean  spaced_index)
{
  Token *t = peek (p);
  g_autoptr(DynExprPath) path = NULL;
  gsize start = t->start;
  DynExprNode *node;

  if (p->error != NULL)
    return NULL;
  if (!tok_starts_path (t))
    {
      if (tok_is_keyword (t))
        /* Translators: both %s are the keyword found (AND, SET …); `%s` is how it is written as a name */
        fail_at (p, t->start, _("expected an attribute name, found the keyword '%s' (write `%s` to use it as a "
                                "name) at character %ld"),
                 t->text, t->text);
      else
        fail_at (p, t->start, _("expected an attribute name at character %ld"));
      return NULL;
    }
  path = dyn_expr_path_new (NULL);
  if (!resolve_name (p, t, path))
    return NULL;
  advance (p);

  while (TRUE)
    {
      t = peek (p);
      if (t->kind == TOK_DOT)
        {
          advance (p);
          t = peek (p);
          if (t->kind != TOK_NAME && t->kind != TOK_QNAME && t->kind != TOK_NAME_PH)
            {
              fail_at (p, t->start, _("expected an attribute name after '.' at character %ld"));
              return NULL;
            }
          if (!resolve_name (p, t, path))
            return NULL;
          advance (p);
        }
      else if (t->kind == TOK_LBRACK && (t->start == p->pos || index_follows (p, t, spaced_index)))
        {
          guint64 index;

          advance (p);
          t = peek (p);
          if (t->kind != TOK_NUMBER || strspn (t->text, "0123456789") != t->text_len)
            {
              fail_at (p, t->start, _("a list index must be a non-negative integer at character %ld"));
              return NULL;
            }
          if (t->text_len > 10 || g_ascii_strtoull (t->text, NULL, 10) > G_MAXINT32)
            {
              /* Translators: %d is DynamoDB's largest list index (2147483647) */
              fail_at (p, t->start, _("a list index cannot be greater than %d at character %ld"), G_MAXINT32);
              return NULL;
            }
          if (t->text_len > 1 && t->text[0] == '0')
            refuse_in_dynamodb (p, t->start, _("a list index cannot have leading zeros at character %ld"));
          index = g_ascii_strtoull (t->text, NULL, 10);
          advance (p);
          if (!expect (p, TOK_RBRACK))
            return NULL;
          dyn_expr_path_append_index (path, (guint) index);
        }
      else
        break;
      if (dyn_expr_path_get_length (path) > DYN_EXPR_MAX_PATH_DEPTH)
        {
          /* Translators: %d is DynamoDB's limit (32), %ld the position */
          fail_at (p, start, _("the document path is nested more than %d levels deep at character %ld"),
                   DYN_EXPR_MAX_PATH_DEPTH);
          return NULL;
        }
    }
  node = dyn_expr_node_new_path (g_steal_pointer (&path));
  node->offset = char_offset (p, start);
  return node;
}

static DynExprNode *
parse_path (Parser *p)
{
  return parse_path_full (p, TRUE);
}

static DynExprNode *
parse_value_operand (Parser *p)
{
  Token *t = peek (p);
  gsize start = t->start;
  DynExprNode *node;

  if (t->kind == TOK_VALUE_PH)
    {
      if (p->used != NULL)
        g_hash_table_add (p->used, g_strdup (t->text));
      node = node_at (p, DYN_EXPR_VALUE, start);
      if (p->values == NULL)
        node->placeholder = g_strdup (t->text);
      else
        {
          DynValue *v = g_hash_table_lookup (p->values, t->text);

          if (v == NULL)
            {
              /* Translators: %s is a placeholder such as :v; keep ExpressionAttributeValues, a request field */
              fail_at (p, start, _("the value placeholder %s is not defined in ExpressionAttributeValues at "
                                   "character %ld"), t->text);
              dyn_expr_node_unref (node);
              return NULL;
            }
          node->value = dyn_value_ref (v);
        }
      advance (p);
      return node;
    }
  else
    {
      DynValue *v = parse_literal (p);

      if (v == NULL)
        return NULL;
      node = node_at (p, DYN_EXPR_VALUE, start);
      node->value = v;
      return node;
    }
}

static const char * const known_functions[] = {
  "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with",
  "contains", "size", "if_not_exists", "list_append",
};

static gboolean
check_function_name (Parser *p,
                     Token  *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_functions); i++)
    if (strcmp (t->text, known_functions[i]) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (known_functions); i++)
    if (g_ascii_strcasecmp (t->text, known_functions[i]) == 0)
      {
        /* Translators: the first %s is the name written (“Size”), the second the function meant (“size”) */
        fail_at (p, t->start, _("unknown function '%s' (function names are case-sensitive: %s) at character %ld"),
                 t->text, known_functions[i]);
        return FALSE;
      }
  /* Translators: %s is the name written, %ld its position */
  fail_at (p, t->start, _("unknown function '%s' at character %ld"), t->text);
  return FALSE;
}

/* Is the current token a NAME immediately followed by '('? */
static gboolean
at_function_call (Parser *p)
{
  Token *t = peek (p);
  gsize i;

  if (t->kind != TOK_NAME || tok_is_keyword (t))
    return FALSE;
  i = t->end;
  while (i < p->len && g_ascii_isspace (p->src[i]))
    i++;
  return i < p->len && p->src[i] == '(';
}

static DynExprNode *parse_or (Parser *p);
static DynExprNode *parse_unit (Parser *p);

/* After a parenthesized group from token @open to @close: "((x))" is
 * redundant in DynamoDB's grammar. */
static void
close_group (Parser *p,
             guint   open,
             guint   close,
             gsize   open_byte)
{
  if (p->group_open == open + 1 && p->group_close == close - 1)
    refuse_in_dynamodb (p, open_byte, _("redundant parentheses at character %ld"));
  p->group_open = open;
  p->group_close = close;
}

static gboolean
node_is_condition_operand (DynExprNode *node)
{
  return node->kind == DYN_EXPR_PATH || node->kind == DYN_EXPR_VALUE || node->kind == DYN_EXPR_SIZE;
}

/* A condition operand: a path, a value or size(operand), in parentheses at
 * any depth. */
static DynExprNode *
parse_operand (Parser *p)
{
  gsize start = peek (p)->start;
  DynExprNode *node;

  if (p->error != NULL)
    return NULL;
  node = parse_unit (p);
  if (node != NULL && !node_is_condition_operand (node))
    {
      static const char * const functions[] = {
        [DYN_EXPR_ATTRIBUTE_EXISTS] = "attribute_exists",
        [DYN_EXPR_ATTRIBUTE_NOT_EXISTS] = "attribute_not_exists",
        [DYN_EXPR_ATTRIBUTE_TYPE] = "attribute_type",
        [DYN_EXPR_BEGINS_WITH] = "begins_with",
        [DYN_EXPR_CONTAINS] = "contains",
      };

      if (node->kind < G_N_ELEMENTS (functions) && functions[node->kind] != NULL)
        /* Translators: %s is a function such as attribute_exists, %ld its position */
        fail_at (p, start, _("%s is a condition, not a value at character %ld"), functions[node->kind]);
      else
        fail_at (p, start, _("expected a value, not a condition at character %ld"));
      g_clear_pointer (&node, dyn_expr_node_unref);
    }
  return node;
}

/* An argument of a function that requires a document path. */
static DynExprNode *
parse_path_argument (Parser     *p,
                     const char *function,
                     DynExprNode *(*operand) (Parser *p))
{
  gsize start = peek (p)->start;
  DynExprNode *node = operand (p);

  if (node != NULL && node->kind != DYN_EXPR_PATH)
    {
      /* Translators: %s is a function such as attribute_exists, %ld the position of its argument */
      fail_at (p, start, _("%s requires a document path, not a value at character %ld"), function);
      g_clear_pointer (&node, dyn_expr_node_unref);
    }
  return node;
}

static DynExprNode *
parse_size (Parser *p)
{
  gsize start = peek (p)->start;
  g_autoptr(DynExprNode) node = node_at (p, DYN_EXPR_SIZE, start);
  DynExprNode *arg;

  advance (p);    /* size */
  if (!expect (p, TOK_LPAREN))
    return NULL;
  p->depth++;
  arg = parse_operand (p);
  p->depth--;
  if (arg == NULL)
    return NULL;
  g_ptr_array_add (node->children, arg);
  if (!expect (p, TOK_RPAREN))
    return NULL;
  return g_steal_pointer (&node);
}

/* ------------------------------------------------------------------------ */
/* Conditions */

static DynExprNode *
parse_function_condition (Parser *p)
{
  Token *t = peek (p);
  gsize start = t->start;
  g_autofree char *name = g_strdup (t->text);
  g_autoptr(DynExprNode) node = NULL;
  DynExprKind kind;
  guint n_args;
  DynExprNode *arg;

  if (strcmp (name, "attribute_exists") == 0)
    kind = DYN_EXPR_ATTRIBUTE_EXISTS, n_args = 1;
  else if (strcmp (name, "attribute_not_exists") == 0)
    kind = DYN_EXPR_ATTRIBUTE_NOT_EXISTS, n_args = 1;
  else if (strcmp (name, "attribute_type") == 0)
    kind = DYN_EXPR_ATTRIBUTE_TYPE, n_args = 2;
  else if (strcmp (name, "begins_with") == 0)
    kind = DYN_EXPR_BEGINS_WITH, n_args = 2;
  else if (strcmp (name, "contains") == 0)
    kind = DYN_EXPR_CONTAINS, n_args = 2;
  else
    g_return_val_if_reached (NULL);

  node = node_at (p, kind, start);
  advance (p);
  if (!expect (p, TOK_LPAREN))
    return NULL;
  p->depth++;
  if (n_args == 1)
    arg = parse_path_argument (p, name, parse_operand);
  else
    arg = parse_operand (p);
  p->depth--;
  if (arg == NULL)
    return NULL;
  g_ptr_array_add (node->children, arg);
  if (n_args == 2)
    {
      if (peek (p)->kind != TOK_COMMA)
        {
          fail_at (p, peek (p)->start, _("expected ',' at character %ld"));
          return NULL;
        }
      advance (p);
      p->depth++;
      arg = parse_operand (p);
      p->depth--;
      if (arg == NULL)
        return NULL;
      g_ptr_array_add (node->children, arg);
    }
  if (!expect (p, TOK_RPAREN))
    return NULL;
  return g_steal_pointer (&node);
}

static gboolean
comparator (TokKind           kind,
            DynExprCompareOp *op)
{
  switch (kind)
    {
    case TOK_EQ: *op = DYN_EXPR_OP_EQ; return TRUE;
    case TOK_NE: *op = DYN_EXPR_OP_NE; return TRUE;
    case TOK_LT: *op = DYN_EXPR_OP_LT; return TRUE;
    case TOK_LE: *op = DYN_EXPR_OP_LE; return TRUE;
    case TOK_GT: *op = DYN_EXPR_OP_GT; return TRUE;
    case TOK_GE: *op = DYN_EXPR_OP_GE; return TRUE;
    default: return FALSE;
    }
}

/* One unit of a condition: a parenthesized group (a condition or an
 * operand), a function, or an operand. */
static DynExprNode *
parse_unit (Parser *p)
{
  Token *t = peek (p);
  gsize start = t->start;

  if (p->error != NULL)
    return NULL;
  if (p->depth >= DYN_EXPR_MAX_NESTING)
    {
      fail_at (p, start, _("the expression is nested too deeply at character %ld"));
      return NULL;
    }

  if (t->kind == TOK_LPAREN)
    {
      guint open = p->n_tokens;
      DynExprNode *inner;

      advance (p);
      p->depth++;
      inner = parse_or (p);
      p->depth--;
      if (inner == NULL)
        return NULL;
      if (!expect (p, TOK_RPAREN))
        {
          dyn_expr_node_unref (inner);
          return NULL;
        }
      close_group (p, open, p->n_tokens - 1, start);
      return inner;
    }

  if (at_function_call (p))
    {
      if (!check_function_name (p, t))
        return NULL;
      if (strcmp (t->text, "size") == 0)
        return parse_size (p);
      if (strcmp (t->text, "if_not_exists") == 0 || strcmp (t->text, "list_append") == 0)
        {
          /* Translators: %s is a function, if_not_exists or list_append; keep SET, a keyword */
          fail_at (p, t->start, _("%s can only be used in a SET action at character %ld"), t->text);
          return NULL;
        }
      return parse_function_condition (p);
    }

  if (t->kind == TOK_EOF)
    {
      fail_at (p, start, _("expected a condition at character %ld"));
      return NULL;
    }
  if (tok_starts_path (t) || (tok_is_keyword (t) && !is_literal_word (t)))
    return parse_path (p);
  return parse_value_operand (p);
}

/* A condition, or an operand that no comparison follows (for the caller:
 * only a parenthesized group may hold one). */
static DynExprNode *
parse_primary (Parser *p)
{
  gsize start = peek (p)->start;
  g_autoptr(DynExprNode) lhs = NULL;
  DynExprCompareOp op;
  Token *t;

  lhs = parse_unit (p);
  if (lhs == NULL || !node_is_condition_operand (lhs))
    return g_steal_pointer (&lhs);

  t = peek (p);
  if (comparator (t->kind, &op))
    {
      DynExprNode *rhs;
      g_autoptr(DynExprNode) node = node_at (p, DYN_EXPR_COMPARE, start);

      node->op = op;
      g_ptr_array_add (node->children, g_steal_pointer (&lhs));
      advance (p);
      rhs = parse_operand (p);
      if (rhs == NULL)
        return NULL;
      g_ptr_array_add (node->children, rhs);
      return g_steal_pointer (&node);
    }
  if (tok_is_word (t, "BETWEEN"))
    {
      g_autoptr(DynExprNode) node = node_at (p, DYN_EXPR_BETWEEN, start);
      DynExprNode *bound;

      g_ptr_array_add (node->children, g_steal_pointer (&lhs));
      advance (p);
      bound = parse_operand (p);
      if (bound == NULL)
        return NULL;
      g_ptr_array_add (node->children, bound);
      if (!tok_is_word (peek (p), "AND"))
        {
          fail_at (p, peek (p)->start, _("expected AND of BETWEEN at character %ld"));
          return NULL;
        }
      advance (p);
      bound = parse_operand (p);
      if (bound == NULL)
        return NULL;
      g_ptr_array_add (node->children, bound);
      return g_steal_pointer (&node);
    }
  if (tok_is_word (t, "IN"))
    {
      g_autoptr(DynExprNode) node = node_at (p, DYN_EXPR_IN, start);

      g_ptr_array_add (node->children, g_steal_pointer (&lhs));
      advance (p);
      if (!expect (p, TOK_LPAREN))
        return NULL;
      while (TRUE)
        {
          DynExprNode *e;

          if (node->children->len - 1 >= DYN_EXPR_MAX_IN_OPERANDS)
            {
              /* Translators: IN is a keyword; %d is DynamoDB's limit (100), %ld the position */
              fail_at (p, peek (p)->start, _("IN takes at most %d operands at character %ld"),
                       DYN_EXPR_MAX_IN_OPERANDS);
              return NULL;
            }
          e = parse_operand (p);
          if (e == NULL)
            return NULL;
          g_ptr_array_add (node->children, e);
          if (peek (p)->kind == TOK_COMMA)
            {
              advance (p);
              continue;
            }
          if (!expect (p, TOK_RPAREN))
            return NULL;
          break;
        }
      return g_steal_pointer (&node);
    }
  return g_steal_pointer (&lhs);
}

/* @node is an operand where a condition must stand: the error is at the
 * token after it. */
static DynExprNode *
require_condition (Parser      *p,
                   DynExprNode *node)
{
  if (node == NULL || !node_is_condition_operand (node))
    return node;
  if (p->error == NULL)
    fail_at (p, peek (p)->start, _("expected a comparison operator, BETWEEN or IN at character %ld"));
  dyn_expr_node_unref (node);
  return NULL;
}

static DynExprNode *
parse_not (Parser *p)
{
  Token *t = peek (p);

  if (p->depth >= DYN_EXPR_MAX_NESTING)
    {
      fail_at (p, t->start, _("the expression is nested too deeply at character %ld"));
      return NULL;
    }
  if (tok_is_word (t, "NOT"))
    {
      g_autoptr(DynExprNode) node = node_at (p, DYN_EXPR_NOT, t->start);
      DynExprNode *child;

      advance (p);
      p->depth++;
      child = require_condition (p, parse_not (p));
      p->depth--;
      if (child == NULL)
        return NULL;
      g_ptr_array_add (node->children, child);
      return g_steal_pointer (&node);
    }
  else
    {
      DynExprNode *node;

      p->depth++;
      node = parse_primary (p);
      p->depth--;
      return node;
    }
}

/* A run of @operand joined by the keyword @word: the operand alone (which
 * may be a bare operand, for a parenthesized group), or one @kind node
 * holding them all. */
static DynExprNode *
parse_joined (Parser         *p,
              const char     *word,
              DynExprKind     kind,
              DynExprNode  *(*operand) (Parser *p))
{
  gsize start = peek (p)->start;
  g_autoptr(DynExprNode) first = operand (p);
  g_autoptr(DynExprNode) group = NULL;

  if (first == NULL)
    return NULL;
  while (tok_is_word (peek (p), word))
    {
      DynExprNode *next;

      if (group == NULL)
        {
          first = require_condition (p, g_steal_pointer (&first));
          if (first == NULL)
            return NULL;
        }
      advance (p);
      next = require_condition (p, operand (p));
      if (next == NULL)
        return NULL;
      if (group == NULL)
        {
          group = node_at (p, kind, start);
          g_ptr_array_add (group->children, g_steal_pointer (&first));
        }
      g_ptr_array_add (group->children, next);
    }
  return group != NULL ? g_steal_pointer (&group) : g_steal_pointer (&first);
}

static DynExprNode *
parse_and (Parser *p)
{
  return parse_joined (p, "AND", DYN_EXPR_AND, parse_not);
}

static DynExprNode *
parse_or (Parser *p)
{
  return parse_joined (p, "OR", DYN_EXPR_OR, parse_and);
}

/* ------------------------------------------------------------------------ */
/* Updates */

static DynExprNode *parse_set_value (Parser *p);

static gboolean
no_arithmetic_here (Parser *p)
{
  Token *t = peek (p);

  if (t->kind != TOK_PLUS && t->kind != TOK_MINUS)
    return TRUE;
  fail_at (p, t->start, _("a SET value holds at most one + or -, at its top level at character %ld"));
  return FALSE;
}

/* An operand of a SET value: a path, a value, if_not_exists(path, operand)
 * or list_append(operand, operand), in parentheses at any depth. No + or -
 * inside (DynamoDB allows one, at the top of the value). */
static DynExprNode *
parse_set_operand (Parser *p)
{
  Token *t = peek (p);
  gsize start = t->start;
  g_autoptr(DynExprNode) node = NULL;

  if (p->error != NULL)
    return NULL;
  if (p->depth >= DYN_EXPR_MAX_NESTING)
    {
      fail_at (p, start, _("the expression is nested too deeply at character %ld"));
      return NULL;
    }

  if (t->kind == TOK_LPAREN)
    {
      guint open = p->n_tokens;

      advance (p);
      p->depth++;
      node = parse_set_operand (p);
      p->depth--;
      if (node == NULL)
        return NULL;
      t = peek (p);
      if (t->kind == TOK_PLUS || t->kind == TOK_MINUS)
        {
          fail_at (p, t->start, _("a SET value holds at most one + or -, at its top level at character %ld"));
          return NULL;
        }
      if (!expect (p, TOK_RPAREN))
        return NULL;
      close_group (p, open, p->n_tokens - 1, start);
      return g_steal_pointer (&node);
    }

  if (at_function_call (p))
    {
      DynExprKind kind;
      DynExprNode *arg;

      if (!check_function_name (p, t))
        return NULL;
      if (strcmp (t->text, "if_not_exists") == 0)
        kind = DYN_EXPR_IF_NOT_EXISTS;
      else if (strcmp (t->text, "list_append") == 0)
        kind = DYN_EXPR_LIST_APPEND;
      else
        {
          /* Translators: %s is a function such as size; keep SET, a keyword */
          fail_at (p, start, _("%s cannot be used in a SET value at character %ld"), t->text);
          return NULL;
        }
      node = node_at (p, kind, start);
      advance (p);
      if (!expect (p, TOK_LPAREN))
        return NULL;
      p->depth++;
      if (kind == DYN_EXPR_IF_NOT_EXISTS)
        arg = parse_path_argument (p, "if_not_exists", parse_set_operand);
      else
        arg = parse_set_operand (p);
      if (arg != NULL)
        g_ptr_array_add (node->children, arg);
      if (arg == NULL || !no_arithmetic_here (p) || !expect (p, TOK_COMMA))
        {
          p->depth--;
          return NULL;
        }
      arg = parse_set_operand (p);
      p->depth--;
      if (arg == NULL)
        return NULL;
      g_ptr_array_add (node->children, arg);
      if (!no_arithmetic_here (p) || !expect (p, TOK_RPAREN))
        return NULL;
      return g_steal_pointer (&node);
    }
  if (tok_starts_path (t))
    return parse_path (p);
  return parse_value_operand (p);
}

/* The right-hand side of SET: an operand, or operand + operand, or
 * operand - operand, the whole in parentheses at any depth. */
static DynExprNode *
parse_set_value (Parser *p)
{
  Token *t = peek (p);
  gsize start = t->start;
  g_autoptr(DynExprNode) lhs = NULL;
  gboolean grouped = FALSE;

  if (p->error != NULL)
    return NULL;
  if (p->depth >= DYN_EXPR_MAX_NESTING)
    {
      fail_at (p, start, _("the expression is nested too deeply at character %ld"));
      return NULL;
    }

  if (t->kind == TOK_LPAREN)
    {
      guint open = p->n_tokens;

      advance (p);
      p->depth++;
      lhs = parse_set_value (p);
      p->depth--;
      if (lhs == NULL || !expect (p, TOK_RPAREN))
        return NULL;
      close_group (p, open, p->n_tokens - 1, start);
      grouped = lhs->kind == DYN_EXPR_PLUS || lhs->kind == DYN_EXPR_MINUS;
    }
  else
    {
      lhs = parse_set_operand (p);
      if (lhs == NULL)
        return NULL;
    }

  t = peek (p);
  if (t->kind == TOK_PLUS || t->kind == TOK_MINUS)
    {
      g_autoptr(DynExprNode) node = NULL;
      DynExprNode *rhs;

      if (grouped)
        {
          fail_at (p, t->start, _("a SET value holds at most one + or -, at its top level at character %ld"));
          return NULL;
        }
      node = node_at (p, t->kind == TOK_PLUS ? DYN_EXPR_PLUS : DYN_EXPR_MINUS, start);
      g_ptr_array_add (node->children, g_steal_pointer (&lhs));
      advance (p);
      rhs = parse_set_operand (p);
      if (rhs == NULL)
        return NULL;
      g_ptr_array_add (node->children, rhs);
      t = peek (p);
      if (t->kind == TOK_PLUS || t->kind == TOK_MINUS)
        {
          fail_at (p, t->start, _("a SET value holds at most one + or -, at its top level at character %ld"));
          return NULL;
        }
      return g_steal_pointer (&node);
    }
  return g_steal_pointer (&lhs);
}

static DynExprNode *
parse_update (Parser *p)
{
  static const struct { const char *word; DynExprKind kind; } clauses[] = {
    { "SET", DYN_EXPR_SET }, { "REMOVE", DYN_EXPR_REMOVE },
    { "ADD", DYN_EXPR_ADD }, { "DELETE", DYN_EXPR_DELETE },
  };
  g_autoptr(DynExprNode) update = node_at (p, DYN_EXPR_UPDATE, peek (p)->start);
  gboolean seen[4] = { FALSE, };

  while (TRUE)
    {
      Token *t = peek (p);
      gint c = -1;

      if (p->error != NULL)
        return NULL;
      if (t->kind == TOK_EOF && update->children->len > 0)
        break;
      for (guint i = 0; i < G_N_ELEMENTS (clauses); i++)
        if (tok_is_word (t, clauses[i].word))
          c = i;
      if (c < 0)
        {
          if (update->children->len > 0 && t->kind == TOK_PLUS)
            fail_at (p, t->start, _("a SET value holds at most one + or -, at its top level at character %ld"));
          else if (update->children->len > 0)
            /* Translators: SET, REMOVE, ADD and DELETE are keywords; keep them */
            fail_at (p, t->start, _("expected ',' or SET, REMOVE, ADD, DELETE at character %ld"));
          else
            /* Translators: SET, REMOVE, ADD and DELETE are keywords; keep them */
            fail_at (p, t->start, _("expected SET, REMOVE, ADD or DELETE at character %ld"));
          return NULL;
        }
      if (seen[c])
        {
          /* Translators: %s is SET, REMOVE, ADD or DELETE, %ld the position */
          fail_at (p, t->start, _("the %s clause appears twice; list its actions separated by commas at "
                                  "character %ld"),
                   clauses[c].word);
          return NULL;
        }
      seen[c] = TRUE;
      advance (p);

      while (TRUE)
        {
          gsize at = peek (p)->start;
          g_autoptr(DynExprNode) action = node_at (p, clauses[c].kind, at);
          DynExprNode *target;

          if (peek (p)->kind == TOK_VALUE_PH)
            {
              fail_at (p, at, _("the left-hand side of an update action must be an attribute path at character %ld"));
              return NULL;
            }
          target = parse_path_full (p, clauses[c].kind == DYN_EXPR_SET || clauses[c].kind == DYN_EXPR_REMOVE);
          if (target == NULL)
            return NULL;
          g_ptr_array_add (action->children, target);

          if (clauses[c].kind == DYN_EXPR_SET)
            {
              DynExprNode *v;

              if (!expect (p, TOK_EQ))
                return NULL;
              v = parse_set_value (p);
              if (v == NULL)
                return NULL;
              g_ptr_array_add (action->children, v);
            }
          else if (clauses[c].kind != DYN_EXPR_REMOVE)
            {
              DynExprNode *v;

              if (tok_starts_path (peek (p)))
                {
                  /* Translators: %s is ADD or DELETE, %ld the position */
                  fail_at (p, peek (p)->start, _("%s takes a value, not an attribute path at character %ld"),
                           clauses[c].word);
                  return NULL;
                }
              v = parse_value_operand (p);
              if (v == NULL)
                return NULL;
              g_ptr_array_add (action->children, v);
            }
          g_ptr_array_add (update->children, g_steal_pointer (&action));

          if (peek (p)->kind == TOK_COMMA)
            {
              advance (p);
              continue;
            }
          break;
        }
    }
  return g_steal_pointer (&update);
}

static DynExprNode *
parse_projection (Parser *p)
{
  g_autoptr(DynExprNode) proj = node_at (p, DYN_EXPR_PROJECTION, peek (p)->start);

  while (TRUE)
    {
      DynExprNode *path = parse_path (p);

      if (path == NULL)
        return NULL;
      g_ptr_array_add (proj->children, path);
      if (peek (p)->kind == TOK_COMMA)
        {
          advance (p);
          continue;
        }
      break;
    }
  return g_steal_pointer (&proj);
}

/* ------------------------------------------------------------------------ */

static gboolean
parser_init (Parser      *p,
             const char  *text,
             gssize       len,
             GError     **error,
             glong       *error_offset)
{
  const char *bad = NULL;

  memset (p, 0, sizeof *p);
  p->src = text;
  p->len = len < 0 ? strlen (text) : (gsize) len;
  p->error_offset = -1;
  if (!g_utf8_validate (text, p->len, &bad))
    {
      glong off = g_utf8_pointer_to_offset (text, bad);

      if (error_offset != NULL)
        *error_offset = off;
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   _("invalid UTF-8 at character %ld"), off + 1);
      return FALSE;
    }
  return TRUE;
}

static void
parser_finish (Parser *p)
{
  token_clear (&p->tok);
  g_clear_error (&p->dynamodb_error);
}

DynExprNode *
dyn_expr_parse (const char  *text,
                DynExprRole  role,
                GHashTable  *names,
                GHashTable  *values,
                glong       *error_offset,
                GError     **error)
{
  return dyn_expr_parse_full (text, role, names, values, NULL, NULL, error_offset, error);
}

DynExprNode *
dyn_expr_parse_full (const char  *text,
                     DynExprRole  role,
                     GHashTable  *names,
                     GHashTable  *values,
                     GHashTable  *used,
                     gboolean    *dynamodb,
                     glong       *error_offset,
                     GError     **error)
{
  Parser p;
  g_autoptr(DynExprNode) node = NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (error_offset != NULL)
    *error_offset = -1;
  if (dynamodb != NULL)
    *dynamodb = FALSE;
  if (!parser_init (&p, text, -1, error, error_offset))
    return NULL;
  p.role = role;
  p.names = names;
  p.values = values;
  p.used = used;

  if (peek (&p)->kind == TOK_EOF && p.error == NULL)
    fail_at (&p, 0, _("the expression is empty at character %ld"));
  else if (_dyn_expr_role_is_condition (role))
    node = require_condition (&p, parse_or (&p));
  else if (role == DYN_EXPR_ROLE_UPDATE)
    node = parse_update (&p);
  else if (role == DYN_EXPR_ROLE_PROJECTION)
    node = parse_projection (&p);
  else
    fail_at (&p, 0, _("unknown expression role at character %ld"));

  if (node != NULL && p.error == NULL)
    {
      Token *t = peek (&p);

      if (t->kind != TOK_EOF && p.error == NULL)
        {
          if (role == DYN_EXPR_ROLE_PROJECTION)
            fail_at (&p, t->start, _("expected ',' at character %ld"));
          else if (t->kind == TOK_RPAREN)
            fail_at (&p, t->start, _("unbalanced ')' at character %ld"));
          else if (_dyn_expr_role_is_condition (role))
            fail_at (&p, t->start, _("expected AND, OR or the end of the expression at character %ld"));
          else
            fail_at (&p, t->start, _("unexpected text at character %ld"));
        }
    }

  /* Which language the text is: with maps (a request) and a placeholder or
   * none of Dynoscope's forms, DynamoDB's, read exactly as DynamoDB reads it;
   * else Dynoscope's (without maps placeholders stay unresolved: the
   * builder's text, never a request). */
  if (p.error == NULL && (names != NULL || values != NULL) && (p.placeholder_seen || !p.extension))
    {
      if (dynamodb != NULL)
        *dynamodb = TRUE;
      if (p.extension)
        fail_at (&p, p.extension_at, _("an inline value or `name` cannot be mixed with #name and :value "
                                       "placeholders (with placeholders the expression is DynamoDB's syntax) at "
                                       "character %ld"));
      else if (p.len > DYN_EXPR_MAX_LENGTH)
        /* Translators: %d is DynamoDB's limit (4096), %ld the first character past it */
        fail_at (&p, DYN_EXPR_MAX_LENGTH, _("the expression is longer than %d bytes at character %ld"),
                 DYN_EXPR_MAX_LENGTH);
      else if (p.dynamodb_error != NULL)
        {
          p.error = g_steal_pointer (&p.dynamodb_error);
          p.error_offset = p.dynamodb_error_offset;
        }
    }
  parser_finish (&p);
  if (p.error != NULL)
    {
      if (error_offset != NULL)
        *error_offset = p.error_offset;
      g_propagate_error (error, p.error);
      return NULL;
    }
  return g_steal_pointer (&node);
}

DynValue *
dyn_expr_parse_value (const char  *text,
                      GError     **error)
{
  Parser p;
  DynValue *v;

  g_return_val_if_fail (text != NULL, NULL);

  if (!parser_init (&p, text, -1, error, NULL))
    return NULL;
  v = parse_literal (&p);
  if (v != NULL && peek (&p)->kind != TOK_EOF && p.error == NULL)
    fail_at (&p, peek (&p)->start, _("unexpected text after the value at character %ld"));
  parser_finish (&p);
  if (p.error != NULL)
    {
      g_clear_pointer (&v, dyn_value_unref);
      g_propagate_error (error, p.error);
      return NULL;
    }
  return v;
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
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("expected a single path"));
      return NULL;
    }
  return dyn_expr_path_copy (((DynExprNode *) node->children->pdata[0])->path);
}
