/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-signin-private.h"

G_BEGIN_DECLS

/* Between dyn-sts.c and dyn-sign-in-role.c / dyn-sign-in-container.c only. */

/* AWS_STS_REGIONAL_ENDPOINTS, else @profile's sts_regional_endpoints, else %NULL (the
 * regional endpoints); @where: (out) (optional): which of the two it was. */
const char *_dyn_sts_regional_endpoints_setting (DynSharedConfig  *shared,
                                                 const char       *profile,
                                                 const char      **where);
/* Whether dyn_sign_in_sts_endpoint() picks the global endpoint (signed for us-east-1) when
 * nothing configures one: no region, or "legacy" and a legacy global region. */
gboolean    _dyn_sts_uses_global_endpoint       (DynSharedConfig  *shared,
                                                 const char       *profile,
                                                 const char       *region);
/* The <Expiration> of a table of _dyn_sts_parse_response() that holds credentials. */
GDateTime  *_dyn_sts_result_expiration          (GHashTable       *result) G_GNUC_WARN_UNUSED_RESULT;

/* The credentials of such a table, expiring at its <Expiration>. */
DynCredentials *_dyn_sts_result_credentials     (GHashTable       *result) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
