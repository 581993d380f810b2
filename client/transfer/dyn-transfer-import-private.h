/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "dyn-transfer.h"

G_BEGIN_DECLS

/*
 * Shared by dyn-transfer-import.c (the job) and dyn-transfer-import-check.c
 * (what DynamoDB refuses, key digests, the checkpoint file).
 */

/* The deepest nesting DynamoDB takes, the item itself counting as level 1
 * (DynamoDB Local: 31 maps inside the item are taken, 32 refused). */
#define DYN_IMPORT_MAX_DEPTH 32
#define DYN_IMPORT_MAX_PARTITION_KEY_BYTES 2048
#define DYN_IMPORT_MAX_SORT_KEY_BYTES 1024

/* NULL when DynamoDB takes @item as an item of the table; else why not
 * (translated, with DynamoDB's own reason). */
char     *_dyn_import_check_item  (const DynTableKeys *keys,
                                   const DynValue     *item) G_GNUC_WARN_UNUSED_RESULT;
/* The table's key of a checked @item: a map of the key attributes. */
DynValue *_dyn_import_item_key    (const DynTableKeys *keys,
                                   const DynValue     *item) G_GNUC_WARN_UNUSED_RESULT;
/* 32 hex digits of SHA-256 over the key's canonical form (numbers as
 * DynamoDB stores them), equal exactly when the keys are. */
char     *_dyn_import_key_digest  (const DynTableKeys *keys,
                                   const DynValue     *item) G_GNUC_WARN_UNUSED_RESULT;

typedef struct {
  char            *endpoint;
  char            *table;
  char            *input;
  char            *format;
  gboolean         never_overwrite;
  guint64          size;
  gint64           mtime;        /* µs since the epoch */
  DynItemPosition  position;     /* every record before it is written */
  guint64          written;
  guint64          bad;
  guint64          existing;
  guint64          identical;
  double           write_units;
} DynImportCheckpoint;

void      _dyn_import_checkpoint_clear (DynImportCheckpoint *cp);
/* Atomically and durably (CONSISTENT | DURABLE). */
gboolean  _dyn_import_checkpoint_write (const char                *path,
                                        const DynImportCheckpoint *cp,
                                        GError                   **error);
gboolean  _dyn_import_checkpoint_read  (const char                *path,
                                        DynImportCheckpoint       *cp,
                                        GError                   **error);
/* The size and modification time that identify @input (for a folder, its
 * manifest-files.json). */
gboolean  _dyn_import_input_stat       (const char *input,
                                        guint64    *size,
                                        gint64     *mtime,
                                        GError    **error);

/* ---------------------------------------------------------- the job's state
 * (dyn-transfer-import.c: the run; dyn-transfer-import-verify.c: verify) */

#define DYN_IMPORT_READ_CHUNK 256

typedef struct {
  DynImportJob    *job;           /* a reference while in flight */
  GPtrArray       *items;         /* DynValue */
  GPtrArray       *digests;       /* char* */
  GArray          *positions;     /* DynItemPosition of each item */
  DynItemPosition  end;           /* the position after its last record */
  guint64          cum_bad;       /* bad records up to its end */
  double           estimate;
  gboolean         sent;
  gboolean         done;
  guint64          written;
  guint64          existing;
  guint64          identical;
} Batch;

typedef enum {
  PHASE_IDLE,
  PHASE_CHECK,
  PHASE_WRITE,
  PHASE_VERIFY_INDEX,
  PHASE_VERIFY_READ,
  PHASE_VERIFY_COUNT,
} Phase;

struct _DynImportJob
{
  GObject               parent_instance;

  DynClient            *client;
  char                 *table;
  DynTableKeys         *keys;
  DynImportOptions      options;
  char                 *input;            /* absolute */
  GStrv                 csv_types;
  DynItemReaderOptions  reader_options;
  gboolean              has_reader_options;
  char                 *endpoint;
  char                 *checkpoint_path;

  DynTransferProgress   progress;
  DynImportSummary      summary;
  GPtrArray            *problems;

  /* a run */
  GTask                *task;
  Phase                 phase;
  DynTransferProgressFunc progress_func;
  gpointer              progress_data;
  gint64                started;
  guint                 progress_id;
  DynItemReader        *reader;
  DynRateLimiter       *limiter;
  guint64               size;
  gint64                mtime;
  DynItemPosition       start;            /* where this run started */
  gboolean              resumed;
  gboolean              checked;          /* the check pass counted the records */
  GHashTable           *seen;             /* dry run: digest → line */

  /* the write pass */
  GQueue                batches;          /* closed batches, in file order */
  Batch                *open;
  Batch                *ready;            /* closed, not sent */
  DynValue             *held;             /* read, not yet in a batch */
  char                 *held_digest;
  DynItemPosition       held_position;
  DynItemPosition       held_next;
  GHashTable           *in_flight;        /* digest → count */
  guint                 n_in_flight;
  gboolean              eof;
  GError               *failure;
  guint64               bad_total;        /* bad records before the reader's position */
  DynImportCheckpoint   acked;            /* the contiguous prefix */
  gint64                checkpoint_written;
  guint                 checkpoint_id;
  guint                 pump_id;

  /* verify */
  DynImportVerify       verify;
  DynTransferProgress   run_progress;     /* the run's, kept while verifying */
  GHashTable           *last_line;        /* digest → record + 1 */
  guint64               record;
  GPtrArray            *chunk_items;
  GPtrArray            *chunk_digests;
  GArray               *chunk_positions;
};

/* One record read and checked: an item with its digest, or a bad record
 * (counted and reported here). Returns FALSE at the end or on failure. */
typedef enum {
  READ_ITEM,
  READ_BAD,
  READ_END,
  READ_FAILED,
} ReadOutcome;

void        _dyn_import_job_add_problem    (DynImportJob          *self,
                                            DynImportProblemKind   kind,
                                            const DynItemPosition *position,
                                            const char            *message,
                                            const DynValue        *item);
ReadOutcome _dyn_import_job_read_record    (DynImportJob     *self,
                                            DynValue        **item_out,
                                            DynItemPosition  *position,
                                            DynItemPosition  *next,
                                            GError          **error);
gboolean    _dyn_import_job_open_reader    (DynImportJob  *self,
                                            GError       **error);
void        _dyn_import_job_emit_progress  (DynImportJob *self);
gboolean    _dyn_import_job_begin          (DynImportJob            *self,
                                            GTask                  **task,
                                            DynTransferProgressFunc  progress,
                                            gpointer                 progress_data);
void        _dyn_import_job_start_progress (DynImportJob *self);
void        _dyn_import_job_stop_timers    (DynImportJob *self);

G_END_DECLS
