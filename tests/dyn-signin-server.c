/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dyn-signin-server.h"

#include <glib/gstdio.h>
#include <string.h>

#define PYTHON "/usr/bin/python3"

struct _DynSigninServer {
  GSubprocess *process;
  char        *workdir;
  char        *scenario_path;
  char        *log_path;
  char        *url;
  guint        port;
};

static void
server_free (DynSigninServer *server)
{
  if (server->scenario_path != NULL)
    g_unlink (server->scenario_path);
  if (server->log_path != NULL)
    g_unlink (server->log_path);
  if (server->workdir != NULL)
    g_rmdir (server->workdir);
  g_clear_object (&server->process);
  g_free (server->scenario_path);
  g_free (server->log_path);
  g_free (server->workdir);
  g_free (server->url);
  g_free (server);
}

static char *
script_path (void)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  const char *root = g_getenv ("DYN_SOURCE_ROOT");

  if (srcdir != NULL)
    return g_build_filename (srcdir, "aws-signin-server.py", NULL);
  if (root != NULL)
    return g_build_filename (root, "tests", "aws-signin-server.py", NULL);
  return g_strdup ("tests/aws-signin-server.py");
}

DynSigninServer *
dyn_signin_server_start (const char  *scenario_json,
                         GError     **error)
{
  g_autofree char *script = script_path ();
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  DynSigninServer *server;
  guint64 port;

  if (!g_file_test (PYTHON, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s is not installed", PYTHON);
      return NULL;
    }
  if (!g_file_test ("/usr/lib/python3/dist-packages/botocore/auth.py", G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "python3-botocore is not installed (build-aux/install-deps.sh)");
      return NULL;
    }
  if (!g_file_test (script, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s not found", script);
      return NULL;
    }

  server = g_new0 (DynSigninServer, 1);
  server->workdir = g_dir_make_tmp ("dyn-signin-server-XXXXXX", error);
  if (server->workdir == NULL)
    {
      server_free (server);
      return NULL;
    }
  server->scenario_path = g_build_filename (server->workdir, "scenario.json", NULL);
  server->log_path = g_build_filename (server->workdir, "requests.jsonl", NULL);
  if (!g_file_set_contents (server->scenario_path,
                            scenario_json != NULL ? scenario_json : "{}", -1, error))
    {
      server_free (server);
      return NULL;
    }

  /* stderr stays the test's, so a Python traceback shows in the test log. */
  server->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE,
                                      error, PYTHON, script,
                                      "--scenario", server->scenario_path,
                                      "--log", server->log_path, NULL);
  if (server->process == NULL)
    {
      server_free (server);
      return NULL;
    }

  /* The first line is the port; it comes once the socket listens. When the
   * server dies first the read ends at EOF. */
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, error);
  if (line == NULL || !g_ascii_string_to_unsigned (g_strstrip (line), 10, 1, 65535, &port, NULL))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     "aws-signin-server.py exited before it printed its port (scenario: %s)",
                     scenario_json);
      g_subprocess_force_exit (server->process);
      g_subprocess_wait (server->process, NULL, NULL);
      server_free (server);
      return NULL;
    }
  server->port = (guint) port;
  server->url = g_strdup_printf ("http://127.0.0.1:%u", server->port);
  g_test_message ("aws-signin-server.py listens on %s", server->url);
  return server;
}

const char *
dyn_signin_server_get_url (DynSigninServer *server)
{
  g_return_val_if_fail (server != NULL, NULL);
  return server->url;
}

/* One HTTP/1.1 request with "Connection: close"; the body of a 2xx answer. */
static char *
http_call (DynSigninServer  *server,
           const char       *method,
           const char       *target,
           GError          **error)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GByteArray) answer = g_byte_array_new ();
  g_autofree char *request = NULL;
  GOutputStream *output;
  GInputStream *input;
  const char *head_end;
  guint status = 0;
  guint8 buffer[8192];
  gssize n;

  g_socket_client_set_timeout (client, 60);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", server->port, NULL, error);
  if (connection == NULL)
    return NULL;
  request = g_strdup_printf ("%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nContent-Length: 0\r\n"
                             "Connection: close\r\n\r\n", method, target, server->port);
  output = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  if (!g_output_stream_write_all (output, request, strlen (request), NULL, NULL, error))
    return NULL;
  input = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  while ((n = g_input_stream_read (input, buffer, sizeof buffer, NULL, error)) > 0)
    g_byte_array_append (answer, buffer, (guint) n);
  if (n < 0)
    return NULL;
  g_byte_array_append (answer, (const guint8 *) "", 1);

  head_end = strstr ((const char *) answer->data, "\r\n\r\n");
  if (head_end == NULL || sscanf ((const char *) answer->data, "HTTP/1.%*d %u", &status) != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the sign-in server sent no HTTP answer to %s %s", method, target);
      return NULL;
    }
  if (status < 200 || status >= 300)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s %s: HTTP %u %s",
                   method, target, status, head_end + 4);
      return NULL;
    }
  return g_strdup (head_end + 4);
}

JsonNode *
dyn_signin_server_get_log (DynSigninServer  *server,
                           GError          **error)
{
  g_autofree char *body = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  g_return_val_if_fail (server != NULL, NULL);
  body = http_call (server, "GET", "/_test/log", error);
  if (body == NULL || !json_parser_load_from_data (parser, body, -1, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "/_test/log is not a JSON array");
      return NULL;
    }
  return json_node_copy (root);
}

gboolean
dyn_signin_server_control (DynSigninServer  *server,
                           const char       *command,
                           GError          **error)
{
  g_autofree char *target = NULL;
  g_autofree char *body = NULL;

  g_return_val_if_fail (server != NULL, FALSE);
  g_return_val_if_fail (command != NULL, FALSE);
  target = g_strconcat ("/_test/", command, NULL);
  body = http_call (server, "POST", target, error);
  return body != NULL;
}

int
dyn_signin_server_count (DynSigninServer *server,
                         const char      *operation)
{
  g_autoptr(JsonNode) log = dyn_signin_server_get_log (server, NULL);
  JsonArray *array;
  int count = 0;

  if (log == NULL)
    return -1;
  array = json_node_get_array (log);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *entry = json_array_get_object_element (array, i);
      const char *op = entry != NULL ? json_object_get_string_member_with_default (entry, "operation", NULL) : NULL;

      if (g_strcmp0 (op, operation) == 0)
        count++;
    }
  return count;
}

void
dyn_signin_server_stop (DynSigninServer *server)
{
  if (server == NULL)
    return;
  if (server->process != NULL)
    {
      g_subprocess_force_exit (server->process);
      g_subprocess_wait (server->process, NULL, NULL);
    }
  server_free (server);
}
