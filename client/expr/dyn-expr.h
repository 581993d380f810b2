/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "dyn-value.h"

G_BEGIN_DECLS

/*
 * One model for the five kinds of DynamoDB expressions (key condition,
 * filter, condition, update, projection): a tree of DynExprNode. It is built
 * by the parser or node by node (the GTK expression builder), checked against
 * DynamoDB's rules and compiled into the expression string plus the
 * ExpressionAttributeNames/ExpressionAttributeValues maps.
 *
 * Text syntax (dyn_expr_parse()): DynamoDB's own grammar with `#name` and
 * `:value` placeholders, extended with inline values and free names:
 *  - bare names, also reserved words (`Status`); the compiler aliases them;
 *  - `` `first-name` ``: a backquoted name is one attribute name, taken
 *    literally (a dot inside it is part of the name); `` ` `` inside it is
 *    written twice;
 *  - strings "WS#acme" with JSON escapes; numbers 42, -1.5e3 (exact text,
 *    validated as DynamoDB numbers); true, false, null (lower case);
 *    b64"AAEC" binary; sets <<"a", "b">>, <<1, 2>>, <<b64"AA", b64"AQ">>;
 *    lists [1, "a"]; maps {"k": 1}.
 * Keywords (AND OR NOT BETWEEN IN SET REMOVE ADD DELETE) are case-insensitive
 * and must be backquoted to be used as names; function names are
 * case-sensitive. A list index may follow its path after a space, except
 * after ADD's or DELETE's path where "ADD a [1]" is a list value (and
 * "ADD a [1] :v" an index). Strings cannot contain \u0000.
 *
 * Parsed with maps (a request: dyn_expr_parse() with @names or @values), a
 * text that uses a placeholder, or none of the inline forms above, is
 * DynamoDB's language and is refused where DynamoDB refuses it: bare
 * reserved words, names DynamoDB's lexer does not read ("_a"), "((…))",
 * leading zeros in an index, more than 4096 bytes; inline forms mixed with
 * placeholders are an error. Without maps the text is always Dynoscope's.
 */

/**
 * DynExprRole:
 *
 * What an expression is used as in a request.
 */
typedef enum {
  DYN_EXPR_ROLE_KEY_CONDITION,
  DYN_EXPR_ROLE_FILTER,
  DYN_EXPR_ROLE_CONDITION,
  DYN_EXPR_ROLE_UPDATE,
  DYN_EXPR_ROLE_PROJECTION,
} DynExprRole;

#define DYN_EXPR_N_ROLES 5

/* "KeyConditionExpression", "FilterExpression", … */
const char   *dyn_expr_role_get_field     (DynExprRole role);

/**
 * DynExprKind:
 *
 * Node kinds. Children are listed in brackets.
 */
typedef enum {
  /* Operands. */
  DYN_EXPR_PATH,                 /* a document path (dyn_expr_node_get_path) */
  DYN_EXPR_VALUE,                /* an inline DynValue, or an unresolved :placeholder */
  DYN_EXPR_SIZE,                 /* size(path) [path] */
  DYN_EXPR_IF_NOT_EXISTS,        /* if_not_exists(path, operand) [path, operand] */
  DYN_EXPR_LIST_APPEND,          /* list_append(a, b) [a, b] */
  DYN_EXPR_PLUS,                 /* a + b [a, b] */
  DYN_EXPR_MINUS,                /* a - b [a, b] */
  /* Conditions. */
  DYN_EXPR_COMPARE,              /* a <op> b [a, b] */
  DYN_EXPR_BETWEEN,              /* a BETWEEN lo AND hi [a, lo, hi] */
  DYN_EXPR_IN,                   /* a IN (b, …) [a, b, …] */
  DYN_EXPR_ATTRIBUTE_EXISTS,     /* [path] */
  DYN_EXPR_ATTRIBUTE_NOT_EXISTS, /* [path] */
  DYN_EXPR_ATTRIBUTE_TYPE,       /* [path, type value] */
  DYN_EXPR_BEGINS_WITH,          /* [path, prefix] */
  DYN_EXPR_CONTAINS,             /* [path, operand] */
  DYN_EXPR_AND,                  /* [condition, …] */
  DYN_EXPR_OR,                   /* [condition, …] */
  DYN_EXPR_NOT,                  /* [condition] */
  /* Update expressions. */
  DYN_EXPR_UPDATE,               /* [action, …] (SET/REMOVE/ADD/DELETE nodes) */
  DYN_EXPR_SET,                  /* [path, operand] */
  DYN_EXPR_REMOVE,               /* [path] */
  DYN_EXPR_ADD,                  /* [path, value] */
  DYN_EXPR_DELETE,               /* [path, value] */
  /* Projection expressions. */
  DYN_EXPR_PROJECTION,           /* [path, …] */
} DynExprKind;

