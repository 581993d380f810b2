/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "dyn-client.h"
#include "dyn-expr.h"

G_BEGIN_DECLS

/*
 * The tables themselves: what a new table is (keys, GSIs and LSIs with their
 * projections, multi-attribute GSI keys, billing, TTL) and its CreateTable
 * JSON; what DescribeTable says of one (status, indexes with their status and
 * backfill, size, the approximate item count and how old it may be); the
 * UpdateTable / UpdateTimeToLive / DeleteTable calls and waiting for them.
 * Every rule DynamoDB checks on these calls is checked before sending, with
 * DynamoDB's reason.
 *
 * Files:
 *   dyn-table-spec.c   DynTableSpec: parsing the command line's forms, rules, CreateTable JSON
 *   dyn-table-info.c   DynTableInfo from DescribeTable (+ DescribeTimeToLive)
 *   dyn-table-ops.c    UpdateTable (add/delete GSI), TTL, delete, waiting
 */

/**
 * DynBilling:
 * @DYN_BILLING_ON_DEMAND: PAY_PER_REQUEST
 * @DYN_BILLING_PROVISIONED: PROVISIONED, with read and write units
 */
typedef enum {
  DYN_BILLING_ON_DEMAND,
  DYN_BILLING_PROVISIONED,
} DynBilling;

/**
 * DynTableSpec:
 * @keys: the table's key and its indexes with their projections (GSIs may
 *   have multi-attribute keys; an LSI shares the table's partition key)
 * @billing: on-demand or provisioned
 * @read_units: provisioned RCU of the table and, unless set per index in
 *   @index_units, of every GSI
 * @write_units: provisioned WCU likewise
 * @index_units: (nullable): GSI name → "R:W" for a GSI's own units
 * @ttl_attribute: (nullable): enable TTL on this attribute once the table
 *   is ACTIVE (UpdateTimeToLive is a separate call)
 * @table_class: (nullable): STANDARD or STANDARD_INFREQUENT_ACCESS
 * @deletion_protection: DeletionProtectionEnabled
 *
 * A table to create. Owned strings; free with dyn_table_spec_free().
 */
typedef struct {
  DynTableKeys *keys;
  DynBilling    billing;
  gint64        read_units;
  gint64        write_units;
  GHashTable   *index_units;
  char         *ttl_attribute;
  char         *table_class;
  gboolean      deletion_protection;
} DynTableSpec;

DynTableSpec *dyn_table_spec_new            (const char         *table,
                                             const char         *partition_key,
                                             DynValueType        partition_type,
                                             const char         *sort_key,
                                             DynValueType        sort_type) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_table_spec_free           (DynTableSpec       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynTableSpec, dyn_table_spec_free)

/*
 * The command line's (and the window's) text forms, each checked as parsed:
 *   key         NAME:S|N|B
 *   GSI         NAME:PK:TYPE[+PK2:TYPE…][:SK:TYPE[+SK2:TYPE…]][:PROJECTION]
 *   LSI         NAME:SK:TYPE[:PROJECTION]
 *   PROJECTION  ALL (default) | KEYS_ONLY | INCLUDE=a,b,c
 *   billing     on-demand | provisioned:R:W
 */
