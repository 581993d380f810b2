/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-client.h"
#include "dyn-pager.h"

G_BEGIN_DECLS

/* `dynoscope-cli apply TABLE [--dry-run]`: reads changes as JSON lines
 * {"before": ITEM|null, "after": ITEM|null} (DynamoDB JSON) on standard
 * input. With @dry_run prints the planned requests; otherwise commits them
 * and prints one JSON line per change. Returns FALSE with an error on bad
 * input, a failed request or any conflict. Adds the requests the commit sent
 * and the capacity they consumed to @stats (nullable; as for reads, the
 * DescribeTable before is not counted). */
gboolean dyn_cli_apply (DynClient     *client,
                        const char    *table,
                        const char    *version_attribute,
                        gboolean       dry_run,
                        gboolean       plain,
                        DynReadStats  *stats,
                        GError       **error);

G_END_DECLS
