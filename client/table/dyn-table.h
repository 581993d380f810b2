/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-client.h"
#include "dyn-expr.h"

G_BEGIN_DECLS

/**
 * dyn_table_keys_from_description:
 * @table: the "Table" object of a DescribeTable response
 *
 * The key schema of the table and of each GSI and LSI, with the attribute
 * types from AttributeDefinitions and the index projections.
 */
DynTableKeys *dyn_table_keys_from_description (JsonObject  *table,
                                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* DescribeTable, returning the "Table" object; the keys come with it. */
void          dyn_client_describe_table_async  (DynClient           *self,
                                                const char          *table,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
JsonObject   *dyn_client_describe_table_finish (DynClient     *self,
                                                GAsyncResult  *result,
                                                DynTableKeys **keys,
                                                GError       **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
