/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: the sign-in parsers of outside input (STS XML, IAM Identity Center JSON, token cache
 * files). Filled in by the sts and sso parts of issue 15. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "dyn-signin-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  return 0;
}
