/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "dyn-transfer.h"

G_BEGIN_DECLS

/*
 * One BatchWriteItem of at most 25 write requests, used by the import and
 * the truncate: ReturnConsumedCapacity TOTAL; UnprocessedItems sent again
 * with exponential full-jitter backoff (random wait in [0, min(20 s,
 * 100 ms × 2^n)]); each attempt first takes its estimate from @limiter
 * (waiting when the bucket is empty) and settles it with the consumption
 * the server reported. @live (nullable) is updated as it goes: requests,
 * retries (an unprocessed re-send counts as one), write_units.
 */

/* Give up when items are still unprocessed after this many sends. */
#define DYN_TRANSFER_MAX_SENDS 16

/* @requests: (transfer none): WriteRequest objects ({"PutRequest":…} or
 * {"DeleteRequest":…}), 1–25; @estimate: the WCU they cost, by estimate */
void      _dyn_transfer_batch_write_async  (DynClient           *client,
                                            const char          *table,
                                            JsonArray           *requests,
                                            double               estimate,
                                            DynRateLimiter      *limiter,
                                            DynTransferProgress *live,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean  _dyn_transfer_batch_write_finish (GAsyncResult  *result,
                                            GError       **error);

/* Waits until @limiter grants @units, then calls @func on the thread-default
 * main context (at once when there is no limiter or the bucket has them). */
void      _dyn_transfer_rate_wait          (DynRateLimiter      *limiter,
                                            double               units,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean  _dyn_transfer_rate_wait_finish   (GAsyncResult  *result,
                                            GError       **error);

/* The full-jitter backoff before re-send @n (1-based), in ms. */
guint     _dyn_transfer_backoff_ms         (guint n);

/* ⌈size / 1 KB⌉ WCU of writing @item (at least 1). */
double    _dyn_transfer_item_write_units   (const DynValue *item);

G_END_DECLS
