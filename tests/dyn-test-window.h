/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Helpers of the UI tests (GTK; dyn-test-util.h is GLib only). */

/* Renders @window into a PNG at @path: what is on screen, drawn with the
 * window's renderer. G_IO_ERROR_PENDING when nothing is drawn yet (a frame in
 * the middle of a relayout). */
gboolean        dyn_window_save_png          (GtkWindow          *window,
                                              const char         *path,
                                              GError            **error);

G_END_DECLS
