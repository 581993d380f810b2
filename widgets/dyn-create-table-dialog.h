/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-create-table-index-row.h"
#include "dyn-table-admin.h"

G_BEGIN_DECLS

/* The Create Table dialog: name and keys, GSIs (multi-attribute keys) and
 * LSIs with their projections, capacity, TTL, table class and deletion
 * protection. Every edit turns the fields into a DynTableSpec with the admin
 * API's parsers and rules; the CreateTable request is shown live (copyable)
 * and each problem beside its field, with Create insensitive until there is
 * none. "create" is emitted on Create; the window sends the spec. */

#define DYN_TYPE_CREATE_TABLE_DIALOG (dyn_create_table_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynCreateTableDialog, dyn_create_table_dialog, DYN, CREATE_TABLE_DIALOG, AdwWindow)

GtkWidget    *dyn_create_table_dialog_new          (void);
/* The spec of the fields, or NULL with the first problem. */
DynTableSpec *dyn_create_table_dialog_dup_spec     (DynCreateTableDialog *self,
                                                    GError              **error) G_GNUC_WARN_UNUSED_RESULT;
/* The CreateTable JSON shown (NULL while the fields have a problem). */
const char   *dyn_create_table_dialog_get_json     (DynCreateTableDialog *self);
/* The problems shown, one a line ("" when none). */
char         *dyn_create_table_dialog_dup_problems (DynCreateTableDialog *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean      dyn_create_table_dialog_get_valid    (DynCreateTableDialog *self);
GtkWidget    *dyn_create_table_dialog_get_create_button (DynCreateTableDialog *self);
/* While the table is created: spinner, fields and Create insensitive. */
void          dyn_create_table_dialog_set_busy     (DynCreateTableDialog *self,
                                                    gboolean              busy);
/* What the server said (nullable). */
void          dyn_create_table_dialog_set_server_error (DynCreateTableDialog *self,
                                                        const char           *message);

/* Filling it in (as the user would). */
void          dyn_create_table_dialog_set_table    (DynCreateTableDialog *self,
                                                    const char           *name,
                                                    const char           *partition_key,
                                                    DynValueType          partition_type,
                                                    const char           *sort_key,
                                                    DynValueType          sort_type);
DynCreateTableIndexRow *dyn_create_table_dialog_add_index (DynCreateTableDialog *self,
                                                           DynIndexKind          kind);
void          dyn_create_table_dialog_remove_index (DynCreateTableDialog   *self,
                                                    DynCreateTableIndexRow *row);
void          dyn_create_table_dialog_set_billing  (DynCreateTableDialog *self,
                                                    DynBilling            billing,
                                                    guint                 read_units,
                                                    guint                 write_units);
void          dyn_create_table_dialog_set_ttl_attribute (DynCreateTableDialog *self,
                                                         const char           *attribute);
void          dyn_create_table_dialog_set_infrequent_access (DynCreateTableDialog *self,
                                                             gboolean              infrequent);
void          dyn_create_table_dialog_set_deletion_protection (DynCreateTableDialog *self,
                                                               gboolean              protect);

G_END_DECLS
