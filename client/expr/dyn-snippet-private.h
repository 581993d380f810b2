/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "dyn-request.h"

G_BEGIN_DECLS

/* Every generator works from the same list of parameters: the ones of the
 * request that apply to its operation, in the order DynamoDB's documentation
 * lists them. Each language then only decides how to spell them. User text
 * (names, values, expressions) only ever goes into string literals, never
 * into comments, so no escape sequence can end a comment early. */

typedef enum {
  DYN_SNIPPET_PARAM_STRING,
  DYN_SNIPPET_PARAM_ENUM,
  DYN_SNIPPET_PARAM_BOOL,
  DYN_SNIPPET_PARAM_INT,
  DYN_SNIPPET_PARAM_ITEM,
  DYN_SNIPPET_PARAM_NAMES,
  DYN_SNIPPET_PARAM_VALUES,
} DynSnippetParamKind;

typedef struct {
  const char          *name;      /* the wire name, "TableName" */
  DynSnippetParamKind  kind;
  const char          *string;
  gint64               number;
  gboolean             boolean;
  const DynValue      *item;
  GHashTable          *map;
  GPtrArray           *keys;      /* sorted keys of @map, owned */
} DynSnippetParam;

/* What the program does with the response. */
typedef enum {
  DYN_SNIPPET_ACTION_ITEMS,        /* Query/Scan: every page, every item */
  DYN_SNIPPET_ACTION_COUNT,        /* Query/Scan with Select=COUNT: the total */
  DYN_SNIPPET_ACTION_ITEM,         /* GetItem */
  DYN_SNIPPET_ACTION_ATTRIBUTES,   /* a write that returns values */
  DYN_SNIPPET_ACTION_NONE,         /* a write that returns nothing */
} DynSnippetAction;

/* The double-quoted string literals of Python, Go and Java differ only in
 * how they escape control characters and whether they may hold raw UTF-8. */
typedef enum {
  DYN_SNIPPET_LIT_PYTHON,
  DYN_SNIPPET_LIT_GO,
  DYN_SNIPPET_LIT_JAVA,
} DynSnippetLiteralStyle;

/* The parameters of @req that apply to its operation (DynSnippetParam). */
GArray           *_dyn_snippet_collect_params      (const DynRequest *req);
DynSnippetAction  _dyn_snippet_request_action      (const DynRequest *req);
gboolean          _dyn_snippet_action_prints_items (DynSnippetAction  action);
gboolean          _dyn_snippet_has_limit           (GArray           *params);
gboolean          _dyn_snippet_value_has_binary    (const DynValue   *v);
gboolean          _dyn_snippet_params_have_type    (GArray           *params,
                                                    gboolean        (*check) (const DynValue *));
gboolean          _dyn_snippet_params_have_values  (GArray           *params);
int               _dyn_snippet_compare_strings     (gconstpointer     a,
                                                    gconstpointer     b);

gboolean          _dyn_snippet_bytes_are_text      (GBytes           *bytes);
void              _dyn_snippet_append_base64       (GString          *out,
                                                    GBytes           *bytes);
void              _dyn_snippet_append_indent       (GString          *out,
                                                    guint             n,
                                                    char              c);
char             *_dyn_snippet_kebab_case          (const char       *camel);
char             *_dyn_snippet_lower_camel_case    (const char       *camel);
char             *_dyn_snippet_pascal_case         (const char       *upper_snake);
gboolean          _dyn_snippet_is_known_enum       (const char       *param,
                                                    const char       *value);
const char       *_dyn_snippet_enum_type           (const char       *param);

void              _dyn_snippet_append_quoted       (GString                *out,
                                                    const char             *str,
                                                    gsize                   len,
                                                    DynSnippetLiteralStyle  style);
void              _dyn_snippet_append_literal      (GString                *out,
                                                    const char             *str,
                                                    DynSnippetLiteralStyle  style);
void              _dyn_snippet_append_json_string  (GString                *out,
                                                    const char             *str);
void              _dyn_snippet_append_s_value      (GString                *out,
                                                    const DynValue         *v,
                                                    DynSnippetLiteralStyle  style);

/* The languages' own spellings of values and strings, shared by the request
 * snippets and the PartiQL ones (dyn-snippet-partiql.c). */
void              _dyn_snippet_shell_quote         (GString          *out,
                                                    const char       *s);
/* Appends "--option value" on a continued line (no value: a flag). */
void              _dyn_snippet_cli_option          (GString          *out,
                                                    const char       *option,
                                                    const char       *value);
gboolean          _dyn_snippet_py_needs_base64     (const DynValue   *v);
void              _dyn_snippet_py_value            (GString          *out,
                                                    const DynValue   *v);
void              _dyn_snippet_js_value            (GString          *out,
                                                    const DynValue   *v);
void              _dyn_snippet_go_string           (GString          *out,
                                                    const char       *str,
                                                    gsize             len);
void              _dyn_snippet_go_value            (GString          *out,
                                                    const DynValue   *v);
/* Go composite literal elements (key, value), aligned as gofmt aligns them. */
GArray           *_dyn_snippet_go_entries_new      (void);
void              _dyn_snippet_go_entries_add      (GArray           *entries,
                                                    char             *key,
                                                    char             *value);
void              _dyn_snippet_go_append_entries   (GString          *out,
                                                    GArray           *entries,
                                                    guint             indent);

/* What a Java snippet must import. */
typedef struct {
  gboolean list;
  gboolean map;
  gboolean base64;
  gboolean sdk_bytes;
} DynSnippetJavaUses;

void              _dyn_snippet_java_string         (GString            *out,
                                                    const char         *str,
                                                    gsize               len);
void              _dyn_snippet_java_value          (GString            *out,
                                                    const DynValue     *v,
                                                    DynSnippetJavaUses *uses);

/* One generator per language, each in its own file (dyn-snippet-cli.c …):
 * appends the program for @req to @out. */
void              _dyn_snippet_generate_cli        (GString          *out,
                                                    const DynRequest *req,
                                                    GArray           *params,
                                                    const char       *endpoint,
                                                    const char       *region);
void              _dyn_snippet_generate_boto3      (GString          *out,
                                                    const DynRequest *req,
                                                    GArray           *params,
                                                    const char       *endpoint,
                                                    const char       *region);
void              _dyn_snippet_generate_js         (GString          *out,
                                                    const DynRequest *req,
                                                    GArray           *params,
                                                    const char       *endpoint,
                                                    const char       *region);
void              _dyn_snippet_generate_go         (GString          *out,
                                                    const DynRequest *req,
                                                    GArray           *params,
                                                    const char       *endpoint,
                                                    const char       *region);
void              _dyn_snippet_generate_java       (GString          *out,
                                                    const DynRequest *req,
                                                    GArray           *params,
                                                    const char       *endpoint,
                                                    const char       *region);

G_END_DECLS
