/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-transfer.h"

G_BEGIN_DECLS

/*
 * The parallel scan engine of client/transfer (dyn-transfer-scan.c), shared
 * by the export, the count, the truncate and the import's verify.
 *
 * A DynTransferScan reads a request in lanes: a Scan in N segments (copies of
 * the request with Segment/TotalSegments), a Query in one lane. Each lane
 * reads page by page (DynPager) and calls the page function for every page,
 * on the thread-default main context of dyn_transfer_scan_run_async(), before
 * it asks for the lane's next page: a lane never has more than one page in
 * flight, so what the page function records for a lane is in order. The
 * first error (a request's, or the page function's) stops every lane; so
 * does the cancellable. With a rate limit each request first reserves the
 * RCU its lane's previous page consumed (1 for the first) and settles the
 * difference when the page arrives, so the average stays at the limit.
 */

/**
 * DynTransferScanPage:
 * @lane: the lane (the Scan segment; 0 for a Query)
 * @items: (element-type DynValue): the page's items, borrowed (empty for
 *   Select=COUNT)
 * @last_key: (nullable): the lane's LastEvaluatedKey after this page, to
 *   resume it from (dyn_transfer_scan_set_start_key()); NULL: the lane is done
 * @count: the page's Count (the items that matched)
 * @scanned: the page's ScannedCount
 * @read_units: the RCU the page consumed, as the server reported it
 * @requests: HTTP requests the page took (retries included)
 */
typedef struct {
  guint      lane;
  GPtrArray *items;
  DynValue  *last_key;
  guint64    count;
  guint64    scanned;
  double     read_units;
  guint      requests;
} DynTransferScanPage;

/* Return FALSE with @error set to stop every lane with that error. */
typedef gboolean (*DynTransferScanPageFunc) (const DynTransferScanPage *page,
                                             gpointer                   user_data,
                                             GError                   **error);

#define DYN_TYPE_TRANSFER_SCAN (dyn_transfer_scan_get_type ())
G_DECLARE_FINAL_TYPE (DynTransferScan, dyn_transfer_scan, DYN, TRANSFER_SCAN, GObject)

/* @request: a Scan or a Query (copied; its ExclusiveStartKey, Segment and
 * TotalSegments are ignored); @segments: the Scan's lanes (clamped to
 * 1–64; a Query has one). */
DynTransferScan *dyn_transfer_scan_new           (DynClient        *client,
                                                  const DynRequest *request,
                                                  guint             segments) G_GNUC_WARN_UNUSED_RESULT;
guint            dyn_transfer_scan_get_lanes     (DynTransferScan  *self);
/* Before running: resume @lane from @key (a LastEvaluatedKey a page gave). */
void             dyn_transfer_scan_set_start_key (DynTransferScan  *self,
                                                  guint             lane,
                                                  DynValue         *key);
/* Before running: @lane is finished already (resume); it reads nothing. */
void             dyn_transfer_scan_set_lane_done (DynTransferScan  *self,
                                                  guint             lane);
/* At most @max_rcu read units per second over all lanes (0: no limit). */
void             dyn_transfer_scan_set_max_rcu   (DynTransferScan  *self,
                                                  double            max_rcu);
/* Runs every lane to its end (or the first error, or the cancel). */
void             dyn_transfer_scan_run_async     (DynTransferScan         *self,
                                                  DynTransferScanPageFunc  page_func,
                                                  gpointer                 page_data,
                                                  GCancellable            *cancellable,
                                                  GAsyncReadyCallback      callback,
                                                  gpointer                 user_data);
gboolean         dyn_transfer_scan_run_finish    (DynTransferScan  *self,
                                                  GAsyncResult     *result,
                                                  GError          **error);
/* Lanes finished so far (those set done before the run included). */
guint            dyn_transfer_scan_get_lanes_done (DynTransferScan *self);

G_END_DECLS
