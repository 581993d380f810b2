/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-expr.h"
#include "dyn-request.h"

G_BEGIN_DECLS

/* Reads ExpressionAttributeNames (a JSON object of "#n": "name") and
 * ExpressionAttributeValues (a JSON object of ":v": DynamoDB JSON value) into
 * the maps dyn_expr_parse() takes; a map not given stays NULL. */
gboolean   dyn_expression_maps_from_json    (const char          *names_json,
                                             const char          *values_json,
                                             GHashTable         **names,
                                             GHashTable         **values,
                                             GError             **error);

/* Parses the expressions (DynamoDB's syntax with the maps, or inline values),
 * checks them against @table's keys when known, and puts them compiled, with
 * their maps, on @request (see dyn_request_compile_expressions()). */
gboolean   dyn_request_set_expressions_json (DynRequest          *request,
                                             const DynTableKeys  *table,
                                             const char          *key_condition,
                                             const char          *filter,
                                             const char          *condition,
                                             const char          *update,
                                             const char          *projection,
                                             const char          *names_json,
                                             const char          *values_json,
                                             GError             **error);

G_END_DECLS
