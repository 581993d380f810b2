/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-changes.h"

G_BEGIN_DECLS

/* Stages the change one JSON line holds: {"before": ITEM|null, "after":
 * ITEM|null}, items in DynamoDB JSON (either may be missing, not both).
 * Returns the change's index, or -1 with DYN_ERROR_INVALID_ARGUMENT. */
int        dyn_change_set_add_json_line       (DynChangeSet     *self,
                                               const char       *line,
                                               gssize            len,
                                               GError          **error);

/* What a commit did with change @change as one JSON line (no newline):
 * {"change": i, "status": "conflict", "key": KEY, "current": ITEM|null,
 * "error": "…"}; items in DynamoDB JSON, or plain JSON with @plain. */
char      *dyn_commit_result_dup_outcome_line (DynCommitResult  *self,
                                               guint             change,
                                               gboolean          plain) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
