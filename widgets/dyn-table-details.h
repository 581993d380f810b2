/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "dyn-table-admin.h"
#include "dyn-transfer.h"

G_BEGIN_DECLS

/* The Table page: key schema, status, billing, size and DescribeTable's
 * approximate item count with its age; the exact count (its cost first,
 * then the count, when and what it cost); TTL; each index with its keys,
 * projection, IndexStatus and backfill; Truncate and Delete Table with their
 * costs. Buttons carry window actions: win.count-exactly,
 * win.cancel-table-job, win.add-gsi, win.delete-gsi (s: the index),
 * win.enable-ttl (the attribute entered: dyn_table_details_get_ttl_entry()),
 * win.disable-ttl, win.truncate-table, win.delete-table. */

#define DYN_TYPE_TABLE_DETAILS (dyn_table_details_get_type ())
G_DECLARE_FINAL_TYPE (DynTableDetails, dyn_table_details, DYN, TABLE_DETAILS, AdwBin)

GtkWidget  *dyn_table_details_new             (void);
/* @table: (nullable): the "Table" object of DescribeTable; the TTL last
 * given with dyn_table_details_set_info() for the same table is kept. */
void        dyn_table_details_set_description (DynTableDetails *self,
                                               JsonObject      *table);
/* @info: (transfer full) (nullable): DescribeTable and DescribeTimeToLive */
void        dyn_table_details_set_info        (DynTableDetails *self,
                                               DynTableInfo    *info);
const DynTableInfo *dyn_table_details_get_info (DynTableDetails *self);
/* Renders @info (not kept: while an operation is waited for) until the next
 * dyn_table_details_set_info() or re-render. */
void        dyn_table_details_show_info       (DynTableDetails    *self,
                                               const DynTableInfo *info);
/* The job running on the table (@title NULL: none): its progress line and
 * fraction (< 0: not known); Cancel runs win.cancel-table-job. */
void        dyn_table_details_set_job         (DynTableDetails *self,
                                               const char      *title,
                                               const char      *text,
                                               double           fraction);
/* The last exact count of the table shown (@result NULL: none). */
void        dyn_table_details_set_count       (DynTableDetails      *self,
                                               const DynCountResult *result,
                                               GDateTime            *when);
/* The TTL attribute typed in to enable TTL on. */
const char *dyn_table_details_get_ttl_entry   (DynTableDetails *self);
void        dyn_table_details_set_ttl_entry   (DynTableDetails *self,
                                               const char      *attribute);
/* The rows shown, as "title: value" lines (for tests and copying). */
char       *dyn_table_details_dup_text        (DynTableDetails *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