typedef enum {
  DYN_EXPR_OP_EQ,   /* = */
  DYN_EXPR_OP_NE,   /* <> */
  DYN_EXPR_OP_LT,   /* < */
  DYN_EXPR_OP_LE,   /* <= */
  DYN_EXPR_OP_GT,   /* > */
  DYN_EXPR_OP_GE,   /* >= */
} DynExprCompareOp;

const char   *dyn_expr_compare_op_to_string (DynExprCompareOp op);

/* ------------------------------------------------------------------------ */
/* Paths */

/**
 * DynExprPath:
 *
 * A document path: segments that are attribute names (map members) or list
 * indexes. A name segment is either a resolved name or, when the expression
 * was parsed without a names map, an unresolved "#placeholder".
 */
typedef struct _DynExprPath DynExprPath;

#define DYN_TYPE_EXPR_PATH (dyn_expr_path_get_type ())
GType         dyn_expr_path_get_type      (void) G_GNUC_CONST;

DynExprPath  *dyn_expr_path_new           (const char *name) G_GNUC_WARN_UNUSED_RESULT;
DynExprPath  *dyn_expr_path_copy          (const DynExprPath *self) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_expr_path_free          (DynExprPath *self);
void          dyn_expr_path_append_name   (DynExprPath *self, const char *name);
void          dyn_expr_path_append_index  (DynExprPath *self, guint index);
/* A name segment that stays a "#placeholder" (for raw expressions). */
void          dyn_expr_path_append_placeholder (DynExprPath *self, const char *placeholder);
guint         dyn_expr_path_get_length    (const DynExprPath *self);
/* Segment @i: returns the name (NULL for an index segment; the "#token" for
 * an unresolved placeholder, with *is_placeholder set). */
