/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynOperation:
 *
 * The item operations a #DynRequest describes.
 */
typedef enum {
  DYN_OP_GET_ITEM,
  DYN_OP_PUT_ITEM,
  DYN_OP_UPDATE_ITEM,
  DYN_OP_DELETE_ITEM,
  DYN_OP_QUERY,
  DYN_OP_SCAN,
} DynOperation;

const char *dyn_operation_get_name (DynOperation op);   /* "GetItem", "Query" … */

/**
 * DynRequest:
 *
 * One item request in the shape DynamoDB takes it: the table, the key or item,
 * the five expressions with their shared placeholder maps, and the read and
 * return options. The client sends it; the snippet generator writes it as code;
 * the expression builder fills it. Strings are owned; unset ones are %NULL.
 */
typedef struct {
  DynOperation  op;
  char         *table;
  char         *index;
  DynValue     *key;                 /* Get/Update/Delete */
  DynValue     *item;                /* Put */
  char         *key_condition;
  char         *filter;
  char         *condition;
  char         *update;
  char         *projection;
  GHashTable   *names;               /* "#n" → attribute name */
  GHashTable   *values;              /* ":v" → DynValue */
  char         *return_values;       /* NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW */
  char         *return_values_on_condition_check_failure;  /* NONE, ALL_OLD */
  char         *select;              /* ALL_ATTRIBUTES, COUNT, … */
  gint64        limit;               /* 0: none */
  gboolean      consistent_read;
  gboolean      scan_forward;        /* TRUE by default */
  int           segment;
  int           total_segments;      /* 0: not a parallel scan */
  DynValue     *exclusive_start_key;
  gboolean      return_consumed_capacity;  /* TOTAL (default TRUE) */
  /* A Query over a sharded partition key ("WS#acme#01..10"): one value per
   * shard, and the value placeholder of the key condition they replace. */
  GPtrArray    *shard_values;        /* DynValue, or NULL */
  char         *shard_placeholder;
} DynRequest;

#define DYN_TYPE_REQUEST (dyn_request_get_type ())
GType        dyn_request_get_type     (void) G_GNUC_CONST;
DynRequest  *dyn_request_new          (DynOperation op, const char *table) G_GNUC_WARN_UNUSED_RESULT;
DynRequest  *dyn_request_copy         (const DynRequest *self) G_GNUC_WARN_UNUSED_RESULT;
void         dyn_request_free         (DynRequest *self);
void         dyn_request_add_name     (DynRequest *self, const char *placeholder, const char *name);
void         dyn_request_add_value    (DynRequest *self, const char *placeholder, DynValue *value);
void         dyn_request_set_exclusive_start_key (DynRequest *self, DynValue *key);

/**
 * dyn_request_to_json:
 *
 * The request body for the operation, in DynamoDB's wire form.
 */
JsonNode    *dyn_request_to_json      (const DynRequest *self) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynRequest, dyn_request_free)

G_END_DECLS
