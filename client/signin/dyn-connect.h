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
 * makes a client, for the window and the command line alike. A profile
 * whose credentials cannot be resolved is an error naming the profile and
 * what is missing, whatever the endpoint. Only when no profile is in play at
 * all (none given, no AWS_PROFILE, no [default] section in either file, no
 * keys in the environment) and the endpoint is loopback (DynamoDB Local,
 * which does not check keys) are placeholder keys used, and the notice
 * function (dyn_connect_set_notice_func()) is told.
 */
DynClient *dyn_connect                  (const char  *profile,
                                         const char  *region,
                                         const char  *endpoint,
                                         gboolean     insecure,
                                         GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* Called with a translated one-line notice when dyn_connect() uses placeholder keys
 * (the command line prints it on stderr). %NULL: nobody is told. */
typedef void (*DynConnectNoticeFunc) (const char *message,
                                      gpointer    user_data);
void       dyn_connect_set_notice_func  (DynConnectNoticeFunc  func,
                                         gpointer              user_data);

/* Where requests would go, without needing credentials: the region and the
 * endpoint (NULL for the region's AWS endpoint). */
gboolean   dyn_connect_resolve_location (const char  *profile,
                                         const char  *region,
                                         const char  *endpoint,
                                         char       **region_out,
                                         char       **endpoint_out,
                                         GError     **error);

G_END_DECLS
