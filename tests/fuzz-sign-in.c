/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the sign-in parsers of outside input (STS XML, IAM Identity Center JSON, token cache
 * files). Filled in by the sts and sso parts of issue 15. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "dyn-signin-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* ------------------------------------------------------------------------ */
/* IAM Identity Center (the sso part): 2 = a token cache file's text, 3 = a CreateToken answer,
 * 4 = a GetRoleCredentials answer, 5 = a ListAccounts (and ListAccountRoles) answer. Beyond
 * "never crash, never leak": a token read has its two required fields and its times print in
 * the CLI's format and read back the same; a refused file's message starts with the name it was
 * given and never holds the text; an accepted answer is an object, a refused one says which
 * operation it was. */

#include <string.h>

#include "dyn-error.h"
#include "dyn-sso-private.h"

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
  if (size > 0 && data[0] >= 2 && data[0] <= 5)
    return fuzz_sign_in_sso (data[0], data + 1, size - 1);
  return 0;
}
