/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "dyn-window-private.h"
