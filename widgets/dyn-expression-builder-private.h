/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The text view of the expression text (for tests that type into it). */
GtkWidget    *_dyn_expression_builder_get_text_view (GtkWidget *builder);

G_END_DECLS
