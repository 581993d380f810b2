/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "dyn-client.h"
#include "dyn-pager.h"

G_BEGIN_DECLS

/* The test harness: a private network namespace, real DynamoDB servers on
 * loopback, a client for them and synchronous wrappers for async calls. */

typedef enum {
  DYN_TEST_DYNAMODB_LOCAL,
  DYN_TEST_DYNALITE,
  /* DynamoDB Local without -sharedDb: one database per access key and region. */
  DYN_TEST_DYNAMODB_LOCAL_PER_KEY,
} DynTestServerKind;

typedef struct _DynTestServer DynTestServer;

#define DYN_TEST_ACCESS_KEY "dynoscopetest"
#define DYN_TEST_SECRET_KEY "dynoscopesecret"
#define DYN_TEST_REGION     "us-east-1"

/* g_test_init() plus network isolation: call it first in main(), before any
 * thread exists. DYN_TEST_NO_NETNS=1 keeps the host's network. */
void            dyn_test_init                (int    *argc,
                                              char ***argv);
/* Whether dyn_test_init() moved the process into a private network namespace. */
gboolean        dyn_test_is_isolated         (void);

/* Starts a server on a free port of 127.0.0.1 and waits until it accepts
 * connections. Fails with G_IO_ERROR_NOT_FOUND when java, node or the server
 * package is missing (see dyn_test_server_get(), which skips then). */
DynTestServer  *dyn_test_server_start        (DynTestServerKind   kind,
                                              GError            **error);
/* Kills the server's process group, waits for it and frees @server. */
void            dyn_test_server_stop         (DynTestServer      *server);
const char     *dyn_test_server_get_endpoint (DynTestServer      *server);
DynTestServerKind dyn_test_server_get_kind   (DynTestServer      *server);
const char     *dyn_test_server_kind_name    (DynTestServerKind   kind);

/* The process-wide server of @kind, started on first use and stopped at exit.
 * Inside a test case: returns NULL after g_test_skip() when the server cannot
 * run here (missing tools), and fails the test when it does not start. */
DynTestServer  *dyn_test_server_get          (DynTestServerKind   kind);

/* A client for @server with the test credentials and short retry delays. */
DynClient      *dyn_test_client_new          (DynTestServer      *server) G_GNUC_WARN_UNUSED_RESULT;

/* Async → sync. Pass dyn_test_result_cb with &result as user data, then
 * dyn_test_wait (&result) runs the default main context until it is set
 * and returns it (still owned by @result). */
void            dyn_test_result_cb           (GObject            *source,
                                              GAsyncResult       *result,
                                              gpointer            user_data);
GAsyncResult   *dyn_test_wait                (GAsyncResult      **result);

