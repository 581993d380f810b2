/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-guardrail.h"

G_BEGIN_DECLS

/* The question before a write on a production connection: the summary's
 * title as heading, its count and total estimated WCU first (the body), then
 * one row per request — table and key, what it does and its guard, its WCU —
 * and the total. Responses "cancel" (default and close) and "write"
 * (destructive). */

GtkWidget       *dyn_write_confirm_dialog_new         (GtkWindow       *parent,
                                                       DynWriteSummary *summary);
/* The summary shown (for tests and screen readers). */
DynWriteSummary *dyn_write_confirm_dialog_get_summary (GtkWidget       *dialog);
/* The rows the list shows. */
guint            dyn_write_confirm_dialog_get_n_rows  (GtkWidget       *dialog);

G_END_DECLS
