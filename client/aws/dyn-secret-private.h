/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* Overwrites the secret string @secret (may be %NULL) before freeing it, so
 * that a key or token does not linger in freed memory. */
static inline void
_dyn_secret_free (char *secret)
{
  if (secret != NULL)
    explicit_bzero (secret, strlen (secret));
  g_free (secret);
}

G_END_DECLS
