/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "dyn-expr.h"
#include "dyn-pager.h"
#include "dyn-request.h"
#include "dyn-snippet.h"

G_BEGIN_DECLS

/*
 * One read (a Query or a Scan) from what the user asked for to what is sent.
 * The plan shown, the compiled expressions with their maps, the request
 * body, the snippets and the pager all come from one DynReadRequest, so
 * they cannot disagree. The expression builder, the window (Run, Load More,
 * following a key, choosing an index) and dynoscope-cli's plan, query,
 * scan and snippet commands each build one.
 */

/**
 * DynReadMode:
 * @DYN_READ_EXPLICIT: the key condition and the filter are taken as given:
 *   a key condition makes a Query, without one the read is a Scan (the
 *   command line's `query` and `scan`). The plan suggests better reads.
 * @DYN_READ_CONDITION: the filter says which items are wanted; the planner
 *   decides (dyn_expr_plan_condition()): a Query on the source read when
 *   the condition holds an equality on its partition key, else a Scan.
 * @DYN_READ_GET_ITEM: a GetItem of the one item whose full primary key is
 *   the spec's @key (or @key_texts), on the table; no key condition, filter
 *   or index.
 *
 * How the expressions of a #DynReadSpec are read.
 */
typedef enum {
  DYN_READ_EXPLICIT,
  DYN_READ_CONDITION,
  DYN_READ_GET_ITEM,
} DynReadMode;

/**
 * DynReadSpec:
 * @table: (nullable): the table name; NULL: the name in the keys
 * @index: (nullable): the source read ("Read from"); NULL, "" or the table's
 *   name: the table
 * @mode: how the expressions are read
 * @key_condition: (nullable): the key condition as text (DynamoDB's syntax
 *   with @names/@values, or inline values), or NULL; not used in
 *   %DYN_READ_CONDITION, where the planner finds the key condition
 * @filter: (nullable): the filter (in %DYN_READ_CONDITION: the condition)
 * @projection: (nullable): the projection (ProjectionExpression)
 * @key_condition_node: (nullable): instead of @key_condition, a parsed one
 * @filter_node: (nullable): instead of @filter
 * @names: (nullable): "#n" → name, the placeholders the texts use
 * @values: (nullable): ":v" → DynValue
 * @limit: the page size (Limit) of a Query or Scan; 0: DynamoDB's 1 MB
 *   pages (DynamoDB refuses a Limit of 0: none is sent)
 * @descending: read the sort key backwards (ScanIndexForward=false; a
 *   Query only: a Scan has no order, and is sent without it)
 * @consistent_read: a strongly consistent read (ConsistentRead); refused
 *   on a global secondary index, as DynamoDB refuses it
 * @projection_node: (nullable): instead of @projection, a parsed one
 * @key: (nullable): %DYN_READ_GET_ITEM: the item's full primary key (a map)
 * @key_texts: (nullable) (array zero-terminated=1): %DYN_READ_GET_ITEM,
 *   instead of @key: the value of each key attribute of the table as typed,
 *   in key order (partition key, then sort key), parsed by its type: a
 *   string as it is, a number as DynamoDB's decimal text, binary as Base64
 * @count_only: Select=COUNT: the read counts the items (Count, ScannedCount
 *   and the capacity) and returns none; no projection
 * @first_page_only: @limit is the first page's only: the pager of
 *   dyn_read_request_new_pager() reads full pages after it (the window's
 *   small first page); otherwise every page has @limit items at most
 * @project_keys: with a projection and known keys, the key attributes of
 *   the table and of the index read are read too, so that every item can
 *   be grouped and edited by its key
 *
 * What the user asked for. Borrowed by dyn_read_request_new() for the time
 * of the call.
 */
typedef struct {
  const char   *table;
  const char   *index;
  DynReadMode   mode;
  const char   *key_condition;
  const char   *filter;
  const char   *projection;
  DynExprNode  *key_condition_node;
  DynExprNode  *filter_node;
  GHashTable   *names;
  GHashTable   *values;
  gint64        limit;
  gboolean      descending;
  gboolean      consistent_read;
  DynExprNode  *projection_node;
  DynValue     *key;
  const char * const *key_texts;
  gboolean      count_only;
  gboolean      first_page_only;
  gboolean      project_keys;
} DynReadSpec;

#define DYN_TYPE_READ_REQUEST (dyn_read_request_get_type ())
G_DECLARE_FINAL_TYPE (DynReadRequest, dyn_read_request, DYN, READ_REQUEST, GObject)

/**
 * dyn_read_request_new:
 * @keys: (nullable): the table's keys and indexes (DescribeTable); without
 *   them nothing is planned or checked against the keys, and the request is
 *   built as given
 *
 * Plans and compiles the read. Always returns an object: one that is not
 * valid holds the error (and possibly a suggestion that would make it valid).
 */
