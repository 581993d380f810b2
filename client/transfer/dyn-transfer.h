/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-client.h"
#include "dyn-expr.h"
#include "dyn-request.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/*
 * Data in and out of a table: the file formats (DynamoDB JSON lines, plain
 * JSON lines, CSV, DynamoDB's S3 export layout), the export (parallel scan
 * segments, resumable), the import (BatchWriteItem or guarded PutItem,
 * rate-limited, resumable, exactly once in effect), the exact count and the
 * truncate. Every job streams: memory does not grow with the table or the
 * file. Every job is resumable or harmless to repeat; none prints or stores a
 * secret (checkpoints hold table names, keys and offsets only).
 *
 * Files:
 *   dyn-transfer-format.c   formats: line writers, the item reader, detection
 *   dyn-transfer-csv.c      CSV (RFC 4180) columns, header, rows, reader
 *   dyn-transfer-s3.c       the S3 export layout: manifests, gzip data files, MD5
 *   dyn-transfer-progress.c progress, its sentence, the rate limiter
 *   dyn-transfer-export.c   the export job and its checkpoint
 *   dyn-transfer-scan.c     parallel scan segments (export, count, truncate)
 *   dyn-transfer-import.c   the import job, its checkpoint, dry run and verify
 *   dyn-transfer-truncate.c truncate
 */

/* ------------------------------------------------------------------ formats */

/**
 * DynTransferFormat:
 * @DYN_TRANSFER_FORMAT_DDB_JSON: one item per line in DynamoDB JSON,
 *   `{"pk":{"S":"a"},"n":{"N":"1"}}`; the reader also takes the S3 export's
 *   `{"Item":{…}}` lines
 * @DYN_TRANSFER_FORMAT_JSON: one item per line as plain JSON with the type
 *   tags of client/values/VALUES.md (`$set`, `$binary`, `$number`, `$map`):
 *   numbers exact
 * @DYN_TRANSFER_FORMAT_CSV: RFC 4180 CSV (CRLF or LF, quotes doubled),
 *   UTF-8, a header row naming each column with its type, `Price (N)`; one
 *   column per (attribute, type) pair, so an attribute that is N in some items
 *   and S in others has two columns; see dyn-transfer-csv.c for the cells
 * @DYN_TRANSFER_FORMAT_S3: DynamoDB's export to S3 (DYNAMODB_JSON output):
 *   a folder with manifest-summary.json, manifest-files.json and
 *   data/<id>.json.gz of `{"Item":{…}}` lines
 */
typedef enum {
  DYN_TRANSFER_FORMAT_DDB_JSON,
  DYN_TRANSFER_FORMAT_JSON,
  DYN_TRANSFER_FORMAT_CSV,
  DYN_TRANSFER_FORMAT_S3,
} DynTransferFormat;

/* "ddb-json", "json", "csv", "s3" */
const char *dyn_transfer_format_to_string   (DynTransferFormat  format);
gboolean    dyn_transfer_format_from_string (const char        *text,
                                             DynTransferFormat *format,
                                             GError           **error);
/* From a path: a folder holding manifest-summary.json (or one AWSDynamoDB/<id>/
 * export below it) is S3, *.csv is CSV, otherwise the first non-empty line
 * decides (type-tagged values: DynamoDB JSON; else plain JSON). */
gboolean    dyn_transfer_format_detect      (const char        *path,
                                             DynTransferFormat *format,
                                             GError           **error);

/* One item as one line of @format, newline included, appended to @out
 * (DDB_JSON, JSON and S3's `{"Item":…}`; not CSV, whose rows need columns). */
void        dyn_transfer_append_line        (DynTransferFormat  format,
                                             const DynValue    *item,
                                             GString           *out);

/*
 * CSV: the columns are known only when every item was seen, so a CSV export
 * collects them first (dyn_csv_columns_add_item() over every item), then
 * writes the header and the rows. Key attributes come first, in key order;
 * the others in the order first seen.
 */
typedef struct _DynCsvColumns DynCsvColumns;

