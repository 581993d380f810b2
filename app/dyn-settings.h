/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The application's settings (schema APPLICATION_ID). When the schema is not
 * installed — a build tree started outside `meson devenv` — it warns once and
 * returns settings on the schema compiled into the program, kept in memory:
 * the defaults, shared by every caller, saved nowhere. NULL only if even that
 * schema cannot be read. */
GSettings *dyn_settings_new (void) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
