/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-transfer.h"

G_BEGIN_DECLS

/*
 * What the window's Export and Import dialogs decide without GTK: the request
 * an export reads (the table, one of its indexes, or the result the window
 * shows), the file name it suggests, and the sentences of an import's dry run,
 * its end and its verify.
 */

/**
 * DynExportSource:
 * @DYN_EXPORT_SOURCE_TABLE: a Scan of the whole table
 * @DYN_EXPORT_SOURCE_INDEX: a Scan of one of its indexes
 * @DYN_EXPORT_SOURCE_RESULT: the read the window shows (its Query or Scan
 *   with key condition, filter and projection), every page of it
 */
typedef enum {
  DYN_EXPORT_SOURCE_TABLE,
  DYN_EXPORT_SOURCE_INDEX,
  DYN_EXPORT_SOURCE_RESULT,
} DynExportSource;

/* The request an export of @source reads. @index: the index for INDEX;
 * @current: (nullable): the window's current request for RESULT (a Query
 * or Scan; a GetItem is refused: there is no result set to page). The
 * result request starts at the first page and has no Limit, no Select=COUNT
 * and no parallel segment of its own. */
DynRequest *dyn_export_source_request       (DynExportSource    source,
                                             const char        *table,
                                             const char        *index,
                                             const DynRequest  *current,
                                             GError           **error) G_GNUC_WARN_UNUSED_RESULT;
/* What a read is, for the source row: "Query of ByGenre, filtered",
 * "Scan, filtered", "Query" (translated). */
char       *dyn_export_describe_request     (const DynRequest  *request) G_GNUC_WARN_UNUSED_RESULT;
/* Whether @request may be read in parallel segments (a Scan). */
gboolean    dyn_export_request_can_segment  (const DynRequest  *request);

/* "Movies-2026-12-02.jsonl", "Movies-ByGenre-….csv", an S3 folder
 * "Movies-2026-12-02" (no extension); @now: (nullable): today. Characters a
 * file name should not hold become '_'. */
char       *dyn_transfer_suggest_file_name  (const char        *table,
                                             const char        *index,
                                             DynTransferFormat  format,
                                             GDateTime         *now) G_GNUC_WARN_UNUSED_RESULT;
/* Whether the export of @output stopped midway and can be resumed: its
 * checkpoint folder exists. */
gboolean    dyn_export_can_resume           (const char        *output);

/* Whether an import may run after the dry run that gave @dry_run: the input
 * is clean, or @skip_bad is set and some item is valid. */
gboolean    dyn_import_dry_run_allows       (const DynImportSummary *dry_run,
                                             gboolean                skip_bad);
/* "120 items · 2 bad lines · 1 duplicate key · ~130 WCU", translated. */
char       *dyn_import_describe_dry_run     (const DynImportSummary *dry_run) G_GNUC_WARN_UNUSED_RESULT;
/* The end of a run: "Imported 118 items · 2 bad lines skipped · 1 existing
 * item left as it was · 130.0 WCU", translated. */
char       *dyn_import_describe_done        (const DynImportSummary    *summary,
                                             const DynTransferProgress *progress) G_GNUC_WARN_UNUSED_RESULT;
/* "Verified 118 items: all in the table as in the file · the table holds
 * 118 items", or what is missing / different. */
char       *dyn_import_describe_verify      (const DynImportVerify     *verify) G_GNUC_WARN_UNUSED_RESULT;
/* The end of an export: "Exported 1,234 items to Movies.csv · 3.2 MB ·
 * 12.5 RCU", translated. */
char       *dyn_export_describe_done        (const DynTransferProgress *progress,
                                             const char                *output) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
