/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-client.h"
#include "dyn-expr.h"
#include "dyn-guardrail.h"
#include "dyn-transfer-progress-bar.h"
#include "dyn-transfer-source.h"

G_BEGIN_DECLS

#define DYN_TYPE_TRANSFER_IMPORT_DIALOG (dyn_transfer_import_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynTransferImportDialog, dyn_transfer_import_dialog, DYN, TRANSFER_IMPORT_DIALOG, AdwWindow)

/*
 * Imports a file (DynamoDB JSON lines, JSON lines, CSV) or a downloaded S3
 * export folder into the table @keys describes (NULL: only into a new table)
 * or into a new table of a chosen key schema, with @client. The format is
 * detected and can be changed. A dry run reads every line first, ALWAYS:
 * items, bad lines (line number and reason), duplicate keys, the WCU it will
 * cost; Import is enabled only when the file is clean or Skip Bad Lines is
 * on, and nothing is written (not even the new table) before it is pressed.
 * Then the progress with Stop, Resume from the checkpoint, the summary and
 * Verify. "finished" is emitted with the summary and the table written.
 */
DynTransferImportDialog *dyn_transfer_import_dialog_new          (GtkWindow          *parent,
                                                                  DynClient          *client,
                                                                  const DynTableKeys *keys);
/* The guardrail of the window's connection (NULL: none): on a production
 * connection the import is confirmed first with its item count and estimated WCU. */
void              dyn_transfer_import_dialog_set_guardrail (DynTransferImportDialog *self,
                                                            DynGuardrail            *guardrail);
/* What the file chooser sets; the format is detected and the dry run starts. */
void              dyn_transfer_import_dialog_set_input    (DynTransferImportDialog *self,
                                                           const char              *path);
const char       *dyn_transfer_import_dialog_get_input    (DynTransferImportDialog *self);
/* What the rows set, for scripting and tests (as a user sets them). */
void              dyn_transfer_import_dialog_set_format   (DynTransferImportDialog *self,
                                                           DynTransferFormat        format);
DynTransferFormat dyn_transfer_import_dialog_get_format   (DynTransferImportDialog *self);
/* A new table (@table non-NULL; @sort_key NULL or "" for none) or, with
 * @table NULL, the dialog's table. */
void              dyn_transfer_import_dialog_set_new_table (DynTransferImportDialog *self,
                                                            const char              *table,
                                                            const char              *partition_key,
                                                            DynValueType             partition_type,
                                                            const char              *sort_key,
                                                            DynValueType             sort_type);
void              dyn_transfer_import_dialog_set_never_overwrite (DynTransferImportDialog *self,
                                                                  gboolean                 never_overwrite);
void              dyn_transfer_import_dialog_set_skip_bad (DynTransferImportDialog *self,
                                                           gboolean                 skip_bad);
void              dyn_transfer_import_dialog_set_max_wcu  (DynTransferImportDialog *self,
                                                           double                   max_wcu);

DynTransferState  dyn_transfer_import_dialog_get_state    (DynTransferImportDialog *self);
/* The last dry run's summary (NULL before one has finished) and the
 * problems listed (element-type DynImportProblem: the dry run's, then the
 * run's and the verify's). */
const DynImportSummary *dyn_transfer_import_dialog_get_dry_run  (DynTransferImportDialog *self);
GPtrArray        *dyn_transfer_import_dialog_get_problems (DynTransferImportDialog *self);
/* The job of the last import run (NULL before one). */
DynImportJob     *dyn_transfer_import_dialog_get_job      (DynTransferImportDialog *self);
/* The sentence of the check or the run, and of the verify. */
const char       *dyn_transfer_import_dialog_get_message  (DynTransferImportDialog *self);
const char       *dyn_transfer_import_dialog_get_verify_text (DynTransferImportDialog *self);
/* The table the import writes into, as chosen now. */
const char       *dyn_transfer_import_dialog_get_table    (DynTransferImportDialog *self);

G_END_DECLS