/* Synchronous forms of the client calls. @json_params is JSON text (NULL: {}). */
DynResponse    *dyn_test_call                (DynClient          *client,
                                              const char         *operation,
                                              const char         *json_params,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;
/* Like dyn_test_call(), with printf-style formatting of the parameters. */
DynResponse    *dyn_test_callf               (DynClient          *client,
                                              const char         *operation,
                                              GError            **error,
                                              const char         *format,
                                              ...) G_GNUC_PRINTF (4, 5) G_GNUC_WARN_UNUSED_RESULT;
DynResponse    *dyn_test_execute             (DynClient          *client,
                                              const DynRequest   *request,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;
char          **dyn_test_list_tables         (DynClient          *client,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray      *dyn_test_batch_get           (DynClient          *client,
                                              const char         *table,
                                              GPtrArray          *keys,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean        dyn_test_batch_write         (DynClient          *client,
                                              const char         *table,
                                              GPtrArray          *puts,
                                              GPtrArray          *deletes,
                                              guint              *requests,
                                              GError            **error);
/* Pager helpers: one page, or every page (segments for a parallel scan).
 * dyn_test_pager_run returns all items in arrival order. */
GPtrArray      *dyn_test_pager_next          (DynPager           *pager,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray      *dyn_test_pager_run           (DynPager           *pager,
                                              guint               segments,
                                              guint64             max_items,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/* A table name unique in this process and run: "<prefix>-<pid>-<n>". */
char           *dyn_test_table_name          (const char         *prefix) G_GNUC_WARN_UNUSED_RESULT;
/* CreateTable via dyn_create_table_params() ("NAME:TYPE" keys, GSIs
 * "NAME:PK:T[:SK:T]", multi-attribute "NAME:PK:T+PK2:T[:SK:T+SK2:T]");
 * returns once the table is ACTIVE. */
gboolean        dyn_test_create_table        (DynClient          *client,
                                              const char         *table,
                                              const char         *partition_key,
                                              const char         *sort_key,
                                              const char * const *gsis,
                                              GError            **error);
/* CreateTable with full JSON parameters; waits for ACTIVE. */
gboolean        dyn_test_create_table_json   (DynClient          *client,
                                              const char         *table,
                                              const char         *json_params,
                                              GError            **error);
gboolean        dyn_test_delete_table        (DynClient          *client,
                                              const char         *table,
                                              GError            **error);
/* Polls DescribeTable until the table and its indexes are ACTIVE (bounded). */
gboolean        dyn_test_wait_table_active   (DynClient          *client,
                                              const char         *table,
                                              GError            **error);

/* Items. dyn_test_item() parses DynamoDB JSON and aborts the test on error;
 * dyn_test_plain_item() does the same for plain JSON (see dyn-value.h). */
DynValue       *dyn_test_item                (const char         *ddb_json) G_GNUC_WARN_UNUSED_RESULT;
DynValue       *dyn_test_plain_item          (const char         *plain_json) G_GNUC_WARN_UNUSED_RESULT;
DynValue       *dyn_test_itemf               (const char         *format,
                                              ...) G_GNUC_PRINTF (1, 2) G_GNUC_WARN_UNUSED_RESULT;
/* A GPtrArray that unrefs the DynValues it holds. */
GPtrArray      *dyn_test_item_array_new      (void) G_GNUC_WARN_UNUSED_RESULT;
/* GetItem of @key; asserts success and returns the item or NULL. */
DynValue       *dyn_test_get_item            (DynClient          *client,
                                              const char         *table,
                                              DynValue           *key,
                                              gboolean            consistent_read) G_GNUC_WARN_UNUSED_RESULT;
gboolean        dyn_test_put_item            (DynClient          *client,
                                              const char         *table,
                                              DynValue           *item,
                                              GError            **error);
/* Loads @items (DynValue) with BatchWriteItem. */
gboolean        dyn_test_load_items          (DynClient          *client,
                                              const char         *table,
                                              GPtrArray          *items,
                                              GError            **error);
/* Loads a fixture from tests/seed-data/: a JSON array of plain-JSON items. */
gboolean        dyn_test_load_seed           (DynClient          *client,
                                              const char         *table,
                                              const char         *seed_name,
                                              GError            **error);
/* The string attribute @name of @item, or NULL. */
const char     *dyn_test_item_get_string     (DynValue           *item,
                                              const char         *name);
/* The number text of attribute @name of @item, or NULL. */
const char     *dyn_test_item_get_number     (DynValue           *item,
                                              const char         *name);

/* The fixture of the integration tests: a client for a shared server and a
 * table name of its own. Call dyn_test_fixture_setup() from the test's setup
 * function and pass dyn_test_fixture_teardown() to g_test_add(); the
 * teardown deletes the table when @created is set. */
typedef struct
{
  DynTestServer *server;
  DynClient     *client;
  char          *table;
  gboolean       created;
} DynTestFixture;

/* Returns FALSE (the test skipped, @fx->client NULL) when the server of @kind
 * cannot run here; otherwise @fx has a client and a table name "<prefix>-…". */
gboolean        dyn_test_fixture_setup       (DynTestFixture     *fx,
                                              DynTestServerKind   kind,
                                              const char         *table_prefix);
void            dyn_test_fixture_teardown    (DynTestFixture     *fx,
                                              gconstpointer       data);
/* Creates @fx->table like dyn_test_create_table(), asserts success and marks
 * it for deletion in the teardown. */
void            dyn_test_fixture_create_table (DynTestFixture    *fx,
                                               const char        *partition_key,
                                               const char        *sort_key,
                                               const char * const *gsis);
/* Creates @fx->table from full JSON parameters, like dyn_test_create_table_json(). */
void            dyn_test_fixture_create_table_json (DynTestFixture *fx,
                                                    const char     *json_params);

/* Ends a fixture test early when its server was skipped. */
#define DYN_TEST_REQUIRE_SERVER(fx) G_STMT_START { if ((fx)->client == NULL) return; } G_STMT_END

/* Asserts that @err is a DYN_ERROR service error with @err_code and the given AWS code. */
#define dyn_test_assert_service_error(err, err_code, expected_aws_code) \
  G_STMT_START { \
    const DynErrorDetails *_d; \
    g_assert_error ((err), DYN_ERROR, (err_code)); \
    _d = dyn_error_get_details (err); \
    g_assert_nonnull (_d); \
    g_assert_cmpstr (_d->aws_code, ==, (expected_aws_code)); \
  } G_STMT_END

/* Shows the messages of the dynoscope domain in @language ("de", "tr") from
 * this build's .mo files (po/LANG/LC_MESSAGES/dynoscope.mo), with UTF-8
 * text. The process keeps the language: call it in a subprocess
 * (g_test_trap_subprocess()), so that other tests keep the C locale. */
void            dyn_test_use_translations    (const char         *language);

G_END_DECLS
