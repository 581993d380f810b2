/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-sigv4"

#include "config.h"

#include <string.h>
#include <time.h>

#include "dyn-sigv4.h"

/* A typical Query of about 300 bytes, shared with bench_sigv4.py. */
#define QUERY_BODY \
  "{\"TableName\":\"Workspaces\",\"KeyConditionExpression\":\"#pk = :pk AND begins_with(#sk, :sk)\"," \
  "\"ExpressionAttributeNames\":{\"#pk\":\"PK\",\"#sk\":\"SK\"}," \
  "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"WS#7f3a9c2e-1b4d-4e8a-9f60-2c5d8e1a7b34\"}," \
  "\":sk\":{\"S\":\"PROJ#\"}},\"ProjectionExpression\":\"PK, SK, #n\"," \
  "\"Limit\":100,\"ReturnConsumedCapacity\":\"TOTAL\"}"

#define FIXED_TIME G_GINT64_CONSTANT (1700000000)

/* Process CPU time, so that other jobs on a shared machine disturb the
 * figures less than wall-clock time would; bench_sigv4.py does the same. */
static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
run (gboolean warm,
     gboolean with_token,
     guint    iterations,
     char    *last_auth,
     gsize    last_auth_size)
{
  static const char body[] = QUERY_BODY;
  DynSigv4Credentials creds = {
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    with_token ? "IQoJb3JpZ2luX2VjEXAMPLETOKENwEaCXVzLWVhc3QtMSJHMEUCIQD" : NULL,
  };
  DynSigv4Signer *signer = dyn_sigv4_signer_new ();
  double start, end;

  start = cpu_seconds ();
  for (guint i = 0; i < iterations; i++)
    {
      char **headers;

      if (!warm)
        {
          dyn_sigv4_signer_free (signer);
          signer = dyn_sigv4_signer_new ();
        }
      headers = dyn_sigv4_signer_dynamodb_headers (signer, &creds, "eu-central-1",
                                                   "dynamodb.eu-central-1.amazonaws.com",
                                                   "DynamoDB_20120810.Query",
                                                   body, sizeof body - 1, FIXED_TIME);
      if (i + 1 == iterations && last_auth != NULL)
        g_strlcpy (last_auth, headers[g_strv_length (headers) - 1], last_auth_size);
      g_strfreev (headers);
    }
  end = cpu_seconds ();
  dyn_sigv4_signer_free (signer);

  return iterations / (end - start);
}

int
main (int argc, char **argv)
{
  guint iterations = 200000;
  char auth[512] = "";
  double warm, cold, warm_token;

  if (argc > 1)
    iterations = (guint) g_ascii_strtoull (argv[1], NULL, 10);
  if (iterations == 0)
    iterations = 1;

  g_print ("body_bytes=%zu\n", strlen (QUERY_BODY));
  run (TRUE, FALSE, iterations / 10 + 1, NULL, 0);  /* warm up */
  warm = run (TRUE, FALSE, iterations, auth, sizeof auth);
  warm_token = run (TRUE, TRUE, iterations, NULL, 0);
  cold = run (FALSE, FALSE, iterations / 4 + 1, NULL, 0);

  /* The signature is printed so the Python side can check it signs the same
   * request; the benchmark credentials are AWS's documentation example. */
  g_print ("c_authorization=%s\n", auth + strlen ("Authorization: "));
  g_print ("c_signs_per_sec=%.0f\n", warm);
  g_print ("c_signs_per_sec_with_token=%.0f\n", warm_token);
  g_print ("c_signs_per_sec_cold_key=%.0f\n", cold);

  return 0;
}
