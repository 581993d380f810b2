/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-request.h"

G_BEGIN_DECLS

/* Internals of DynRequest shared by dyn-request.c and dyn-snippet.c. */

/* The keys of @table (borrowed) in strcmp() order, so that a request body and
 * the snippets made from it list a map's members alike. */
GPtrArray *_dyn_request_sorted_keys (GHashTable *table) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