const char   *dyn_expr_path_get_name      (const DynExprPath *self, guint i, gboolean *is_placeholder);
gboolean      dyn_expr_path_is_index      (const DynExprPath *self, guint i);
guint         dyn_expr_path_get_index     (const DynExprPath *self, guint i);
gboolean      dyn_expr_path_equal         (const DynExprPath *a, const DynExprPath *b);
/* A top-level name without dereference: the key-attribute name, else NULL. */
const char   *dyn_expr_path_get_top_name  (const DynExprPath *self);
/* Parses "a.b[0].`odd-name`" (the text path syntax). */
DynExprPath  *dyn_expr_path_parse         (const char *text, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The text path syntax: bare names where possible, else backquoted. */
char         *dyn_expr_path_to_string     (const DynExprPath *self) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* Nodes */

/**
 * DynExprNode:
 *
 * A reference-counted, mutable expression node. Children are owned by their
 * parent. A node remembers the character offset at which it was parsed
 * (-1 when built by hand), so rule violations can point into the text.
 */
typedef struct _DynExprNode DynExprNode;

#define DYN_TYPE_EXPR_NODE (dyn_expr_node_get_type ())
GType         dyn_expr_node_get_type      (void) G_GNUC_CONST;

DynExprNode  *dyn_expr_node_ref           (DynExprNode *self);
void          dyn_expr_node_unref         (DynExprNode *self);
DynExprNode  *dyn_expr_node_copy          (DynExprNode *self) G_GNUC_WARN_UNUSED_RESULT; /* deep */

/* Generic constructor: a node of @kind without children (PATH/VALUE: use the
 * specific constructors). */
DynExprNode  *dyn_expr_node_new           (DynExprKind kind) G_GNUC_WARN_UNUSED_RESULT;
/* Operands. new_path takes ownership of @path; new_value takes a reference. */
DynExprNode  *dyn_expr_node_new_path      (DynExprPath *path) G_GNUC_WARN_UNUSED_RESULT;
DynExprNode  *dyn_expr_node_new_name      (const char *name) G_GNUC_WARN_UNUSED_RESULT; /* top-level path */
DynExprNode  *dyn_expr_node_new_value     (DynValue *value) G_GNUC_WARN_UNUSED_RESULT;
DynExprNode  *dyn_expr_node_new_placeholder (const char *placeholder) G_GNUC_WARN_UNUSED_RESULT; /* ":v" */
/* Kinds with children (the new node takes ownership of the children passed). */
DynExprNode  *dyn_expr_node_new_unary     (DynExprKind kind, DynExprNode *a) G_GNUC_WARN_UNUSED_RESULT;
DynExprNode  *dyn_expr_node_new_binary    (DynExprKind kind, DynExprNode *a, DynExprNode *b) G_GNUC_WARN_UNUSED_RESULT;
DynExprNode  *dyn_expr_node_new_compare   (DynExprCompareOp op, DynExprNode *a, DynExprNode *b) G_GNUC_WARN_UNUSED_RESULT;
DynExprNode  *dyn_expr_node_new_between   (DynExprNode *a, DynExprNode *lo, DynExprNode *hi) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynExprRowOp:
 *
 * The operators a builder row offers: "path <op> value(s)".
 */
typedef enum {
  DYN_EXPR_ROW_EQ,
  DYN_EXPR_ROW_NE,
  DYN_EXPR_ROW_LT,
  DYN_EXPR_ROW_LE,
  DYN_EXPR_ROW_GT,
  DYN_EXPR_ROW_GE,
  DYN_EXPR_ROW_BETWEEN,        /* two values */
  DYN_EXPR_ROW_IN,             /* one or more values */
  DYN_EXPR_ROW_BEGINS_WITH,
  DYN_EXPR_ROW_CONTAINS,
  DYN_EXPR_ROW_EXISTS,         /* no value */
  DYN_EXPR_ROW_NOT_EXISTS,     /* no value */
  DYN_EXPR_ROW_TYPE,           /* one S value: "S", "N", … */
  DYN_EXPR_ROW_SIZE_EQ,        /* size(path) = value, … */
  DYN_EXPR_ROW_SIZE_NE,
  DYN_EXPR_ROW_SIZE_LT,
  DYN_EXPR_ROW_SIZE_LE,
  DYN_EXPR_ROW_SIZE_GT,
  DYN_EXPR_ROW_SIZE_GE,
} DynExprRowOp;

/* A builder row: @path (text path syntax is parsed by the caller, ownership
 * taken) compared with @values (n_values as the operator needs; references
 * taken). Returns NULL with DYN_ERROR_EXPRESSION if the value count is wrong. */
DynExprNode  *dyn_expr_node_new_row       (DynExprPath *path, DynExprRowOp op,
                                           DynValue * const *values, guint n_values,
                                           GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* How many values a row operator takes: 0, 1, 2, or -1 for one or more (IN). */
int           dyn_expr_row_op_get_n_values (DynExprRowOp op);
/* The operator as written in an expression: "=", "BETWEEN", "begins_with", … */
const char   *dyn_expr_row_op_to_string   (DynExprRowOp op);
/* Reads a node back as a row: TRUE if it has the shape "path <op> values"
 * (values inline). *path and the values are borrowed. */
gboolean      dyn_expr_node_get_row       (DynExprNode *self, const DynExprPath **path,
                                           DynExprRowOp *op, GPtrArray **values);

DynExprKind   dyn_expr_node_get_kind      (DynExprNode *self);
gboolean      dyn_expr_node_is_condition  (DynExprNode *self);
gboolean      dyn_expr_node_is_operand    (DynExprNode *self);
DynExprCompareOp dyn_expr_node_get_op     (DynExprNode *self);
void          dyn_expr_node_set_op        (DynExprNode *self, DynExprCompareOp op);
/* PATH nodes. set_path takes ownership. */
const DynExprPath *dyn_expr_node_get_path (DynExprNode *self);
void          dyn_expr_node_set_path      (DynExprNode *self, DynExprPath *path);
/* VALUE nodes: the inline value (NULL for an unresolved placeholder), the
 * placeholder ("":v" or NULL). set_value takes a reference. */
DynValue     *dyn_expr_node_get_value     (DynExprNode *self);
const char   *dyn_expr_node_get_placeholder (DynExprNode *self);
void          dyn_expr_node_set_value     (DynExprNode *self, DynValue *value);
/* Children. add/insert take ownership of @child; remove drops it. */
guint         dyn_expr_node_get_n_children (DynExprNode *self);
DynExprNode  *dyn_expr_node_get_child     (DynExprNode *self, guint i);   /* borrowed */
void          dyn_expr_node_add_child     (DynExprNode *self, DynExprNode *child);
void          dyn_expr_node_insert_child  (DynExprNode *self, guint i, DynExprNode *child);
void          dyn_expr_node_replace_child (DynExprNode *self, guint i, DynExprNode *child);
void          dyn_expr_node_remove_child  (DynExprNode *self, guint i);
/* Character offset of the node in the parsed text, or -1. */
glong         dyn_expr_node_get_offset    (DynExprNode *self);
/* The text form with inline values (parses back to an equal tree). */
char         *dyn_expr_node_to_string     (DynExprNode *self) G_GNUC_WARN_UNUSED_RESULT;
/* Structural equality (values by dyn_value_equal). */
gboolean      dyn_expr_node_equal         (DynExprNode *a, DynExprNode *b);

/* A value as inline literal text: "x", 42, b64"AA==", <<"a">>, [1], {"k": 1}. */
char         *dyn_expr_value_to_literal   (const DynValue *value) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* Parser */

/**
 * dyn_expr_parse:
 * @text: the expression
 * @role: what it is (selects the grammar: condition, update or projection)
 * @names: (nullable): "#name" → attribute name (string → string)
 * @values: (nullable): ":value" → DynValue
 * @error_offset: (out) (optional): 0-based character offset of the error,
 *   -1 on success
 *
 * Parses an expression. With a map given, every placeholder of that kind must
 * be defined in it and is replaced by its name or value; without one,
 * placeholders stay unresolved in the model and compile back verbatim.
 * Errors are DYN_ERROR_EXPRESSION and name the 1-based character position:
 * "expected ')' at character 23".
 */
DynExprNode  *dyn_expr_parse              (const char *text, DynExprRole role,
                                           GHashTable *names, GHashTable *values,
                                           glong *error_offset, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* dyn_expr_parse() that also adds every placeholder the text uses ("#n",
 * ":v") to @used (a set of strings, nullable) and says whether the text was
 * read as DynamoDB's language (@dynamodb, nullable; see above). */
DynExprNode  *dyn_expr_parse_full         (const char *text, DynExprRole role,
                                           GHashTable *names, GHashTable *values,
                                           GHashTable *used, gboolean *dynamodb,
                                           glong *error_offset, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The placeholder maps a request gives (NULL: not given) against what its
 * expressions use (@used, from dyn_expr_parse_full(); NULL: check only the
 * maps themselves), as DynamoDB checks them: a map given must not be empty,
 * its keys are "#…"/":…" placeholders of at most 255 bytes, a name is not
 * empty, and every entry is used. */
gboolean      dyn_expr_check_maps         (GHashTable *used, GHashTable *names, GHashTable *values,
                                           GError **error);
/* A single inline literal value ("x", 42, <<1, 2>>, …). */
DynValue     *dyn_expr_parse_value        (const char *text, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* Key schemas, rules */

typedef enum {
  DYN_INDEX_TABLE,
  DYN_INDEX_GLOBAL,
  DYN_INDEX_LOCAL,
} DynIndexKind;

typedef enum {
  DYN_PROJECTION_ALL,
  DYN_PROJECTION_KEYS_ONLY,
  DYN_PROJECTION_INCLUDE,
} DynProjectionType;

/* How many partition (HASH) and how many sort (RANGE) attributes the key of
 * a global secondary index may have (DynamoDB, November 2025). */
#define DYN_KEY_MAX_ATTRIBUTES 4

/**
 * DynKeyAttribute:
 *
 * One attribute of a key: its name and type (DYN_VALUE_S, _N or _B).
 */
typedef struct {
  char         *name;
  DynValueType  type;
} DynKeyAttribute;

/**
 * DynKeySchema:
 *
 * The key of a table or an index. @partition_key and @sort_key are its first
 * partition (HASH) and sort (RANGE) attributes; @sort_key is NULL for a
 * simple key. The types are DYN_VALUE_S, _N or _B.
 *
 * A global secondary index may have a multi-attribute key: up to
 * DYN_KEY_MAX_ATTRIBUTES partition and as many sort attributes, in key-schema
 * order. The ones after the first are @more_partition and @more_sort
 * (zero for a single-attribute key, so a schema written as
 * { "pk", DYN_VALUE_S, "sk", DYN_VALUE_S } is complete). Tables and local
 * secondary indexes always have single-attribute keys. Read all attributes
 * with dyn_key_schema_get_n_partition_keys()/_get_partition_key() and the
 * sort counterparts rather than assuming one.
 */
typedef struct {
  char            *partition_key;
  DynValueType     partition_type;
  char            *sort_key;
  DynValueType     sort_type;
  guint            n_more_partition;
  DynKeyAttribute  more_partition[DYN_KEY_MAX_ATTRIBUTES - 1];
  guint            n_more_sort;
  DynKeyAttribute  more_sort[DYN_KEY_MAX_ATTRIBUTES - 1];
} DynKeySchema;

/* How many partition attributes @self has (1–4; 0 without a partition key). */
guint         dyn_key_schema_get_n_partition_keys (const DynKeySchema *self);
/* Partition attribute @i in key order (0 is partition_key); its type in
 * *type. NULL when @i is out of range. */
const char   *dyn_key_schema_get_partition_key    (const DynKeySchema *self, guint i, DynValueType *type);
/* How many sort attributes @self has (0–4). */
guint         dyn_key_schema_get_n_sort_keys      (const DynKeySchema *self);
const char   *dyn_key_schema_get_sort_key         (const DynKeySchema *self, guint i, DynValueType *type);
/* All key attributes, the partition ones then the sort ones, in key order. */
guint         dyn_key_schema_get_n_attributes     (const DynKeySchema *self);
const char   *dyn_key_schema_get_attribute        (const DynKeySchema *self, guint i, DynValueType *type);
/* Whether the key has more than one partition or more than one sort attribute. */
gboolean      dyn_key_schema_is_multi_attribute   (const DynKeySchema *self);
/* Whether @name is one of the key's attributes; *is_sort, *position (in the
 * partition or the sort attributes) and *type say which (each optional). */
gboolean      dyn_key_schema_find                 (const DynKeySchema *self, const char *name,
                                                   gboolean *is_sort, guint *position, DynValueType *type);
gboolean      dyn_key_schema_has_attribute        (const DynKeySchema *self, const char *name);
/* Whether @a and @b have the same partition attributes (in any order) with
 * the same types. */
gboolean      dyn_key_schema_same_partition       (const DynKeySchema *a, const DynKeySchema *b);
/* Appends a partition (@is_sort FALSE) or sort attribute after the ones
 * @self has; FALSE (nothing added) when it has DYN_KEY_MAX_ATTRIBUTES of
 * that kind already. The name is copied. */
gboolean      dyn_key_schema_append               (DynKeySchema *self, gboolean is_sort,
                                                   const char *name, DynValueType type);
/* The partition (or sort) attribute names in key order, joined by ", ":
 * "GSI1PK", "tenant, region". NULL for a key without sort attributes. */
char         *dyn_key_schema_join_names           (const DynKeySchema *self, gboolean sort) G_GNUC_WARN_UNUSED_RESULT;
/* Deep copy into @dest (not initialised; clear it with dyn_key_schema_clear()). */
void          dyn_key_schema_copy_into            (const DynKeySchema *self, DynKeySchema *dest);
/* Frees the names of a schema held in place (e.g. a struct member). */
void          dyn_key_schema_clear                (DynKeySchema *self);
DynKeySchema *dyn_key_schema_copy                 (const DynKeySchema *self) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_key_schema_free                 (DynKeySchema *self);

/**
 * DynIndexInfo:
 *
 * A table (kind DYN_INDEX_TABLE, name = table name) or one of its indexes.
 */
typedef struct {
  char              *name;
  DynIndexKind       kind;
  DynKeySchema       keys;
  DynProjectionType  projection;
  GStrv              non_key_attributes;   /* INCLUDE, or NULL */
} DynIndexInfo;

/**
 * DynTableKeys:
 *
 * What the planner needs from DescribeTable: the table's key and its indexes.
 */
typedef struct {
  DynIndexInfo  table;
  GPtrArray    *indexes;     /* DynIndexInfo*, owned */
} DynTableKeys;

DynTableKeys *dyn_table_keys_new          (const char *table_name,
                                           const char *partition_key, DynValueType partition_type,
                                           const char *sort_key, DynValueType sort_type) G_GNUC_WARN_UNUSED_RESULT;
/* Adds an index; returns it (owned by @self) to fill non_key_attributes. */
DynIndexInfo *dyn_table_keys_add_index    (DynTableKeys *self, const char *name, DynIndexKind kind,
                                           const char *partition_key, DynValueType partition_type,
                                           const char *sort_key, DynValueType sort_type,
                                           DynProjectionType projection);
/* The same with a key schema of any number of attributes (copied): a
 * global secondary index with a multi-attribute key. */
DynIndexInfo *dyn_table_keys_add_index_with_schema (DynTableKeys *self, const char *name,
                                                    DynIndexKind kind, const DynKeySchema *keys,
                                                    DynProjectionType projection);
DynTableKeys *dyn_table_keys_copy         (const DynTableKeys *self) G_GNUC_WARN_UNUSED_RESULT;
/* NULL or "" returns the table itself. */
const DynIndexInfo *dyn_table_keys_lookup (const DynTableKeys *self, const char *index_name);
void          dyn_table_keys_free         (DynTableKeys *self);

/* The attributes whose values lead to an item collection ("follow this
 * key", the grid's link cells): the partition attributes of the table and of
 * each index, then the sort attributes of multi-attribute sort keys but the
 * last, each once, in that order. NULL-terminated. */
GStrv         dyn_table_keys_get_link_attributes (const DynTableKeys *self) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_table_keys_follow:
 * @attribute: a link attribute (dyn_table_keys_get_link_attributes())
 * @item: the item it was clicked in (a map), or only the attribute's value
 * @index_name: (out) (transfer full): the index to read, NULL for the table
 *
 * The condition that reads what @item shares by @attribute: on the table
 * when @attribute is its partition key, else on the first index whose
 * partition attributes include it and all of which @item has (then the first
 * whose sort attributes do): an equality
 * on each partition attribute of that source, values from @item; for a sort
 * attribute of a multi-attribute sort key, also equalities on the sort
 * attributes up to it, left to right. With only a value, just a source
 * whose partition key is @attribute alone qualifies.
 *
 * Returns: (transfer full): the condition, or NULL with
 *   DYN_ERROR_INVALID_ARGUMENT when no source fits
 */
DynExprNode  *dyn_table_keys_follow       (const DynTableKeys *self, const char *attribute,
                                           DynValue *item, char **index_name,
                                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_expr_validate:
 * @keys: (nullable): the key schema of the table/index read or written.
 *   Required for KEY_CONDITION. For FILTER, pass it only for a Query's filter
 *   (a filter may not name key attributes then); for UPDATE it forbids
 *   updating key attributes.
 *
 * Checks DynamoDB's rules for @role: structure (a condition, an update, a
 * projection), key-condition shape, update clause rules, IN ≤ 100 operands,
 * path depth ≤ 32, attribute_type's type, contains(a, a), overlapping paths,
 * ≤ 300 update operators. Errors are DYN_ERROR_EXPRESSION.
 */
gboolean      dyn_expr_validate           (DynExprNode *node, DynExprRole role,
                                           const DynKeySchema *keys, GError **error);

/**
 * dyn_expr_validate_key_condition:
 * @index_name: (nullable): the index read, NULL for the table
 *
 * dyn_expr_validate() of a key condition on @index_name of @table. An
 * attribute that is not a key of the source read, but the sort key of the
 * table or of a local secondary index with the same partition key, is named
 * so ("… or query the local secondary index ByRating, whose sort key it is").
 */
gboolean      dyn_expr_validate_key_condition (const DynTableKeys *table, const char *index_name,
                                               DynExprNode *key_condition, GError **error);

/* The SET and ADD actions of @update that write a key attribute of one of
 * @table's global secondary indexes: a value of the key's type, not empty (DynamoDB refuses
 * the write otherwise). */
gboolean      dyn_expr_validate_update_indexes (DynExprNode *update, const DynTableKeys *table,
                                                GError **error);

/* Request-level placeholder check on raw text: every #name / :value token in
 * @expressions (NULL-terminated) is defined in @names / @values, and every
 * entry of the maps is used by some expression. The maps may be NULL. */
gboolean      dyn_expr_check_placeholders (const char * const *expressions,
                                           GHashTable *names, GHashTable *values,
                                           GError **error);

/* ------------------------------------------------------------------------ */
/* Compiler */

typedef enum {
  /* Every attribute name becomes a #placeholder: "#er = :er". (default) */
  DYN_EXPR_ALIAS_ALWAYS,
  /* Names stay bare where DynamoDB allows it ([A-Za-z][A-Za-z0-9]* and not
   * reserved), else they are aliased: "EntityRef = :er", "#s = :s". */
  DYN_EXPR_ALIAS_WHEN_NEEDED,
} DynExprAliasMode;

/**
 * DynExprContext:
 *
 * Collects the expressions of one request (key condition + filter +
 * projection, or update + condition) so that they share one pair of
 * placeholder maps without collisions.
 *
 * Placeholder names: an attribute name is aliased as "#" + its initials: the
 * words of a camel-case (or -/_/space separated) name, first letters, lower
 * case: EntityRef → #er, Detail → #d, Status → #s, first-name → #fn; names
 * made only of capitals and digits up to 8 characters are kept whole in
 * lower case: PK → #pk, GSI1PK → #gsi1pk. A value is named after the
 * attribute it is compared with or assigned to, the same way (:er); a
 * begins_with prefix is :p, an attribute_type type :t, BETWEEN bounds get
 * "lo"/"hi" appended (:sklo, :skhi), a value without attribute is :v. On a
 * collision the first free of base2, base3, … is taken. Equal values
 * (dyn_value_equal) share one placeholder; one attribute name one alias.
 */
typedef struct _DynExprContext DynExprContext;

DynExprContext *dyn_expr_context_new      (void) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_expr_context_free       (DynExprContext *self);
void          dyn_expr_context_set_alias_mode (DynExprContext *self, DynExprAliasMode mode);
/* The key schema of the table/index the request targets (copied), used for
 * the key-condition, filter and update rules. */
void          dyn_expr_context_set_key_schema (DynExprContext *self, const DynKeySchema *keys);
/* Validates @node for @role (dyn_expr_validate plus request-level rules),
 * compiles it into the shared maps and returns the expression string (owned
 * by the context), or NULL with DYN_ERROR_EXPRESSION. One expression per role;
 * adding a role twice is an error. Nothing is added on failure. */
const char   *dyn_expr_context_add        (DynExprContext *self, DynExprRole role,
                                           DynExprNode *node, GError **error);
const char   *dyn_expr_context_get_expression (DynExprContext *self, DynExprRole role);
/* Whether an add failed because the compiled text passed DynamoDB's 4 KB. */
gboolean      dyn_expr_context_was_too_long (DynExprContext *self);
/* The maps, placeholders in order of creation. */
guint         dyn_expr_context_get_n_names  (DynExprContext *self);
const char   *dyn_expr_context_get_name     (DynExprContext *self, guint i, const char **attribute);
guint         dyn_expr_context_get_n_values (DynExprContext *self);
const char   *dyn_expr_context_get_value    (DynExprContext *self, guint i, DynValue **value);
/* New hash tables (string → string; string → DynValue), as dyn_expr_parse takes. */
GHashTable   *dyn_expr_context_dup_names  (DynExprContext *self) G_GNUC_WARN_UNUSED_RESULT;
GHashTable   *dyn_expr_context_dup_values (DynExprContext *self) G_GNUC_WARN_UNUSED_RESULT;
/* Adds the request members ("KeyConditionExpression": …, "ExpressionAttributeNames": {…},
 * "ExpressionAttributeValues": {… DynamoDB JSON …}) to an open JSON object. */
void          dyn_expr_context_add_to_json (DynExprContext *self, JsonBuilder *builder);

/* One-shot: compile one expression with its own maps. */
char         *dyn_expr_compile            (DynExprNode *node, DynExprRole role,
                                           const DynKeySchema *keys,
                                           GHashTable **names, GHashTable **values,
                                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* Planner */

typedef enum {
  DYN_EXPR_PLAN_QUERY,
  DYN_EXPR_PLAN_SCAN,
} DynExprPlanOperation;

/**
 * DynExprPlan:
 *
 * How a read runs and why. @reason is a sentence for the user:
 * "Query on table Projects: partition key EntityRef = …, sort key Detail
 * begins_with …" or "Scan: no equality on the partition key EntityRef".
 * @key_condition and @filter are what runs (either may be NULL).
 * When another read would do better — a Scan that could be a Query, or a
 * Query that another source's sort key narrows — @suggested_index is the
 * table name (for the table) or the index name, @suggestion says so ("Query
 * on index GSI1 possible") and @suggested_key_condition / @suggested_filter
 * are the split that would run it.
 */
typedef struct {
  DynExprPlanOperation  operation;
  char                 *index_name;      /* NULL: the table */
  char                 *reason;
  DynExprNode          *key_condition;   /* Query: the key condition */
  DynExprNode          *filter;          /* NULL: none */
  char                 *suggested_index; /* NULL: none */
  char                 *suggestion;
  DynExprNode          *suggested_key_condition;
  DynExprNode          *suggested_filter;  /* NULL when nothing remains */
} DynExprPlan;

/**
 * dyn_expr_plan:
 * @index_name: (nullable): the index the user chose, NULL for the table
 * @key_condition: (nullable): the key condition, if the user gave one
 * @filter: (nullable): the filter
 *
 * Decides Query or Scan. A key condition that breaks the rules is an error.
 */
DynExprPlan  *dyn_expr_plan               (const DynTableKeys *table, const char *index_name,
                                           DynExprNode *key_condition, DynExprNode *filter,
                                           GError **error) G_GNUC_WARN_UNUSED_RESULT;
/**
 * dyn_expr_plan_condition:
 * @index_name: (nullable): the source read ("Read from"), NULL for the table
 * @condition: (nullable): what the items read must meet
 *
 * Plans a read of the items that meet @condition: a Query on @index_name
 * when its top-level conjuncts hold an equality on the source's partition key
 * (that, and one sort-key condition, become the key condition; the rest is
 * the filter), else a Scan with @condition as the filter. A comparison of a
 * key attribute of the source with a value of another type is an error (no
 * item can match; the key condition's message, with its position). The
 * suggestion names another source that can Query the items, or that narrows
 * the Query by its sort key.
 */
DynExprPlan  *dyn_expr_plan_condition     (const DynTableKeys *table, const char *index_name,
                                           DynExprNode *condition, GError **error) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_expr_plan_free          (DynExprPlan *plan);

/* ------------------------------------------------------------------------ */
/* Sharded keys */

/* If @value ends in a zero-padded numeric range "WS#acme#01..10", returns the
 * key values "WS#acme#01" … "WS#acme#10" (at most 10000); else NULL. A
 * malformed range (hi < lo) is an error. */
GStrv         dyn_expr_expand_shard_range (const char *value, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* For a key condition whose partition-key value (of a multi-attribute key:
 * the first partition attribute's that is) is a shard range: one key
 * condition per shard (new references in a GPtrArray with unref as free
 * function). NULL if the value is not a range (no error) or on error. */
GPtrArray    *dyn_expr_expand_sharded_key_condition (DynExprNode *key_condition,
                                                     const DynKeySchema *keys,
                                                     GError **error) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynExprPath, dyn_expr_path_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynExprNode, dyn_expr_node_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynExprContext, dyn_expr_context_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynTableKeys, dyn_table_keys_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynKeySchema, dyn_key_schema_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynExprPlan, dyn_expr_plan_free)

G_END_DECLS