/* @keys: (nullable): attribute names to put first (the table's keys) */
DynCsvColumns *dyn_csv_columns_new          (const char * const *keys);
void           dyn_csv_columns_free         (DynCsvColumns      *self);
void           dyn_csv_columns_add_item     (DynCsvColumns      *self,
                                             const DynValue     *item);
guint          dyn_csv_columns_get_count    (DynCsvColumns      *self);
/* The header row (`pk (S),Price (N),tags (SS)`), CRLF included. */
void           dyn_csv_columns_append_header (DynCsvColumns     *self,
                                              GString           *out);
/* One row, CRLF included: an absent attribute is an empty cell, an empty
 * string a quoted empty cell (`""`), as PostgreSQL's CSV does. */
void           dyn_csv_columns_append_row   (DynCsvColumns      *self,
                                             const DynValue     *item,
                                             GString           *out);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynCsvColumns, dyn_csv_columns_free)

/**
 * DynItemPosition:
 * @file: which data file (S3: the index in manifest-files.json; else 0)
 * @offset: the byte offset in that file (uncompressed for S3's .gz) where
 *   the next record starts
 * @line: the line number (1-based) of the next record's first line
 * @record: records read before it in all files (items and bad lines)
 *
 * Where a reader stands, as a checkpoint stores it.
 */
typedef struct {
  guint   file;
  guint64 offset;
  guint64 line;
  guint64 record;
} DynItemPosition;

/**
 * DynItemReaderOptions:
 * @csv_types: (nullable) (array zero-terminated=1): "name=TYPE" for CSV
 *   header columns without a ` (TYPE)` suffix (otherwise S)
 * @verify_checksums: S3: check each data file's MD5 against
 *   manifest-files.json before reading it (default TRUE when the struct is
 *   NULL)
 */
typedef struct {
  const char * const *csv_types;
  gboolean            verify_checksums;
} DynItemReaderOptions;

/**
 * DynItemReadResult:
 * @DYN_ITEM_READ_ITEM: an item was read
 * @DYN_ITEM_READ_BAD: a record that is not a valid item; the error names the
 *   file, line and reason ("line 12: price: invalid number …"); reading may
 *   go on with the next record
 * @DYN_ITEM_READ_END: no more records
 * @DYN_ITEM_READ_FAILED: reading cannot go on (I/O error, checksum mismatch,
 *   a manifest that does not parse); the error says why
 */
typedef enum {
  DYN_ITEM_READ_ITEM,
  DYN_ITEM_READ_BAD,
  DYN_ITEM_READ_END,
  DYN_ITEM_READ_FAILED,
} DynItemReadResult;

typedef struct _DynItemReader DynItemReader;

/* Opens @path (a file, or the S3 export folder) for streaming. Checks an S3
 * manifest (version, DYNAMODB_JSON output) at once. */
DynItemReader    *dyn_item_reader_new           (const char                 *path,
                                                 DynTransferFormat           format,
                                                 const DynItemReaderOptions *options,
                                                 GError                    **error);
void              dyn_item_reader_free          (DynItemReader *self);
/* The next record. @item: (out) (transfer full): set for ITEM only. */
DynItemReadResult dyn_item_reader_next          (DynItemReader  *self,
                                                 DynValue      **item,
                                                 GError        **error);
/* The position of the record returned last (its first line), and the one
 * after it (where a resume starts). */
void              dyn_item_reader_get_last      (DynItemReader  *self,
                                                 DynItemPosition *position);
void              dyn_item_reader_get_next      (DynItemReader  *self,
                                                 DynItemPosition *position);
/* Continue from a position dyn_item_reader_get_next() gave before. */
gboolean          dyn_item_reader_seek          (DynItemReader         *self,
                                                 const DynItemPosition *position,
                                                 GError               **error);
/* Bytes read (compressed for .gz) and in all (0: unknown), for progress. */
guint64           dyn_item_reader_get_bytes_read  (DynItemReader *self);
guint64           dyn_item_reader_get_bytes_total (DynItemReader *self);
/* S3: the item count of the manifest (0 otherwise). */
guint64           dyn_item_reader_get_expected_items (DynItemReader *self);
/* "line 12" or "data/abc.json.gz line 12", for messages (translated). */
char             *dyn_item_reader_describe_position (DynItemReader         *self,
                                                     const DynItemPosition *position) G_GNUC_WARN_UNUSED_RESULT;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynItemReader, dyn_item_reader_free)

