/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the sign-in parsers of outside input (STS XML, IAM Identity Center JSON, token cache
 * files). The first byte picks the parser, the rest is its input:
 *   0  the STS answer to AssumeRole (status from the second byte: 200, 400, 403, 500, 503, 429)
 *   1  the STS answer to GetCallerIdentity (likewise)
 *   2… the IAM Identity Center parsers (below) */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"
#include "dyn-sso-private.h"
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

/* ------------------------------------------------------------------------ */
/* IAM Identity Center (the sso part): 2 = a token cache file's text, 3 = a CreateToken answer,
 * 4 = a GetRoleCredentials answer, 5 = a ListAccounts (and ListAccountRoles) answer. Beyond
 * "never crash, never leak": a token read has its two required fields and its times print in
 * the CLI's format and read back the same; a refused file's message starts with the name it was
 * given and never holds the text; an accepted answer is an object, a refused one says which
 * operation it was. */


static void
fuzz_sso_time (GDateTime *time)
{
  g_autofree char *text = NULL;
  g_autoptr(GDateTime) back = NULL;

  if (time == NULL)
    return;
  text = _dyn_sso_format_timestamp (time);
  back = _dyn_sso_parse_timestamp (text);
  g_assert_nonnull (back);
  g_assert_cmpint (g_date_time_to_unix (back), ==, g_date_time_to_unix (time));
}

static void
fuzz_sso_answer (const char  *operation,
                 guint        status,
                 const char  *text,
                 gsize        length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = _dyn_sso_parse_response (operation, status, text, length, &error);

  if (node != NULL)
    {
      g_assert_true (status >= 200 && status < 300);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_assert_no_error (error);
      return;
    }
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, operation));
  if (status >= 200 && status < 300)
    g_assert_true (g_error_matches (error, DYN_ERROR, DYN_ERROR_PROTOCOL));
}

static int
fuzz_sign_in_sso (guint8         kind,
                  const uint8_t *data,
                  size_t         size)
{
  const char *text = (const char *) data;

  switch (kind)
    {
    case 2:
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(DynSsoToken) token = _dyn_sso_token_parse (text, size, "cache.json", &error);

        if (token != NULL)
          {
            g_assert_no_error (error);
            g_assert_nonnull (token->access_token);
            g_assert_nonnull (token->expires_at);
            fuzz_sso_time (token->expires_at);
            fuzz_sso_time (token->registration_expires_at);
          }
        else
          {
            g_assert_true (g_error_matches (error, DYN_ERROR, DYN_ERROR_CONFIG));
            g_assert_true (g_str_has_prefix (error->message, "cache.json"));
            if (size >= 12 && memchr (text, '"', size) != NULL && g_utf8_validate_len (text, size, NULL) && memchr (text, '\0', size) == NULL)
              {
                g_autofree char *copy = g_strndup (text, size);

                g_assert_null (strstr (error->message, copy));
              }
          }
        break;
      }
    case 3:
      fuzz_sso_answer ("CreateToken", 200, text, size);
      fuzz_sso_answer ("CreateToken", 400, text, size);
      break;
    case 4:
      fuzz_sso_answer ("GetRoleCredentials", 200, text, size);
      fuzz_sso_answer ("GetRoleCredentials", 401, text, size);
      break;
    case 5:
      fuzz_sso_answer ("ListAccounts", 200, text, size);
      fuzz_sso_answer ("ListAccountRoles", 200, text, size);
      break;
    default:
      break;
    }
  return 0;
}
/* (end of the sso part) */

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
    case 2: case 3: case 4: case 5:
      return fuzz_sign_in_sso (data[0], data + 1, size - 1);
    default:
      break;
    }
  return 0;
}
