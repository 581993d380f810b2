/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Inside the formats part of client/transfer: the item reader's state, shared
 * by dyn-transfer-format.c (the buffered line source, DynamoDB JSON and plain
 * JSON lines, positions), dyn-transfer-csv.c (CSV records) and
 * dyn-transfer-s3.c (manifests, gzip members, MD5). */
#pragma once

#include "dyn-transfer.h"

G_BEGIN_DECLS

/* A record (line, or CSV record over several lines) longer than this is bad:
 * a 400 KB item needs at most ~2.4 MB of JSON (every byte \u-escaped). */
#define DYN_TRANSFER_MAX_RECORD (16 * 1024 * 1024)

typedef struct {
  char    *key;     /* "data/x.json.gz", as messages name it */
  char    *local;   /* the file on disk */
  guint64  items;   /* the manifest's itemCount */
  char    *md5;     /* Base64, NULL when the manifest has none */
  guint64  size;    /* bytes on disk */
} DynS3File;

typedef struct {
  char         *name;
  DynValueType  type;
} DynCsvColumn;

struct _DynItemReader {
  DynTransferFormat format;
  char             *path;
  gboolean          verify_checksums;

  /* the open source: a file, through a gunzip converter for S3 */
  GInputStream     *input;
  GConverter       *gunzip;
  guint8           *raw;          /* compressed bytes (gzip) */
  gsize             raw_pos, raw_len;
  gboolean          raw_eof;
  guint8           *buf;          /* decoded bytes */
  gsize             buf_pos, buf_len;
  gboolean          eof;
  guint64           offset;       /* file offset of buf[buf_pos] (uncompressed) */
  guint64           line;         /* line number there (1-based) */
  guint64           record;       /* records returned before */
  guint64           raw_read;     /* bytes read from the current file */
  guint64           bytes_before; /* S3: compressed size of the files before it */
  guint64           bytes_total;

  GString          *text;         /* the current record's text */
  DynItemPosition   last, next;

  /* CSV */
  GPtrArray        *columns;      /* DynCsvColumn* */
  guint64           data_offset;  /* the offset and line after the header */
  guint64           data_line;
  GHashTable       *csv_types;    /* name → DynValueType (GINT_TO_POINTER) */

  /* S3 */
  char             *folder;
  GPtrArray        *files;        /* DynS3File* */
  guint             file_index;
  gboolean          file_open;
  guint64           file_records; /* records of the current file read */
  guint64           expected;
};

/* dyn-transfer-format.c */
/* A reader of @stream (seekable; DDB_JSON, JSON or CSV, through gunzip when
 * @gzip), for the fuzz target and tests: no file needed. */
DynItemReader *_dyn_item_reader_new_for_stream (GInputStream *stream, DynTransferFormat format,
                                                gboolean gzip, const DynItemReaderOptions *options,
                                                GError **error);
gboolean _dyn_item_reader_open_source (DynItemReader *self, const char *file,
                                       gboolean gzip, GError **error);
void     _dyn_item_reader_close_source (DynItemReader *self);
/* Appends the next line (terminator included) to self->text. 1: a line,
 * 0: end of the source, -1: error. *too_long when it was cut (the rest is
 * skipped). */
int      _dyn_item_reader_read_line   (DynItemReader *self, gboolean *too_long,
                                       GError **error);
void     _dyn_item_reader_set_bad     (DynItemReader *self, GError **error,
                                       const GError *reason);
char    *_dyn_item_reader_where       (DynItemReader *self, guint file, guint64 line);
DynItemReadResult _dyn_item_reader_decode_json_line (DynItemReader *self, const char *text,
                                                     gsize len, DynValue **item,
                                                     GError **error);

/* dyn-transfer-csv.c */
gboolean          _dyn_csv_reader_init (DynItemReader *self, const DynItemReaderOptions *options,
                                        GError **error);
DynItemReadResult _dyn_csv_reader_next (DynItemReader *self, DynValue **item, GError **error);
void              _dyn_csv_reader_clear (DynItemReader *self);

/* dyn-transfer-s3.c */
gboolean          _dyn_s3_reader_init  (DynItemReader *self, GError **error);
gboolean          _dyn_s3_reader_open_file (DynItemReader *self, guint index, GError **error);
/* At the end of the current file: checks its item count. */
gboolean          _dyn_s3_reader_finish_file (DynItemReader *self, GError **error);
void              _dyn_s3_file_free    (gpointer file);
/* The export folder of @path (itself, its manifest-summary.json, or the one
 * AWSDynamoDB/<id>/ below it), or NULL with @error set */
char             *_dyn_s3_find_export  (const char *path, GError **error);
/* From memory, for the fuzz target: manifest-files.json text → files */
GPtrArray        *_dyn_s3_parse_manifest_files (const char *text, gsize len,
                                                const char *folder, GError **error);

G_END_DECLS
