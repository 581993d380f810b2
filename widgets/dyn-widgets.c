/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-widgets"

/* What every widget of the library shares: its GResource, and attribute-name
 * completion on path entries. */

#include "config.h"

#include "dyn-widgets-private.h"
#include "dyn-widgets-resources.h"

void
_dyn_widgets_ensure_resources (void)
{
  /* Referencing the resource links its object file (and the constructor
   * that registers it) into programs using the static library. */
  (void) dyn_widgets_get_resource ();
}

void
_dyn_widgets_setup_completion (GtkEntry     *entry,
                               GtkTreeModel *model)
{
  g_autoptr(GtkEntryCompletion) completion = gtk_entry_completion_new ();

  gtk_entry_completion_set_model (completion, model);
  gtk_entry_completion_set_text_column (completion, 0);
  gtk_entry_completion_set_inline_completion (completion, TRUE);
  gtk_entry_completion_set_popup_single_match (completion, FALSE);
  gtk_entry_completion_set_minimum_key_length (completion, 1);
  gtk_entry_set_completion (entry, completion);
}