/**
 * DynS3ExportInfo:
 * @table_arn: (nullable): written into manifest-summary.json
 * @export_time: (nullable): the time the export reads as of; NULL: now
 *
 * What the manifests say besides the data files.
 */
typedef struct {
  const char *table_arn;
  GDateTime  *export_time;
} DynS3ExportInfo;

/**
 * DynS3DataFile:
 * @path: relative to the export folder, "data/<id>.json.gz"
 * @items: the `{"Item":…}` lines it holds
 */
typedef struct {
  const char *path;
  guint64     items;
} DynS3DataFile;

/* Appends @data as one complete gzip member to @out. Members may follow one
 * another: a .json.gz of several members is one valid gzip file, which lets
 * an export append a page at a time and cut a file back to a page's end. */
void        dyn_transfer_gzip_append        (const char  *data,
                                             gsize        len,
                                             GByteArray  *out);
/* Writes manifest-files.json (one line per file: itemCount, md5Checksum
 * (Base64), etag (hex MD5), dataFileS3Key) and manifest-summary.json
 * (version 2020-06-30, exportTime, itemCount, outputFormat DYNAMODB_JSON …)
 * into @folder, checksumming each data file as it is on disk. */
gboolean    dyn_s3_export_write_manifests   (const char            *folder,
                                             const DynS3ExportInfo *info,
                                             const DynS3DataFile   *files,
                                             guint                  n_files,
                                             GError               **error);

/* ---------------------------------------------------------------- progress */

/**
 * DynTransferProgress:
 * @items: items done (exported, counted, written, deleted)
 * @items_total: items expected (DescribeTable's ItemCount, the manifest's
 *   count or the dry run's), 0 when not known
 * @bytes: bytes written (export) or read (import)
 * @bytes_total: bytes expected (input file size; table size), 0 unknown
 * @read_units: consumed RCU as the server reported it
 * @write_units: consumed WCU as the server reported it
 * @requests: HTTP requests sent (retries included)
 * @retries: requests sent again (throttling, 5xx, dropped connections) and
 *   unprocessed items sent again
 * @skipped: import: bad lines skipped
 * @existing: import with never-overwrite: items already in the table with
 *   another value, left alone and reported
 * @identical: import with never-overwrite: items already in the table with
 *   the same value (e.g. written before a resume)
 * @segments: scan segments in all
 * @segments_done: scan segments finished
 * @elapsed: seconds since the job (or its resumed run) started
 * @eta: seconds still to go, < 0 when not known
 * @finished: whether the job is done
 */
typedef struct {
  guint64  items;
  guint64  items_total;
  guint64  bytes;
  guint64  bytes_total;
  double   read_units;
  double   write_units;
  guint    requests;
  guint    retries;
  guint64  skipped;
  guint64  existing;
  guint64  identical;
  guint    segments;
  guint    segments_done;
  double   elapsed;
  double   eta;
  gboolean finished;
} DynTransferProgress;

/* Called on the job's main context at most every ~200 ms and once at the end. */
typedef void (*DynTransferProgressFunc) (const DynTransferProgress *progress,
                                         gpointer                   user_data);

/* One line for a progress bar or stderr, translated, e.g. "12,345 of ~50,000
 * items · 3.2 MB · 410.5 RCU · 2 retries · 0:42 left". */
char *dyn_transfer_progress_describe (const DynTransferProgress *progress) G_GNUC_WARN_UNUSED_RESULT;

/*
 * A token bucket in capacity units per second, fed by what each call
 * reports it consumed (like ddbsh's WITH RATELIMIT): before a call the job
 * takes its estimate, after it settles the difference with the reported
 * consumption, so the average stays at the limit whatever the estimate was.
 * The bucket holds at most one second of units.
 */
typedef struct _DynRateLimiter DynRateLimiter;