DynTableSpec *dyn_table_spec_parse          (const char         *table,
                                             const char         *partition_key,
                                             const char         *sort_key,
                                             GError            **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean      dyn_table_spec_add_gsi        (DynTableSpec       *self,
                                             const char         *text,
                                             GError            **error);
gboolean      dyn_table_spec_add_lsi        (DynTableSpec       *self,
                                             const char         *text,
                                             GError            **error);
gboolean      dyn_table_spec_set_billing    (DynTableSpec       *self,
                                             const char         *text,
                                             GError            **error);

/* DynamoDB's rules on CreateTable, before sending: names (3–255 of
 * [A-Za-z0-9_.-]), at most 20 GSIs and 5 LSIs, an LSI needs the table's sort
 * key and has its partition key, one type per attribute across all keys,
 * INCLUDE attributes (at most 100 across indexes, not key attributes, no
 * repeats), provisioned units 1 or more when provisioned and none when
 * on-demand, TTL attribute name. The error names the index and the rule. */
gboolean      dyn_table_spec_validate       (const DynTableSpec *self,
                                             GError            **error);
/* The CreateTable request (what `aws dynamodb create-table --cli-input-json`
 * takes), validated first. */
JsonNode     *dyn_table_spec_to_create_json (const DynTableSpec *self,
                                             GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynIndexStatus:
 * @name: the index
 * @kind: DYN_INDEX_GLOBAL or DYN_INDEX_LOCAL
 * @keys: its key schema
 * @projection: its projection
 * @non_key_attributes: (nullable): INCLUDE's attributes
 * @status: IndexStatus (CREATING, UPDATING, DELETING, ACTIVE; LSIs: ACTIVE)
 * @backfilling: Backfilling is true (a new GSI being filled)
 * @item_count: its ItemCount (approximate)
 * @size_bytes: its IndexSizeBytes
 * @read_units, @write_units: provisioned throughput (0 on demand)
 */
typedef struct {
  char              *name;
  DynIndexKind       kind;
  DynKeySchema       keys;
  DynProjectionType  projection;
  GStrv              non_key_attributes;
  char              *status;
  gboolean           backfilling;
  gint64             item_count;
  gint64             size_bytes;
  gint64             read_units;
  gint64             write_units;
} DynIndexStatus;

/**
 * DynTableInfo:
 * @keys: the keys and indexes (as dyn_table_keys_from_description())
 * @status: TableStatus
 * @item_count: DescribeTable's ItemCount: approximate, updated by DynamoDB
 *   about every six hours
 * @size_bytes: TableSizeBytes (same age)
 * @created: CreationDateTime, or NULL
 * @indexes: (element-type DynIndexStatus): GSIs then LSIs
 * @ttl_status: (nullable): from DescribeTimeToLive: ENABLED, DISABLED,
 *   ENABLING, DISABLING
 * @ttl_attribute: (nullable): its attribute
 */
typedef struct {
  char         *name;
  char         *arn;
  DynTableKeys *keys;
  char         *status;
  gint64        item_count;
  gint64        size_bytes;
  GDateTime    *created;
  DynBilling    billing;
  gint64        read_units;
  gint64        write_units;
  char         *table_class;
  gboolean      deletion_protection;
  GPtrArray    *indexes;
  char         *ttl_status;
  char         *ttl_attribute;
} DynTableInfo;

/* @table: DescribeTable's "Table"; @ttl: (nullable): DescribeTimeToLive's
 * "TimeToLiveDescription". */
DynTableInfo *dyn_table_info_new_from_json  (JsonObject  *table,
                                             JsonObject  *ttl,
                                             GError     **error) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_table_info_free           (DynTableInfo *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynTableInfo, dyn_table_info_free)
/* Translated: "About 1,234 items (DynamoDB updates this count about every
 * six hours; an exact count scans the table)". */
char         *dyn_table_info_describe_count (const DynTableInfo *self) G_GNUC_WARN_UNUSED_RESULT;
/* The table as the details pane and `describe` show it, "title: value"
 * lines, translated. */
char         *dyn_table_info_to_text        (const DynTableInfo *self) G_GNUC_WARN_UNUSED_RESULT;

/* DescribeTable and DescribeTimeToLive together. */
void          dyn_table_info_load_async     (DynClient           *client,
                                             const char          *table,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
DynTableInfo *dyn_table_info_load_finish    (GAsyncResult        *result,
                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;

/* UpdateTable requests, checked against the table as it is (@info): a GSI
 * to add (the GSI text form above; AttributeDefinitions for its keys, its
 * units when the table is provisioned), a GSI to delete (it must exist). */
JsonNode     *dyn_table_add_gsi_params      (const DynTableInfo  *info,
                                             const char          *gsi,
                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;
JsonNode     *dyn_table_delete_gsi_params   (const DynTableInfo  *info,
                                             const char          *index_name,
                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;
/* UpdateTimeToLive: enable on @attribute, or (NULL) disable the current one. */
JsonNode     *dyn_table_ttl_params          (const DynTableInfo  *info,
                                             const char          *attribute,
                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynTableWait:
 * @DYN_TABLE_WAIT_ACTIVE: the table and every index ACTIVE, none backfilling
 * @DYN_TABLE_WAIT_GONE: DescribeTable says ResourceNotFoundException
 *
 * Polls DescribeTable (every @interval_ms, backing off to 5 s) until the
 * state is reached; @progress, when set, gets each DynTableInfo seen (for
 * "backfilling GSI ByDate…").
 */
typedef enum {
  DYN_TABLE_WAIT_ACTIVE,
  DYN_TABLE_WAIT_GONE,
} DynTableWait;

typedef void (*DynTableInfoFunc) (const DynTableInfo *info,
                                  gpointer            user_data);

void          dyn_table_wait_async          (DynClient           *client,
                                             const char          *table,
                                             DynTableWait         until,
                                             guint                interval_ms,
                                             DynTableInfoFunc     progress,
                                             gpointer             progress_data,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean      dyn_table_wait_finish         (GAsyncResult        *result,
                                             GError             **error);

/* CreateTable from @spec, wait until ACTIVE, then UpdateTimeToLive when the
 * spec has a TTL attribute. */
void          dyn_table_create_async        (DynClient           *client,
                                             const DynTableSpec  *spec,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean      dyn_table_create_finish       (GAsyncResult        *result,
                                             GError             **error);

/* DeleteTable, only when @confirm_name is exactly the table's name (the
 * window's "type the name" and the CLI's --confirm); then waits until gone. */
void          dyn_table_delete_async        (DynClient           *client,
                                             const char          *table,
                                             const char          *confirm_name,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean      dyn_table_delete_finish       (GAsyncResult        *result,
                                             GError             **error);

G_END_DECLS
