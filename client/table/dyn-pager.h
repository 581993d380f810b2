/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-client.h"

G_BEGIN_DECLS

/**
 * DynReadStats:
 *
 * What a read did: HTTP requests (retries included), pages received, items
 * returned by the server and scanned, and the capacity the server reported.
 * @surplus counts the items the server returned beyond the pager's max items
 * (read and paid for, but not handed out): the caller got @items − @surplus.
 * @counted is the sum of the pages' Count: the items that matched, also
 * those a Select=COUNT read does not return (@items is 0 then).
 */
typedef struct {
  guint   requests;
  guint   pages;
  guint64 items;
  guint64 scanned;
  double  read_units;
  double  write_units;
  guint64 surplus;
  guint64 counted;
} DynReadStats;

/* "Query · 1 request · 1 page · 0.5 RCU · 43 items" (not translated; the UI has its own). */
char *dyn_read_stats_describe (const DynReadStats *stats,
                               const char         *operation) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynPageFunc:
 * @items: (element-type DynValue): the page's items, borrowed
 *
 * Called for every page as it arrives (in arrival order; with parallel
 * segments pages of different segments interleave).
 */
typedef void (*DynPageFunc) (GPtrArray *items,
                             gpointer   user_data);

#define DYN_TYPE_PAGER (dyn_pager_get_type ())
G_DECLARE_FINAL_TYPE (DynPager, dyn_pager, DYN, PAGER, GObject)

/* A Query or Scan that reads page by page with LastEvaluatedKey; or a
 * GetItem, read as one page of the item (none when there is no item with
 * the key), after which the pager is done. */
DynPager           *dyn_pager_new            (DynClient        *client,
                                              const DynRequest *request) G_GNUC_WARN_UNUSED_RESULT;
/**
 * dyn_pager_new_fan_out:
 * @pk_placeholder: the value placeholder of the partition key in the key condition (":er")
 * @pk_values: (element-type DynValue): one partition-key value per shard
 * @sort_key: (nullable): the sort key attribute to merge by
 *
 * A Query over sharded partition keys: one Query per shard, run in parallel,
 * merged by sort key (descending when the request reads backwards).
 * Only dyn_pager_run_async() applies.
 */
DynPager           *dyn_pager_new_fan_out    (DynClient        *client,
                                              const DynRequest *request,
                                              const char       *pk_placeholder,
                                              GPtrArray        *pk_values,
                                              const char       *sort_key) G_GNUC_WARN_UNUSED_RESULT;

/* A fan-out merges by these sort attributes, left to right (a
 * multi-attribute sort key) instead of the one given to
 * dyn_pager_new_fan_out(); NULL or empty: arrival order. */
void                dyn_pager_set_merge_keys (DynPager           *self,
                                              const char * const *sort_keys);

const DynRequest   *dyn_pager_get_request    (DynPager *self);
const DynReadStats *dyn_pager_get_stats      (DynPager *self);
gboolean            dyn_pager_is_done        (DynPager *self);
/* The key to resume from, or NULL (at the start or when done). */
DynValue           *dyn_pager_get_last_key   (DynPager *self);
/* Resume from a key a previous pager reported. */
void                dyn_pager_set_start_key  (DynPager *self,
                                              DynValue *key);

/**
 * dyn_pager_set_max_items:
 * @max_items: how many items the caller wants in all (0: every item)
 *
 * Stops the read once @max_items items were handed out. DynamoDB's Limit
 * counts the items a request evaluates, before the filter, so the pager only
 * sends one where it cannot change the result: without a filter each request
 * asks for the items still wanted (or the request's own Limit, the page size,
 * when that is smaller); with a filter pages stay full (or the page size).
 * Items the last page brings beyond @max_items are counted in
 * #DynReadStats.surplus; a single-lane pager keeps them and hands them out
 * first when @max_items is raised, so nothing is skipped.
 */
void                dyn_pager_set_max_items  (DynPager *self,
                                              guint64   max_items);
guint64             dyn_pager_get_max_items  (DynPager *self);
/* Whether max items were handed out (always FALSE without a max). */
gboolean            dyn_pager_is_full        (DynPager *self);

/* The Limit of the pages read from now on (0: full pages of up to 1 MB):
 * a small first page, then full ones. */
void                dyn_pager_set_page_limit (DynPager *self,
                                              gint64    limit);
/* Whether the request's Limit is the first page's only: once a page has
 * arrived, the pager reads full pages (dyn_pager_set_page_limit() to 0). */
void                dyn_pager_set_first_page_only (DynPager *self,
                                                   gboolean  first_page_only);

/* Reads the next page. Returns the page's items (possibly empty; empty
 * without a request when the pager is full or done). */
void                dyn_pager_next_async     (DynPager            *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GPtrArray          *dyn_pager_next_finish    (DynPager      *self,
                                              GAsyncResult  *result,
                                              GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_pager_run_async:
 * @segments: for a Scan, how many parallel segments (1 for a plain scan)
 * @max_items: stop after this many items, as dyn_pager_set_max_items()
 *   (0: the pager's own max items, if any)
 *
 * Reads every page, calling @page_func for each. With a fan-out pager the
 * pages are merged by sort key and @page_func is called once at the end; each
 * shard then reads at most @max_items items of its own, and the merge keeps
 * the first @max_items.
 */
void                dyn_pager_run_async      (DynPager            *self,
                                              guint                segments,
                                              guint64              max_items,
                                              DynPageFunc          page_func,
                                              gpointer             page_data,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean            dyn_pager_run_finish     (DynPager      *self,
                                              GAsyncResult  *result,
                                              GError       **error);

G_END_DECLS
