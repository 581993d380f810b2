/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define DYN_TYPE_TABLE_DETAILS (dyn_table_details_get_type ())
G_DECLARE_FINAL_TYPE (DynTableDetails, dyn_table_details, DYN, TABLE_DETAILS, AdwBin)

GtkWidget  *dyn_table_details_new             (void);
/* @table: (nullable): the "Table" object of DescribeTable */
void        dyn_table_details_set_description (DynTableDetails *self,
                                               JsonObject      *table);
/* The rows shown, as "title: value" lines (for tests and copying). */
char       *dyn_table_details_dup_text        (DynTableDetails *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
