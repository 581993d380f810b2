/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-signin-private.h"

G_BEGIN_DECLS

/* Between dyn-sso.c and dyn-sso-cache.c only. */

/* Botocore refreshes an SSO token with less than this left (SSOTokenProvider._REFRESH_WINDOW),
 * and the CLI registers a client again with less than this left of the registration. */
#define DYN_SSO_REFRESH_WINDOW (15 * G_TIME_SPAN_MINUTE)

DynSsoConfig *_dyn_sso_config_copy        (const DynSsoConfig *config) G_GNUC_WARN_UNUSED_RESULT;
/* Whether @profile sets sso_session, sso_start_url, sso_account_id or sso_role_name. */
gboolean      _dyn_sso_profile_is_sso     (DynSharedConfig    *shared,
                                           const char         *profile);
char         *_dyn_sso_default_endpoint   (const char         *host_prefix,
                                           const char         *region) G_GNUC_WARN_UNUSED_RESULT;
/* The timestamps of a token file as botocore reads them; %NULL when it is none. */
GDateTime    *_dyn_sso_parse_timestamp    (const char         *text) G_GNUC_WARN_UNUSED_RESULT;
/* "2026-12-02T10:00:00Z", as the CLI writes them. */
char         *_dyn_sso_format_timestamp   (GDateTime          *time) G_GNUC_WARN_UNUSED_RESULT;
/* Strict JSON (UTF-8, no NUL) whose root is an object, or %NULL. */
JsonNode     *_dyn_sso_parse_json_object  (const char         *text,
                                           gsize               length) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
