/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

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

G_END_DECLS
