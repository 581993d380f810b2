/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-design.h"
#include "dyn-snippet.h"

G_BEGIN_DECLS

/*
 * The Design view: a model's entities (a list; the selected one edited in
 * place: name, id, parent, attributes with their types), its key plan as a
 * table (entity × the table's and the indexes' key attributes, each cell a
 * template) with the draft's decisions and their sentence of why, the
 * access patterns (operation, index, key condition, placeholder maps, the
 * builder's snippets), the example items stacked per item collection, and
 * the last check's results with its cost line and findings.
 *
 * Every edit drafts the plan again at once (dyn_design_draft() is cheap)
 * and emits "changed". Opening, saving, checking and "Open in Table" are
 * the window's: the buttons activate win.design-new, win.design-open,
 * win.design-save, win.design-check, win.design-cancel-check and
 * win.design-open-table.
 */

#define DYN_TYPE_DESIGN_VIEW (dyn_design_view_get_type ())
G_DECLARE_FINAL_TYPE (DynDesignView, dyn_design_view, DYN, DESIGN_VIEW, AdwBin)

GtkWidget            *dyn_design_view_new              (void);

/* Takes @model (NULL: none; the empty page); drafts it. */
void                  dyn_design_view_set_model        (DynDesignView  *self,
                                                        DynDesignModel *model);
/* The model as edited (borrowed), or NULL. */
DynDesignModel       *dyn_design_view_get_model        (DynDesignView  *self);
/* Call after changing the model from outside: drafts again. */
void                  dyn_design_view_model_changed    (DynDesignView  *self);
/* The plan of the last draft that succeeded (borrowed), or NULL; the
 * draft's error when the model as edited does not draft. */
const DynDesignPlan  *dyn_design_view_get_plan         (DynDesignView  *self);
const GError         *dyn_design_view_get_draft_error  (DynDesignView  *self);
/* The example items shown (DynValue maps), or NULL. */
GPtrArray            *dyn_design_view_get_examples     (DynDesignView  *self);
/* How many times the plan was drafted (each edit drafts once). */
guint                 dyn_design_view_get_n_drafts     (DynDesignView  *self);

/* The page shown: "plan", "patterns", "examples" or "check". */
void                  dyn_design_view_set_page         (DynDesignView  *self,
                                                        const char     *page);
const char           *dyn_design_view_get_page         (DynDesignView  *self);

/* The entity edited (selects its row), by name. */
gboolean              dyn_design_view_select_entity    (DynDesignView  *self,
                                                        const char     *name);
const char           *dyn_design_view_get_selected_entity (DynDesignView *self);
/* The editor's fields of the selected entity: its name, its id (the
 * attribute names, comma-separated), and attribute @i's name. */
GtkEditable          *dyn_design_view_get_name_editable (DynDesignView *self);
GtkEditable          *dyn_design_view_get_id_editable  (DynDesignView  *self);
GtkEditable          *dyn_design_view_get_attribute_editable (DynDesignView *self,
                                                              guint          i);

/* The widgets the plan, the patterns, the examples and the check results
 * are drawn into (the tests read their labels). */
GtkWidget            *dyn_design_view_get_plan_widget     (DynDesignView *self);
GtkWidget            *dyn_design_view_get_patterns_widget (DynDesignView *self);
GtkWidget            *dyn_design_view_get_examples_widget (DynDesignView *self);
GtkWidget            *dyn_design_view_get_check_widget    (DynDesignView *self);
/* The text in the plan's cell of @entity and key @attribute, or NULL. */
const char           *dyn_design_view_get_plan_cell    (DynDesignView  *self,
                                                        const char     *entity,
                                                        const char     *attribute);

/* Snippets: the language, the endpoint and region written into them. */
void                  dyn_design_view_set_snippet_language (DynDesignView      *self,
                                                            DynSnippetLanguage  lang);
DynSnippetLanguage    dyn_design_view_get_snippet_language (DynDesignView      *self);
void                  dyn_design_view_set_endpoint     (DynDesignView  *self,
                                                        const char     *endpoint,
                                                        const char     *region);
/* The snippet shown for pattern @i, or NULL. */
const char           *dyn_design_view_get_snippet      (DynDesignView  *self,
                                                        guint           i);

/* The check. The tables of the connection, offered as the table to check
 * against besides a scratch table; the one chosen (NULL: a scratch table). */
void                  dyn_design_view_set_tables       (DynDesignView      *self,
                                                        const char * const *tables);
const char           *dyn_design_view_get_check_table  (DynDesignView  *self);
void                  dyn_design_view_set_check_table  (DynDesignView  *self,
                                                        const char     *table);
/* While checking: the progress line (NULL: not checking). */
void                  dyn_design_view_set_progress     (DynDesignView  *self,
                                                        const char     *message);
const char           *dyn_design_view_get_progress     (DynDesignView  *self);
/* The report of the last check (taken; NULL clears), or an error. */
void                  dyn_design_view_set_report       (DynDesignView        *self,
                                                        DynDesignCheckReport *report);
void                  dyn_design_view_set_check_error  (DynDesignView  *self,
                                                        const char     *message);
const DynDesignCheckReport *dyn_design_view_get_report (DynDesignView  *self);
/* The one-line summary of the check shown (requests, RCU, WCU …), or NULL. */
const char           *dyn_design_view_get_cost_text    (DynDesignView  *self);

G_END_DECLS
