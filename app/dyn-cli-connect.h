/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-client.h"
#include "dyn-expr.h"

G_BEGIN_DECLS

/* Resolves profile, region, endpoint and credentials as the AWS SDKs do and
 * makes a client. Against a loopback endpoint with no credentials configured
 * (DynamoDB Local), placeholder keys are used: such servers do not check them. */
DynClient *dyn_cli_connect          (const char  *profile,
                                     const char  *region,
                                     const char  *endpoint,
                                     gboolean     insecure,
                                     GError     **error);

/* Reads --names (a JSON object of "#n": "name") and --values (a JSON object
 * of ":v": DynamoDB JSON value) into the maps dyn_expr_parse() takes; a map
 * not given stays NULL. */
gboolean   dyn_cli_parse_maps       (const char  *names_json,
                                     const char  *values_json,
                                     GHashTable **names,
                                     GHashTable **values,
                                     GError     **error);

/* Parses the expressions (DynamoDB's syntax with the maps, or inline values),
 * checks them against @table's keys when known, and puts them compiled, with
 * their maps, on @request. Names are a JSON object of "#n": "name"; values a
 * JSON object of ":v": DynamoDB JSON value. */
gboolean   dyn_cli_set_expressions  (DynRequest  *request,
                                     const DynTableKeys *table,
                                     const char  *key_condition,
                                     const char  *filter,
                                     const char  *condition,
                                     const char  *update,
                                     const char  *projection,
                                     const char  *names_json,
                                     const char  *values_json,
                                     GError     **error);

/* Where requests would go, without needing credentials: the region and the
 * endpoint (NULL for the region's AWS endpoint). */
gboolean   dyn_cli_resolve_location (const char  *profile,
                                     const char  *region,
                                     const char  *endpoint,
                                     char       **region_out,
                                     char       **endpoint_out,
                                     GError     **error);

G_END_DECLS
