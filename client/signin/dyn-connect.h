/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-client.h"

G_BEGIN_DECLS

/**
 * dyn_connect:
 * @profile: (nullable): the profile, or %NULL for AWS_PROFILE / default
 * @region: (nullable): overrides the profile's region
 * @endpoint: (nullable): overrides the profile's endpoint
 * @insecure: allow plain http:// towards other hosts than this machine
 *
 * Resolves profile, region, endpoint and credentials as the AWS SDKs do and
 * makes a client, for the window and the command line alike. Against a
 * loopback endpoint with no credentials configured (DynamoDB Local),
 * placeholder keys are used: such servers do not check them.
 */
DynClient *dyn_connect                  (const char  *profile,
                                         const char  *region,
                                         const char  *endpoint,
                                         gboolean     insecure,
                                         GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* Where requests would go, without needing credentials: the region and the
 * endpoint (NULL for the region's AWS endpoint). */
gboolean   dyn_connect_resolve_location (const char  *profile,
                                         const char  *region,
                                         const char  *endpoint,
                                         char       **region_out,
                                         char       **endpoint_out,
                                         GError     **error);

G_END_DECLS
