/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "dyn-window.h"

G_BEGIN_DECLS

/* Helpers of the UI tests (GTK; dyn-test-util.h is GLib only). */

/* Renders @window into a PNG at @path: what is on screen, drawn with the
 * window's renderer. G_IO_ERROR_PENDING when nothing is drawn yet (a frame in
 * the middle of a relayout). */
gboolean        dyn_window_save_png          (GtkWindow          *window,
                                              const char         *path,
                                              GError            **error);

/* Sets up a UI test program against the test servers: dyn_test_init(), a
 * private HOME and XDG_CONFIG_HOME, the test keys and no AWS files, no
 * session bus, GTK and libadwaita. Returns the temporary home (free it), or
 * NULL after printing a TAP skip when there is no display. */
char           *dyn_test_window_init         (int                *argc,
                                              char             ***argv,
                                              const char         *name) G_GNUC_WARN_UNUSED_RESULT;

/* Runs the main loop until nothing is pending. */
void            dyn_test_iterate             (void);
/* Runs the main loop for ~150 ms: animations, idle handlers and redraws. */
void            dyn_test_settle              (void);
/* Saves @window as @name into $DYN_SCREENSHOT_DIR, else
 * $G_TEST_BUILDDIR/screenshots (or @fallback_dir/screenshots), retrying
 * until it has been drawn; asserts that it was saved. */
void            dyn_test_window_screenshot   (GtkWindow          *window,
                                              const char         *name,
                                              const char         *fallback_dir);
/* Runs the main loop until @window is idle (reads and commits), 30 s at most. */
void            dyn_test_wait_idle           (DynWindow          *window);
/* Ends a test's window: destroys it (if @destroy), drops the test's
 * reference, lets pending requests see the cancellation and let go, and
 * asserts the window was finalized. */
void            dyn_test_window_finalize     (DynWindow          *window,
                                              gboolean            destroy);

G_END_DECLS
