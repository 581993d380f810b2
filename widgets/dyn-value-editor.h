/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-value.h"

G_BEGIN_DECLS

#define DYN_TYPE_VALUE_EDITOR (dyn_value_editor_get_type ())
G_DECLARE_FINAL_TYPE (DynValueEditor, dyn_value_editor, DYN, VALUE_EDITOR, AdwBin)

GtkWidget    *dyn_value_editor_new            (void);
DynValueType  dyn_value_editor_get_value_type (DynValueEditor  *self);
void          dyn_value_editor_set_value_type (DynValueEditor  *self,
                                               DynValueType     type);
const char   *dyn_value_editor_get_text       (DynValueEditor  *self);
void          dyn_value_editor_set_text       (DynValueEditor  *self,
                                               const char      *text);
gboolean      dyn_value_editor_get_list_mode  (DynValueEditor  *self);
void          dyn_value_editor_set_list_mode  (DynValueEditor  *self,
                                               gboolean         list_mode);
gboolean      dyn_value_editor_get_type_locked (DynValueEditor *self);
void          dyn_value_editor_set_type_locked (DynValueEditor *self,
                                                gboolean        locked);
/* Whether the user picked the type (then suggestions leave it alone). */
gboolean      dyn_value_editor_get_type_chosen (DynValueEditor *self);
gboolean      dyn_value_editor_is_empty       (DynValueEditor  *self);
/* The value typed, or NULL with DYN_ERROR_INVALID_VALUE (the entry shows it). */
DynValue     *dyn_value_editor_dup_value      (DynValueEditor  *self,
                                               GError         **error) G_GNUC_WARN_UNUSED_RESULT;
/* In list mode: the values of the comma-separated literals. */
GPtrArray    *dyn_value_editor_dup_values     (DynValueEditor  *self,
                                               GError         **error) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_value_editor_set_value      (DynValueEditor  *self,
                                               const DynValue  *value);
void          dyn_value_editor_set_values     (DynValueEditor  *self,
                                               GPtrArray       *values);
GtkWidget    *dyn_value_editor_get_entry      (DynValueEditor  *self);

G_END_DECLS