DynRateLimiter *dyn_rate_limiter_new          (double units_per_second);
void            dyn_rate_limiter_free         (DynRateLimiter *self);
/* How long to wait (µs) before @units may be spent; 0: now. Takes them when 0. */
gint64          dyn_rate_limiter_reserve      (DynRateLimiter *self,
                                               double          units);
/* After the call: @estimated was taken, @consumed is what the server reported. */
void            dyn_rate_limiter_settle       (DynRateLimiter *self,
                                               double          estimated,
                                               double          consumed);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynRateLimiter, dyn_rate_limiter_free)

/* ------------------------------------------------------------------- export */

/**
 * DynExportOptions:
 * @format: the output format
 * @output: the output file; for S3 the folder to write the export into
 * @segments: parallel Scan segments (1–64; a Query is read as one)
 * @resume: continue the export whose checkpoint is beside @output; without
 *   it an existing checkpoint is an error, and so is an existing @output
 * @key_names: (nullable): the table's key attributes, first in CSV
 * @items_total: DescribeTable's ItemCount for the ETA (0: unknown)
 * @max_rcu: read capacity per second at most (0: no limit)
 * @s3: (nullable): manifest contents for %DYN_TRANSFER_FORMAT_S3
 *
 * The checkpoint is `OUTPUT.dynoscope-export/` (a folder: `checkpoint.json`
 * with the request, each segment's LastEvaluatedKey, items and part length,
 * and one part file per segment). Every page is written to its part and
 * flushed to disk before the checkpoint records it, so after a cancel, a
 * crash or SIGKILL a resumed export holds every item exactly once. The
 * folder is removed when the output is complete.
 */
typedef struct {
  DynTransferFormat      format;
  const char            *output;
  guint                  segments;
  gboolean               resume;
  const char * const    *key_names;
  guint64                items_total;
  double                 max_rcu;
  const DynS3ExportInfo *s3;
} DynExportOptions;

#define DYN_TYPE_EXPORT_JOB (dyn_export_job_get_type ())
G_DECLARE_FINAL_TYPE (DynExportJob, dyn_export_job, DYN, EXPORT_JOB, GObject)

/* @request: a Scan (of the table or an index, with its filter and
 * projection) or a Query (the window's current result); copied. */
DynExportJob *dyn_export_job_new           (DynClient              *client,
                                            const DynRequest       *request,
                                            const DynExportOptions *options,
                                            GError                **error) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_export_job_run_async     (DynExportJob           *self,
                                            GCancellable           *cancellable,
                                            DynTransferProgressFunc progress,
                                            gpointer                progress_data,
                                            GAsyncReadyCallback     callback,
                                            gpointer                user_data);
gboolean      dyn_export_job_run_finish    (DynExportJob  *self,
                                            GAsyncResult  *result,
                                            GError       **error);
const DynTransferProgress *dyn_export_job_get_progress (DynExportJob *self);
/* Whether --resume found the export finished already (OUTPUT in place, no
 * checkpoint): running it then does nothing and succeeds. */
gboolean      dyn_export_job_is_complete   (DynExportJob *self);
/* The checkpoint folder of @output (whether or not it exists). */
char         *dyn_export_checkpoint_path   (const char *output) G_GNUC_WARN_UNUSED_RESULT;

/* -------------------------------------------------------- count, truncate */

/* Read capacity a full Scan of @size_bytes costs: ⌈size / 4 KB⌉ × 0.5 (× 1
 * when strongly consistent). An estimate: DynamoDB rounds per page. */
double        dyn_transfer_estimate_scan_rcu (guint64  size_bytes,
                                              gboolean consistent);

/**
 * DynCountResult:
 * @count: items that matched (the exact count)
 * @scanned: items scanned
 * @read_units: what the count cost
 * @requests: HTTP requests sent
 */
typedef struct {
  guint64 count;
  guint64 scanned;
  double  read_units;
  guint   requests;
} DynCountResult;

/* An exact count: a Select=COUNT Scan of @request (a Scan, with its filter,
 * or a Query) in @segments parallel segments. */
