/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The sign-in test server (tests/aws-signin-server.py: STS, IAM Identity
 * Center OIDC and portal, the ECS container endpoint and IMDSv2 on one
 * loopback port) for GTest programs. Its top comment documents the scenario
 * JSON and the control paths. Every call here is synchronous: the server is
 * another process, so a client on the test's main context never deadlocks
 * with it.
 */

typedef struct _DynSigninServer DynSigninServer;

/* Writes @scenario_json to a temporary file and starts /usr/bin/python3
 * $G_TEST_SRCDIR/aws-signin-server.py on a free port of 127.0.0.1. Fails with
 * G_IO_ERROR_NOT_FOUND when python3 or botocore is missing. */
DynSigninServer *dyn_signin_server_start    (const char        *scenario_json,
                                             GError           **error);
/* "http://127.0.0.1:PORT": the endpoint of every service it speaks. */
const char      *dyn_signin_server_get_url  (DynSigninServer   *server);
/* The requests logged since the start or the last reset (a JSON array of
 * objects: service, operation, parameters with secrets as fingerprints,
 * signing_access_key, signing_region, status, error …); %NULL with @error
 * set when the server does not answer. */
JsonNode        *dyn_signin_server_get_log  (DynSigninServer   *server,
                                             GError           **error) G_GNUC_WARN_UNUSED_RESULT;
/* POST /_test/@command: "reset", "approve", "revoke-refresh",
 * "expire?access_key=ASIA…", "expire?access_token=…". */
gboolean         dyn_signin_server_control  (DynSigninServer   *server,
                                             const char        *command,
                                             GError           **error);
/* The number of logged requests of @operation ("CreateToken" …), -1 on error. */
int              dyn_signin_server_count    (DynSigninServer   *server,
                                             const char        *operation);
/* Kills the server, removes its files and frees @server. */
void             dyn_signin_server_stop     (DynSigninServer   *server);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSigninServer, dyn_signin_server_stop)

G_END_DECLS
