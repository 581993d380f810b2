/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-client.h"
#include "dyn-pager.h"

G_BEGIN_DECLS

/* Resolves profile, region, endpoint and credentials as the AWS SDKs do and
 * makes a client. Against a loopback endpoint with no credentials configured
 * (DynamoDB Local), placeholder keys are used: such servers do not check them. */
DynClient *dyn_cli_connect          (const char  *profile,
                                     const char  *region,
                                     const char  *endpoint,
                                     gboolean     insecure,
                                     GError     **error);

/* Puts the expressions and their maps on @request. Names are a JSON object of
 * "#n": "name"; values a JSON object of ":v": DynamoDB JSON value. */
gboolean   dyn_cli_set_expressions  (DynRequest  *request,
                                     const char  *key_condition,
                                     const char  *filter,
                                     const char  *condition,
                                     const char  *update,
                                     const char  *projection,
                                     const char  *names_json,
                                     const char  *values_json,
                                     GError     **error);

/* The pager for a Query or Scan request. */
DynPager  *dyn_cli_new_pager        (DynClient         *client,
                                     const DynRequest  *request,
                                     GError           **error);

/* Commands that need no server (expr, snippet, plan). Returns FALSE when
 * @command is not one of them; otherwise runs it and sets @ok. */
gboolean   dyn_cli_run_offline      (const char  *command,
                                     GPtrArray   *args,
                                     gboolean    *ok,
                                     GError     **error);

G_END_DECLS
