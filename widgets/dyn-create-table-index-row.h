/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-expr.h"

G_BEGIN_DECLS

/* One secondary index of the Create Table dialog (and of Add Index): its
 * name, key attributes (a GSI: up to four partition and four sort
 * attributes; an LSI: its sort key) and projection, with the problem the
 * dialog found in it. Its value is the admin API's text form of the index
 * (dyn_table_spec_add_gsi() / _add_lsi() / dyn_table_add_gsi_params()). */

#define DYN_TYPE_CREATE_TABLE_INDEX_ROW (dyn_create_table_index_row_get_type ())
G_DECLARE_FINAL_TYPE (DynCreateTableIndexRow, dyn_create_table_index_row, DYN, CREATE_TABLE_INDEX_ROW, GtkBox)

/* @kind: DYN_INDEX_GLOBAL or DYN_INDEX_LOCAL; @removable: with a Remove button. */
GtkWidget   *dyn_create_table_index_row_new            (DynIndexKind            kind,
                                                        gboolean                removable);
DynIndexKind dyn_create_table_index_row_get_kind       (DynCreateTableIndexRow *self);
/* "NAME:PK:TYPE[+PK2:TYPE…][:SK:TYPE[+…]]:PROJECTION" (GSI) or
 * "NAME:SK:TYPE:PROJECTION" (LSI). */
char        *dyn_create_table_index_row_dup_text       (DynCreateTableIndexRow *self) G_GNUC_WARN_UNUSED_RESULT;
const char  *dyn_create_table_index_row_get_name       (DynCreateTableIndexRow *self);
/* @message: (nullable): shown below the index */
void         dyn_create_table_index_row_set_error      (DynCreateTableIndexRow *self,
                                                        const char             *message);
const char  *dyn_create_table_index_row_get_error      (DynCreateTableIndexRow *self);

/* Filling it in (as the user would; each emits "changed"). */
void         dyn_create_table_index_row_set_name       (DynCreateTableIndexRow *self,
                                                        const char             *name);
/* Adds a key attribute (for an LSI @is_sort must be TRUE and sets its one
 * sort key); FALSE when the key has four of that kind. */
gboolean     dyn_create_table_index_row_add_attribute  (DynCreateTableIndexRow *self,
                                                        gboolean                is_sort,
                                                        const char             *name,
                                                        DynValueType            type);
/* @attributes: (nullable): INCLUDE's, comma-separated */
void         dyn_create_table_index_row_set_projection (DynCreateTableIndexRow *self,
                                                        DynProjectionType       projection,
                                                        const char             *attributes);

/* The type dropdown's model and mapping, shared with the dialog. */
GListModel  *_dyn_key_type_model_new                   (void);
DynValueType _dyn_key_type_from_position               (guint                   position);
guint        _dyn_key_type_to_position                 (DynValueType            type);
const char  *_dyn_key_type_code                        (DynValueType            type);

G_END_DECLS