void          dyn_transfer_count_async     (DynClient              *client,
                                            const DynRequest       *request,
                                            guint                   segments,
                                            GCancellable           *cancellable,
                                            DynTransferProgressFunc progress,
                                            gpointer                progress_data,
                                            GAsyncReadyCallback     callback,
                                            gpointer                user_data);
gboolean      dyn_transfer_count_finish    (GAsyncResult    *result,
                                            DynCountResult  *out,
                                            GError         **error);

/* What truncating a table of @item_count items and @size_bytes costs: the
 * keys-only Scan's RCU and one delete per item of ⌈item size / 1 KB⌉ WCU
 * (the average item size). */
void          dyn_transfer_estimate_truncate (guint64  item_count,
                                              guint64  size_bytes,
                                              double  *read_units,
                                              double  *write_units);

/* Deletes every item of @table: a parallel Scan of the keys, BatchWriteItem
 * deletes in 25s with unprocessed items retried with backoff, at most
 * @max_wcu per second (0: no limit). Stopping it midway leaves a table with
 * fewer items, never a changed item; running it again finishes it. */
void          dyn_transfer_truncate_async  (DynClient              *client,
                                            const char             *table,
                                            const DynTableKeys     *keys,
                                            guint                   segments,
                                            double                  max_wcu,
                                            GCancellable           *cancellable,
                                            DynTransferProgressFunc progress,
                                            gpointer                progress_data,
                                            GAsyncReadyCallback     callback,
                                            gpointer                user_data);
gboolean      dyn_transfer_truncate_finish (GAsyncResult         *result,
                                            DynTransferProgress  *out,
                                            GError              **error);

/* ------------------------------------------------------------------- import */

/**
 * DynImportProblemKind:
 * @DYN_IMPORT_PROBLEM_BAD_LINE: the record is not a valid item for the table
 *   (syntax, a missing or mistyped key, a number DynamoDB cannot hold, over
 *   400 KB …)
 * @DYN_IMPORT_PROBLEM_EXISTS: never-overwrite: an item with the key exists
 *   with another value; it was left as it is
 * @DYN_IMPORT_PROBLEM_DUPLICATE: the key was already on an earlier line of
 *   the file (the later line wins, as it would with PutItem; reported by the
 *   dry run)
 * @DYN_IMPORT_PROBLEM_MISSING: verify: a file's item is not in the table
 * @DYN_IMPORT_PROBLEM_DIFFERENT: verify: the table's item differs
 */
typedef enum {
  DYN_IMPORT_PROBLEM_BAD_LINE,
  DYN_IMPORT_PROBLEM_EXISTS,
  DYN_IMPORT_PROBLEM_DUPLICATE,
  DYN_IMPORT_PROBLEM_MISSING,
  DYN_IMPORT_PROBLEM_DIFFERENT,
} DynImportProblemKind;

/**
 * DynImportProblem:
 * @where: "line 12" / "data/x.json.gz line 12" (translated)
 * @message: why, translated ("pk: the partition key is missing")
 * @key: (nullable): the item's key, when it has one
 */
typedef struct {
  DynImportProblemKind  kind;
  DynItemPosition       position;
  char                 *where;
  char                 *message;
  DynValue             *key;
} DynImportProblem;

/**
 * DynImportOptions:
 * @format: the input format
 * @input: the file, or the S3 export folder
 * @reader: (nullable): reader options (CSV column types, checksums)
 * @never_overwrite: PutItem with attribute_not_exists on the key, one item
 *   at a time (ReturnValuesOnConditionCheckFailure=ALL_OLD: an existing
 *   equal item counts as identical, another value is reported and left);
 *   otherwise BatchWriteItem in 25s
 * @max_wcu: write capacity per second at most (0: no limit)
 * @concurrency: requests in flight (0: 4)
 * @resume: continue from the checkpoint of this input and table; without
 *   it an existing checkpoint is an error
 * @restart: forget an existing checkpoint and start from the first line
 * @dry_run: validate every record and report; write nothing
 * @skip_bad: write the valid records and report the bad ones; otherwise the
 *   whole input is validated first and nothing is written while any record
 *   is bad
 * @max_problems: problems kept for the report (0: 1000); all are counted
 *
 * The checkpoint (dyn_import_checkpoint_path()) records the position up to
 * which every record is durably written; records are written in file order
 * and no two requests in flight hold the same key, so resuming from it ends
 * with exactly the file's items, each with its last line's value.
 */
