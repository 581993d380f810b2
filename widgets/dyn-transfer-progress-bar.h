/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-transfer.h"

G_BEGIN_DECLS

/**
 * DynTransferState:
 * @DYN_TRANSFER_STATE_IDLE: not started (an import: checked or not)
 * @DYN_TRANSFER_STATE_CHECKING: an import's dry run is reading the file
 * @DYN_TRANSFER_STATE_RUNNING: the export or import runs
 * @DYN_TRANSFER_STATE_DONE: it finished
 * @DYN_TRANSFER_STATE_STOPPED: cancelled; it may be resumed
 * @DYN_TRANSFER_STATE_FAILED: it failed; the message says why
 *
 * Where a transfer dialog stands.
 */
typedef enum {
  DYN_TRANSFER_STATE_IDLE,
  DYN_TRANSFER_STATE_CHECKING,
  DYN_TRANSFER_STATE_RUNNING,
  DYN_TRANSFER_STATE_DONE,
  DYN_TRANSFER_STATE_STOPPED,
  DYN_TRANSFER_STATE_FAILED,
} DynTransferState;

#define DYN_TYPE_TRANSFER_PROGRESS_BAR (dyn_transfer_progress_bar_get_type ())
G_DECLARE_FINAL_TYPE (DynTransferProgressBar, dyn_transfer_progress_bar, DYN, TRANSFER_PROGRESS_BAR, GtkWidget)

/* A progress bar with the job's sentence below it (items, bytes, RCU or
 * WCU, retries, ETA: dyn_transfer_progress_describe()). */
GtkWidget  *dyn_transfer_progress_bar_new      (void);
void        dyn_transfer_progress_bar_update   (DynTransferProgressBar    *self,
                                                const DynTransferProgress *progress);
/* Replaces the sentence (a failure, "Stopped", the end's summary). */
void        dyn_transfer_progress_bar_set_text (DynTransferProgressBar    *self,
                                                const char                *text);
const char *dyn_transfer_progress_bar_get_text (DynTransferProgressBar    *self);
/* A job done: the bar full (its items may be fewer than expected). */
void        dyn_transfer_progress_bar_set_fraction (DynTransferProgressBar *self,
                                                    double                  fraction);
double      dyn_transfer_progress_bar_get_fraction (DynTransferProgressBar *self);
void        dyn_transfer_progress_bar_reset    (DynTransferProgressBar    *self);

G_END_DECLS
