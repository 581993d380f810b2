/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-connection.h"

G_BEGIN_DECLS

#define DYN_TYPE_CONNECTION_SIDEBAR (dyn_connection_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (DynConnectionSidebar, dyn_connection_sidebar, DYN, CONNECTION_SIDEBAR, AdwBin)

GtkWidget      *dyn_connection_sidebar_new              (void);
/* A GListModel of DynConnection. */
void            dyn_connection_sidebar_set_connections  (DynConnectionSidebar *self,
                                                         GListModel           *connections);
/* The tables of @connection (all pages of ListTables), shown under it. */
void            dyn_connection_sidebar_set_tables       (DynConnectionSidebar *self,
                                                         DynConnection        *connection,
                                                         const char * const   *tables);
/* A short note under a connection: "Loading…", an error; NULL clears it. */
void            dyn_connection_sidebar_set_status       (DynConnectionSidebar *self,
                                                         DynConnection        *connection,
                                                         const char           *status);
void            dyn_connection_sidebar_set_expanded     (DynConnectionSidebar *self,
                                                         DynConnection        *connection,
                                                         gboolean              expanded);
/* Filters the tables (a substring, case-insensitive). */
void            dyn_connection_sidebar_set_filter       (DynConnectionSidebar *self,
                                                         const char           *text);
/* The tables of @connection as shown (after filtering). */
GListModel     *dyn_connection_sidebar_get_tables       (DynConnectionSidebar *self,
                                                         DynConnection        *connection);
void            dyn_connection_sidebar_focus_filter     (DynConnectionSidebar *self);
/* The filter's entry: Enter in it opens the only table that matches. */
GtkEditable    *dyn_connection_sidebar_get_filter_entry (DynConnectionSidebar *self);
/* The rows (GtkTreeListRow of DynConnection or GtkStringObject). */
GListModel     *dyn_connection_sidebar_get_rows         (DynConnectionSidebar *self);

G_END_DECLS
