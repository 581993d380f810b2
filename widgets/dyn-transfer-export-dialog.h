/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-client.h"
#include "dyn-expr.h"
#include "dyn-transfer-progress-bar.h"
#include "dyn-transfer-source.h"

G_BEGIN_DECLS

#define DYN_TYPE_TRANSFER_EXPORT_DIALOG (dyn_transfer_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynTransferExportDialog, dyn_transfer_export_dialog, DYN, TRANSFER_EXPORT_DIALOG, AdwWindow)

/*
 * Exports the table @keys describes, one of its indexes, or @current (the
 * read the window shows, described by @current_label) to DynamoDB JSON
 * lines, JSON lines, CSV or an S3 export folder, with @client. The output is
 * chosen with a file chooser (a folder for S3); an output whose checkpoint
 * exists is offered to resume; a running export shows its progress and can
 * be stopped and resumed. "finished" is emitted with the end's sentence
 * (count and cost) when the export is complete. @item_count: DescribeTable's
 * ItemCount (the ETA of a table export; 0 unknown).
 */
DynTransferExportDialog *dyn_transfer_export_dialog_new          (GtkWindow          *parent,
                                                                  DynClient          *client,
                                                                  const DynTableKeys *keys,
                                                                  const DynRequest   *current,
                                                                  const char         *current_label,
                                                                  guint64             item_count);
/* What the rows choose, for scripting and tests (as a user chooses them). */
void              dyn_transfer_export_dialog_set_source   (DynTransferExportDialog *self,
                                                           DynExportSource          source,
                                                           const char              *index);
void              dyn_transfer_export_dialog_set_format   (DynTransferExportDialog *self,
                                                           DynTransferFormat        format);
void              dyn_transfer_export_dialog_set_segments (DynTransferExportDialog *self,
                                                           guint                    segments);
/* What the file chooser sets. */
void              dyn_transfer_export_dialog_set_output   (DynTransferExportDialog *self,
                                                           const char              *path);
const char       *dyn_transfer_export_dialog_get_output   (DynTransferExportDialog *self);
DynTransferState  dyn_transfer_export_dialog_get_state    (DynTransferExportDialog *self);
/* The job of the last run (NULL before one), and the sentence shown. */
DynExportJob     *dyn_transfer_export_dialog_get_job      (DynTransferExportDialog *self);
const char       *dyn_transfer_export_dialog_get_message  (DynTransferExportDialog *self);
/* The request the export reads as chosen now (NULL and an error when none). */
DynRequest       *dyn_transfer_export_dialog_dup_request  (DynTransferExportDialog *self,
                                                           GError                 **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
