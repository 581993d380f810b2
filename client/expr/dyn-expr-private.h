/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-expr.h"
#include "dyn-error.h"

G_BEGIN_DECLS

#define DYN_EXPR_MAX_LENGTH          4096
#define DYN_EXPR_MAX_PLACEHOLDER     255
#define DYN_EXPR_MAX_IN_OPERANDS     100
#define DYN_EXPR_MAX_PATH_DEPTH      32
#define DYN_EXPR_MAX_UPDATE_OPS      300
/* Guards the recursive parser against stack exhaustion. */
#define DYN_EXPR_MAX_NESTING         200

typedef struct {
  char     *name;            /* NULL for an index */
  guint     index;
  gboolean  is_placeholder;  /* name is an unresolved "#token" */
} DynExprSegment;

struct _DynExprPath {
  GArray *segments;          /* DynExprSegment */
};

struct _DynExprNode {
  gatomicrefcount   ref_count;
  DynExprKind       kind;
  DynExprCompareOp  op;
  DynExprPath      *path;          /* PATH */
  DynValue         *value;         /* VALUE, inline */
  char             *placeholder;   /* VALUE, unresolved ":token" */
  GPtrArray        *children;      /* DynExprNode*, owned */
  glong             offset;        /* character offset in parsed text, or -1 */
};

/* Hints the writer gives when it needs the text for a value. */
typedef struct {
  const DynExprPath *path;         /* the attribute the value goes with, or NULL */
  const char        *base;         /* a fixed name ("p", "t"), or NULL */
  const char        *suffix;       /* "lo"/"hi", or NULL */
} DynExprValueHint;

typedef struct {
  /* Appends the text for a name segment (not a placeholder). */
  gboolean (*name)  (GString *out, const char *name, gpointer user_data, GError **error);
  /* Appends the text for an inline value. */
  gboolean (*value) (GString *out, DynValue *value, const DynExprValueHint *hint,
                     gpointer user_data, GError **error);
} DynExprWriter;

gboolean  _dyn_expr_write             (GString *out, DynExprNode *node, DynExprRole role,
                                       const DynExprWriter *writer, gpointer user_data,
                                       GError **error);
void      _dyn_expr_set_error_at      (GError **error, glong offset,
                                       const char *format, ...) G_GNUC_PRINTF (3, 4);
gboolean  _dyn_expr_is_plain_name     (const char *name);   /* [A-Za-z][A-Za-z0-9]* */
/* A name DynamoDB's lexer reads bare: [A-Za-z][A-Za-z0-9_]* (reserved words aside). */
gboolean  _dyn_expr_is_dynamodb_name  (const char *name);
gboolean  _dyn_expr_is_keyword        (const char *word, gsize len);
gboolean  _dyn_expr_role_is_condition (DynExprRole role);
gboolean  _dyn_expr_request_check     (DynExprNode *filter, const DynKeySchema *keys, GError **error);
gboolean  _dyn_expr_segment_equal     (const DynExprSegment *a, const DynExprSegment *b);
/* FALSE with an error at the node when it has fewer than @min or more than @max children. */
gboolean  _dyn_expr_check_arity       (DynExprNode *node, guint min, guint max, GError **error);
/* Rules shared with the planner (dyn-expr-rules.c). */
void      _dyn_expr_collect_conjuncts (DynExprNode *node, GPtrArray *out);
gboolean  _dyn_expr_check_key_value   (DynExprNode *v, const char *key, DynValueType key_type,
                                       GError **error);
/* @pk_term: the term on the (first) partition attribute; @sk_term: the one
 * on the last sort attribute the key condition uses. */
gboolean  _dyn_expr_analyse_key_condition (DynExprNode *node, const DynKeySchema *keys,
                                           DynExprNode **pk_term, DynExprNode **sk_term,
                                           GError **error);
/* Each key attribute's term in key order (arrays of DYN_KEY_MAX_ATTRIBUTES,
 * NULL for an attribute without one), for multi-attribute keys. */
gboolean  _dyn_expr_analyse_key_terms  (DynExprNode *node, const DynKeySchema *keys,
                                        DynExprNode **partition_terms, DynExprNode **sort_terms,
                                        GError **error);
gboolean  _dyn_expr_placeholder_valid (const char *token);  /* "#x"/":x": [A-Za-z0-9_]+ */

G_END_DECLS
