/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the sign-in parsers of outside input (STS XML, IAM Identity Center JSON, token cache
 * files). The first byte picks the parser, the rest is its input:
 *   0  the STS answer to AssumeRole (status from the second byte: 200, 400, 403, 500, 503, 429)
 *   1  the STS answer to GetCallerIdentity (likewise)
 *   2… the IAM Identity Center parsers (the sso part adds them below) */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"
#include "dyn-sts-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static const guint statuses[] = { 200, 400, 403, 500, 503, 429 };

static void
fuzz_sts (const char    *action,
          const uint8_t *data,
          size_t         size)
{
  g_autoptr(GHashTable) table = NULL;
  g_autoptr(GError) error = NULL;
  guint status = 200;

  if (size > 0)
    {
      status = statuses[data[0] % G_N_ELEMENTS (statuses)];
      data++;
      size--;
    }

  table = _dyn_sts_parse_response (action, status, (const char *) data, size, &error);
  g_assert ((table == NULL) != (error == NULL));
  if (table == NULL)
    {
      g_assert (error->domain == DYN_ERROR);
      g_assert (error->message != NULL && g_utf8_validate (error->message, -1, NULL));
      return;
    }
  g_assert (status >= 200 && status < 300);
  if (g_str_equal (action, "AssumeRole"))
    {
      g_autoptr(DynCredentials) creds = _dyn_sts_result_credentials (table);

      g_assert (creds != NULL && creds->expiration != NULL);
      g_assert (*creds->access_key_id != '\0' && *creds->secret_access_key != '\0');
    }
  else
    g_assert (g_hash_table_lookup (table, "Arn") != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  if (size == 0)
    return 0;

  switch (data[0])
    {
    case 0:
      fuzz_sts ("AssumeRole", data + 1, size - 1);
      break;
    case 1:
      fuzz_sts ("GetCallerIdentity", data + 1, size - 1);
      break;
    /* The sso part's cases (2 …) go here. */
    default:
      break;
    }
  return 0;
}