DynReadRequest     *dyn_read_request_new             (const DynTableKeys *keys,
                                                      const DynReadSpec  *spec) G_GNUC_WARN_UNUSED_RESULT;

gboolean            dyn_read_request_is_valid        (DynReadRequest *self);
/* The problem (DYN_ERROR_EXPRESSION …; the message names the position in
 * the expression's text), or NULL. */
const GError       *dyn_read_request_get_error       (DynReadRequest *self);
/* The request field the error is about ("KeyConditionExpression"), or NULL. */
const char         *dyn_read_request_get_error_field (DynReadRequest *self);

const char         *dyn_read_request_get_table       (DynReadRequest *self);
/* The source read: an index name, or NULL for the table. */
const char         *dyn_read_request_get_index       (DynReadRequest *self);
DynReadMode         dyn_read_request_get_mode        (DynReadRequest *self);
/* Query, Scan or GetItem (what is sent; valid requests only). */
DynOperation        dyn_read_request_get_operation   (DynReadRequest *self);
/* The plan of a Query or Scan (NULL for a GetItem, without keys, or when
 * not valid). */
const DynExprPlan  *dyn_read_request_get_plan        (DynReadRequest *self);
/* Why the read is what it is, as the user reads it: the plan's reason, or
 * for a GetItem its key ("GetItem of the item with year = 2001 AND title =
 * \"Heat\""). NULL when not valid or not known. */
const char         *dyn_read_request_get_reason      (DynReadRequest *self);
/* A GetItem's key (valid requests only), else NULL. */
DynValue           *dyn_read_request_get_key         (DynReadRequest *self);
/* Whether the read only counts (Select=COUNT). */
gboolean            dyn_read_request_get_count_only  (DynReadRequest *self);
/* Whether the Limit is the first page's only (#DynReadSpec.first_page_only). */
gboolean            dyn_read_request_get_first_page_only (DynReadRequest *self);

/* Another read that does better (or, when not valid, one that is valid): the
 * table's name or the index's, a sentence, and its key condition. NULL: none. */
const char         *dyn_read_request_get_suggested_index         (DynReadRequest *self);
const char         *dyn_read_request_get_suggestion              (DynReadRequest *self);
DynExprNode        *dyn_read_request_get_suggested_key_condition (DynReadRequest *self);

/* The compiled expression of @role (KeyConditionExpression, FilterExpression,
 * ProjectionExpression), or NULL. */
const char         *dyn_read_request_get_expression  (DynReadRequest *self,
                                                      DynExprRole     role);
/* The shared placeholder maps in order of creation (valid requests only). */
DynExprContext     *dyn_read_request_get_context     (DynReadRequest *self);
/* The request that is sent (valid requests only). */
const DynRequest   *dyn_read_request_get_request     (DynReadRequest *self);
/* The body of the first page's request, as sent. */
JsonNode           *dyn_read_request_dup_body        (DynReadRequest *self) G_GNUC_WARN_UNUSED_RESULT;
/* The request as a program (dyn_snippet_generate()). */
char               *dyn_read_request_dup_snippet     (DynReadRequest     *self,
                                                      DynSnippetLanguage  lang,
                                                      const char         *endpoint,
                                                      const char         *region) G_GNUC_WARN_UNUSED_RESULT;
/* The pager that sends it: page by page, or over every shard of a sharded
 * partition key ("WS#acme#01..10"); a GetItem as one page of at most one
 * item. Valid requests only. */
DynPager           *dyn_read_request_new_pager       (DynReadRequest *self,
                                                      DynClient      *client) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_request_compile_expressions:
 * @request: a request whose table and index are set
 * @table: (nullable): the table's keys, to check the expressions against
 * @names: (nullable): the placeholders' names the texts use
 * @values: (nullable): the placeholders' values
 *
 * Parses the expression texts that are not NULL, checks them (against the
 * keys of @request's index when @table is known; a key condition without
 * them names its own keys) and puts them compiled, with one pair of maps,
 * on @request. A sharded key condition sets the request's shard values.
 * Errors name the field: "KeyConditionExpression: … at character 3".
 * dyn_read_request_new() compiles its reads the same way.
 */
gboolean            dyn_request_compile_expressions  (DynRequest         *request,
                                                      const DynTableKeys *table,
                                                      const char         *key_condition,
                                                      const char         *filter,
                                                      const char         *condition,
                                                      const char         *update,
                                                      const char         *projection,
                                                      GHashTable         *names,
                                                      GHashTable         *values,
                                                      GError            **error);

G_END_DECLS
