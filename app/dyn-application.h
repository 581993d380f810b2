/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-window.h"

G_BEGIN_DECLS

#define DYN_TYPE_APPLICATION (dyn_application_get_type ())
G_DECLARE_FINAL_TYPE (DynApplication, dyn_application, DYN, APPLICATION, AdwApplication)

DynApplication     *dyn_application_new       (GApplicationFlags flags);
/* The connections (AWS profiles and the user's), loaded at startup. */
DynConnectionStore *dyn_application_get_store (DynApplication *self);
/* A new main window. */
DynWindow          *dyn_application_new_window (DynApplication *self);

G_END_DECLS
