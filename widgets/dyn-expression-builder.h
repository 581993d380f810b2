/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-expr.h"
#include "dyn-expr-group-row.h"
#include "dyn-read-request.h"
#include "dyn-request.h"
#include "dyn-snippet.h"

G_BEGIN_DECLS

#define DYN_TYPE_EXPRESSION_BUILDER (dyn_expression_builder_get_type ())
G_DECLARE_FINAL_TYPE (DynExpressionBuilder, dyn_expression_builder, DYN, EXPRESSION_BUILDER, AdwBin)

GtkWidget          *dyn_expression_builder_new               (DynExprRole            kind);
DynExprRole         dyn_expression_builder_get_kind          (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_kind          (DynExpressionBuilder  *self,
                                                              DynExprRole            kind);
/* The table read or written (copied; NULL: none). */
void                dyn_expression_builder_set_table         (DynExpressionBuilder  *self,
                                                              const DynTableKeys    *table);
const DynTableKeys *dyn_expression_builder_get_table         (DynExpressionBuilder  *self);
/* The index a key condition or filter reads (NULL: the table). */
const char         *dyn_expression_builder_get_index         (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_index         (DynExpressionBuilder  *self,
                                                              const char            *index);
/* Attribute names offered as completions besides the key attributes. */
void                dyn_expression_builder_add_known_attributes (DynExpressionBuilder *self,
                                                                 const char * const   *names);
/* The expression as text with inline values; setting it parses it at once. */
char               *dyn_expression_builder_dup_text          (DynExpressionBuilder  *self) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_expression_builder_set_text          (DynExpressionBuilder  *self,
                                                              const char            *text);
/* The message of the last parse error of the text, or NULL. */
const char         *dyn_expression_builder_get_parse_error   (DynExpressionBuilder  *self);
/* The root group holding the rows. */
DynExprGroupRow    *dyn_expression_builder_get_root_group    (DynExpressionBuilder  *self);

/* Reads (kinds key condition and filter): the one object behind the plan,
 * the output pane, the snippet and Run (NULL while the rows are incomplete,
 * the text does not parse or the projection does not). A key-condition
 * builder reads as written; a filter builder says which items are wanted,
 * and the planner makes it a Query on the index read where it can; with
 * "by key", a GetItem. Text typed a moment ago is parsed first. */
DynReadRequest     *dyn_expression_builder_get_read_request  (DynExpressionBuilder  *self);
/* The window's page size (the page-size setting): the first page's Limit of
 * a read whose page size the user did not choose; 0: DynamoDB's 1 MB pages. */
gint64              dyn_expression_builder_get_page_size     (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_page_size     (DynExpressionBuilder  *self,
                                                              gint64                 page_size);

/* The read options ("Read Options" in the builder; each carried by the read
 * request, its snippet and Run). The page size chosen for this read is every
 * page's Limit (0: pages of up to 1 MB); -1: the window's page size. */
gint64              dyn_expression_builder_get_read_page_size (DynExpressionBuilder *self);
void                dyn_expression_builder_set_read_page_size (DynExpressionBuilder *self,
                                                               gint64                page_size);
/* ProjectionExpression as typed, in the expression syntax ("title,
 * info.rating"); NULL: every attribute. The key attributes are read too. */
const char         *dyn_expression_builder_get_projection    (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_projection    (DynExpressionBuilder  *self,
                                                              const char            *projection);
/* ConsistentRead; not sent when reading a global secondary index, which
 * has none (the option is shown off and says so). */
gboolean            dyn_expression_builder_get_consistent_read (DynExpressionBuilder *self);
void                dyn_expression_builder_set_consistent_read (DynExpressionBuilder *self,
                                                                gboolean              consistent_read);
/* ScanIndexForward=false: a Query reads its sort key backwards (a Scan has
 * no order: not sent). */
gboolean            dyn_expression_builder_get_descending    (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_descending    (DynExpressionBuilder  *self,
                                                              gboolean               descending);
/* Select=COUNT: the read counts the items that match and returns none. */
gboolean            dyn_expression_builder_get_count_only    (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_count_only    (DynExpressionBuilder  *self,
                                                              gboolean               count_only);
/* "Get Item by Key": the read is a GetItem of the key typed into the form,
 * one field per key attribute of the table (the expression is kept for
 * when the builder finds items again; setting a text or an index switches
 * back). Needs the table. */
gboolean            dyn_expression_builder_get_by_key        (DynExpressionBuilder  *self);
void                dyn_expression_builder_set_by_key        (DynExpressionBuilder  *self,
                                                              gboolean               by_key);
/* Fills the key form from @key's attributes (NULL: empties it). */
void                dyn_expression_builder_set_key           (DynExpressionBuilder  *self,
                                                              DynValue              *key);
/* Every read option back to its default, the key form emptied, finding
 * items (for another table: its attributes are not this one's). */
void                dyn_expression_builder_reset_read_options (DynExpressionBuilder *self);
/* TRUE while the text does not parse: the last result is not shown (and not valid). */
gboolean            dyn_expression_builder_get_stale         (DynExpressionBuilder  *self);

/* The result: NULL when there is no expression or it is not valid. For a
 * read, the compiled expression of the builder's kind in its request (a
 * filter whose every condition went into the key condition has none). */
const char         *dyn_expression_builder_get_expression    (DynExpressionBuilder  *self);
gboolean            dyn_expression_builder_get_valid         (DynExpressionBuilder  *self);
/* The problems found (rule errors, values that do not parse), or an empty vector. */
const char * const *dyn_expression_builder_get_messages      (DynExpressionBuilder  *self);
/* "#n" → name and ":v" → DynValue (new tables, empty when not valid). */
GHashTable         *dyn_expression_builder_dup_names         (DynExpressionBuilder  *self) G_GNUC_WARN_UNUSED_RESULT;
GHashTable         *dyn_expression_builder_dup_values        (DynExpressionBuilder  *self) G_GNUC_WARN_UNUSED_RESULT;
/* The expression tree (NULL: empty), for adding to a shared DynExprContext. */
DynExprNode        *dyn_expression_builder_dup_node          (DynExpressionBuilder  *self) G_GNUC_WARN_UNUSED_RESULT;
/* The plan line ("Query on index GSI1 · …"), NULL for kinds without one. */
const char         *dyn_expression_builder_get_plan          (DynExpressionBuilder  *self);
/* Sets the request field of the builder's kind (for a read: its operation,
 * index, key condition, filter, projection and a GetItem's key; the other
 * read options are the read request's) and adds its placeholders to the
 * request's maps; fails when the expression is not valid or a placeholder
 * is already used for something else. */
gboolean            dyn_expression_builder_apply_to_request  (DynExpressionBuilder  *self,
                                                              DynRequest            *request,
                                                              GError               **error);

DynSnippetLanguage  dyn_expression_builder_get_snippet_language (DynExpressionBuilder *self);
void                dyn_expression_builder_set_snippet_language (DynExpressionBuilder *self,
                                                                 DynSnippetLanguage    lang);
/* The endpoint and region written into snippets (NULL: the SDK defaults). */
void                dyn_expression_builder_set_endpoint      (DynExpressionBuilder  *self,
                                                              const char            *endpoint,
                                                              const char            *region);
const char         *dyn_expression_builder_get_snippet       (DynExpressionBuilder  *self);

G_END_DECLS
