/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DYN_RESERVED_WORD_COUNT 573

/* Whether @word is one of DynamoDB's reserved words (compared without regard
 * to ASCII case). Such names must be written through a #name placeholder. */
gboolean            dyn_reserved_word_is_reserved (const char *word);

/* The reserved words, upper case and sorted (strcmp order). */
const char * const *dyn_reserved_words_get        (guint *n_words);

G_END_DECLS