typedef struct {
  DynTransferFormat           format;
  const char                 *input;
  const DynItemReaderOptions *reader;
  gboolean                    never_overwrite;
  double                      max_wcu;
  guint                       concurrency;
  gboolean                    resume;
  gboolean                    restart;
  gboolean                    dry_run;
  gboolean                    skip_bad;
  guint                       max_problems;
} DynImportOptions;

/**
 * DynImportSummary:
 * @records: records read (items and bad lines)
 * @items: valid items
 * @bad: bad records
 * @duplicates: items whose key an earlier line had
 * @write_units_estimate: the WCU writing them costs (Σ ⌈size / 1 KB⌉; ×1
 *   for PutItem as for BatchWriteItem)
 * @bytes: their size as DynamoDB counts it
 * @written: items written (puts acknowledged)
 * @resumed_from: the record a resumed run started at (0: from the start)
 */
typedef struct {
  guint64 records;
  guint64 items;
  guint64 bad;
  guint64 duplicates;
  double  write_units_estimate;
  guint64 bytes;
  guint64 written;
  guint64 resumed_from;
} DynImportSummary;

#define DYN_TYPE_IMPORT_JOB (dyn_import_job_get_type ())
G_DECLARE_FINAL_TYPE (DynImportJob, dyn_import_job, DYN, IMPORT_JOB, GObject)

/* @keys: the table's keys (DescribeTable; for a new table, the key schema it
 * was created with): every item must carry them with their types. */
DynImportJob *dyn_import_job_new            (DynClient              *client,
                                             const char             *table,
                                             const DynTableKeys     *keys,
                                             const DynImportOptions *options,
                                             GError                **error) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_import_job_run_async      (DynImportJob           *self,
                                             GCancellable           *cancellable,
                                             DynTransferProgressFunc progress,
                                             gpointer                progress_data,
                                             GAsyncReadyCallback     callback,
                                             gpointer                user_data);
/* FALSE with DYN_ERROR_INVALID_VALUE when records are bad and @skip_bad is
 * not set (nothing was written); the problems say which. */
gboolean      dyn_import_job_run_finish     (DynImportJob  *self,
                                             GAsyncResult  *result,
                                             GError       **error);
const DynTransferProgress *dyn_import_job_get_progress (DynImportJob *self);
const DynImportSummary    *dyn_import_job_get_summary  (DynImportJob *self);
/* (element-type DynImportProblem): in file order */
GPtrArray    *dyn_import_job_get_problems   (DynImportJob *self);
/* Whether a checkpoint of this input and table exists; its position. */
gboolean      dyn_import_job_has_checkpoint (DynImportJob    *self,
                                             DynItemPosition *position);

/* After a run: reads every item of the input back (BatchGetItem, consistent)
 * and compares it with the item's last line; counts the table's items.
 * Problems MISSING / DIFFERENT are added to the job's problems. */
void          dyn_import_job_verify_async   (DynImportJob           *self,
                                             GCancellable           *cancellable,
                                             DynTransferProgressFunc progress,
                                             gpointer                progress_data,
                                             GAsyncReadyCallback     callback,
                                             gpointer                user_data);
/**
 * DynImportVerify:
 * @checked: distinct keys of the input read back
 * @missing: not in the table
 * @different: in the table with another value
 * @table_items: the table's exact item count (Select=COUNT Scan)
 */
typedef struct {
  guint64 checked;
  guint64 missing;
  guint64 different;
  guint64 table_items;
} DynImportVerify;
gboolean      dyn_import_job_verify_finish  (DynImportJob    *self,
                                             GAsyncResult    *result,
                                             DynImportVerify *out,
                                             GError         **error);

/* $XDG_STATE_HOME/dynoscope/imports/<sha256 of endpoint, table, input's
 * absolute path>.json */
char         *dyn_import_checkpoint_path    (const char *endpoint,
                                             const char *table,
                                             const char *input) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
