/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-staged-changes"
#include "config.h"

#include <glib/gi18n.h>

#include "dyn-lifetime.h"
#include "dyn-staged-changes.h"
#include "dyn-widgets-resources.h"

/* What one row of the list shows, for the accessors. */
typedef struct {
  guint     n_diff_rows;
  GtkLabel *guard_label;
} RowInfo;

struct _DynStagedChanges
{
  AdwBin           parent_instance;

  DynEditSession  *session;
  GCancellable    *cancellable;
  GArray          *rows;            /* RowInfo */
  DynConflictView *conflict_view;   /* while its window is open */
  GtkWindow       *conflict_window;
  char            *status_text;
  gboolean         syncing_guard;   /* while the dropdown follows the session */

  GtkLabel        *title_label;
  GtkWidget       *undo_button;
  GtkButton       *commit_button;
  GtkWidget       *read_only_label;
  GtkDropDown     *guard_dropdown;
  GtkEditable     *version_entry;
  GtkLabel        *status_label;
  GtkStack        *stack;
  GtkListBox      *list_box;
};

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

enum {
  SIGNAL_COMMITTED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynStagedChanges, dyn_staged_changes, ADW_TYPE_BIN)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_status (DynStagedChanges *self,
            const char       *text,
            const char       *css_class)
{
  g_free (self->status_text);
  self->status_text = g_strdup (text ? text : "");
  gtk_label_set_text (self->status_label, self->status_text);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "warning");
  if (css_class != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), css_class);
}

static void
kind_label (DynChangeKind  kind,
            const char   **text,
            const char   **css_class)
{
  switch (kind)
    {
    case DYN_CHANGE_KIND_CREATE:
      *text = _("Create");
      *css_class = "success";
      break;
    case DYN_CHANGE_KIND_UPDATE:
      *text = _("Update");
      *css_class = "accent";
      break;
    case DYN_CHANGE_KIND_DELETE:
      *text = _("Delete");
      *css_class = "error";
      break;
    case DYN_CHANGE_KIND_KEY_CHANGE:
      *text = _("Key Change");
      *css_class = "warning";
      break;
    case DYN_CHANGE_KIND_NONE:
    default:
      *text = _("No Change");
      *css_class = "dim-label";
      break;
    }
}

static GtkWidget *
cell_label (const char *markup,
            const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 8);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* At most this many attribute rows per change; the rest are counted. */
#define MAX_DIFF_ROWS 16

static GtkWidget *
build_diff (DynStagedChanges *self,
            guint             index,
            guint            *n_rows)
{
  g_autoptr(GPtrArray) diff = dyn_edit_session_diff (self->session, index);
  GtkWidget *grid = gtk_grid_new ();
  guint shown = MIN (diff->len, MAX_DIFF_ROWS);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 3);
  gtk_grid_set_column_homogeneous (GTK_GRID (grid), FALSE);
  gtk_grid_attach (GTK_GRID (grid), cell_label (_("Attribute"), "caption-heading"), 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), cell_label (_("Before"), "caption-heading"), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), cell_label (_("After"), "caption-heading"), 2, 0, 1, 1);

  for (guint i = 0; i < shown; i++)
    {
      DynDiffEntry *entry = diff->pdata[i];
      g_autofree char *name = g_markup_escape_text (entry->name, -1);
      g_autofree char *before = dyn_edit_session_format_value (entry->before);
      g_autofree char *after = dyn_edit_session_format_value (entry->after);
      g_autofree char *before_markup = NULL;
      gboolean gone = entry->kind == DYN_DIFF_CHANGED || entry->kind == DYN_DIFF_REMOVED;
      gboolean came = entry->kind == DYN_DIFF_CHANGED || entry->kind == DYN_DIFF_ADDED;
      GtkWidget *name_label;

      before_markup = gone ? g_strdup_printf ("<s>%s</s>", before) : g_strdup (before);
      name_label = cell_label (name, entry->is_key ? "dim-label" : NULL);
      gtk_widget_add_css_class (name_label, "monospace");
      gtk_grid_attach (GTK_GRID (grid), name_label, 0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_label (before_markup, gone ? "error" : "dim-label"), 1, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell_label (after, came ? "success" : "dim-label"), 2, i + 1, 1, 1);
    }
  if (diff->len > shown)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more attribute",
                                                            "… and %u more attributes", diff->len - shown),
                                               diff->len - shown);
      gtk_grid_attach (GTK_GRID (grid), cell_label (more, "dim-label"), 0, shown + 1, 3, 1);
    }
  *n_rows = shown;
  return grid;
}

static GtkWidget *
build_row (DynStagedChanges *self,
           guint             index,
           RowInfo          *info)
{
  DynChangeStatus status = dyn_edit_session_get_status (self->session, index);
  g_autofree char *title = dyn_edit_session_dup_title (self->session, index);
  g_autofree char *guard_kind = NULL;
  g_autofree char *guard = NULL;
  g_autofree char *guard_text = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *row, *box, *header, *label, *button, *guard_box, *icon;
  const char *kind_text, *kind_css;

  row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 10);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_box_append (GTK_BOX (box), header);
  kind_label (dyn_edit_session_get_kind (self->session, index), &kind_text, &kind_css);
  label = gtk_label_new (kind_text);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, kind_css);
  gtk_box_append (GTK_BOX (header), label);
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (header), label);

  if (status == DYN_CHANGE_STATUS_CONFLICT)
    {
      label = gtk_label_new (_("Conflict"));
      gtk_widget_add_css_class (label, "error");
      gtk_widget_add_css_class (label, "caption-heading");
      gtk_box_append (GTK_BOX (header), label);
      button = gtk_button_new_with_mnemonic (_("_Resolve…"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "staged.resolve");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", index);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (header), button);
    }
  button = gtk_button_new_from_icon_name ("edit-clear-symbolic");
  gtk_widget_set_tooltip_text (button, _("Drop this change"));
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "staged.drop");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", index);
  gtk_box_append (GTK_BOX (header), button);

  if (status == DYN_CHANGE_STATUS_FAILED || status == DYN_CHANGE_STATUS_NOT_APPLIED)
    {
      const GError *change_error = dyn_edit_session_get_error (self->session, index);

      label = gtk_label_new (change_error ? change_error->message
                                          : _("Not applied: its transaction was cancelled by another change"));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "error");
      gtk_box_append (GTK_BOX (box), label);
    }

  /* The guard this write will use, before it is sent. */
  guard_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  icon = gtk_image_new_from_icon_name ("security-high-symbolic");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_add_css_class (icon, "dim-label");
  gtk_box_append (GTK_BOX (guard_box), icon);
  /* The plan's sentence says what guards the write, once. */
  guard = dyn_edit_session_describe_guard (self->session, index, &guard_kind, &error);
  if (guard != NULL)
    guard_text = g_strdup (guard);
  else
    guard_text = g_strdup_printf (_("Cannot be planned: %s"), error->message);
  label = gtk_label_new (guard_text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, guard ? "dim-label" : "error");
  gtk_box_append (GTK_BOX (guard_box), label);
  gtk_box_append (GTK_BOX (box), guard_box);
  info->guard_label = GTK_LABEL (label);

  gtk_box_append (GTK_BOX (box), build_diff (self, index, &info->n_diff_rows));
  return row;
}

/* The dropdown's positions, in the order of the .ui file. */
static const DynGuardMode guard_modes[] = { DYN_GUARD_CHANGES, DYN_GUARD_ITEM, DYN_GUARD_VERSION };

/* The guard choice shows the session's. */
static void
sync_guard (DynStagedChanges *self)
{
  DynGuardMode mode = self->session ? dyn_edit_session_get_guard_mode (self->session) : DYN_GUARD_CHANGES;
  const char *version = self->session ? dyn_edit_session_get_version_attribute (self->session) : NULL;

  self->syncing_guard = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (guard_modes); i++)
    if (guard_modes[i] == mode && gtk_drop_down_get_selected (self->guard_dropdown) != i)
      gtk_drop_down_set_selected (self->guard_dropdown, i);
  if (g_strcmp0 (gtk_editable_get_text (self->version_entry), version ? version : "") != 0)
    gtk_editable_set_text (self->version_entry, version ? version : "");
  gtk_widget_set_visible (GTK_WIDGET (self->version_entry), mode == DYN_GUARD_VERSION);
  gtk_widget_set_sensitive (GTK_WIDGET (self->guard_dropdown),
                            self->session != NULL && !dyn_edit_session_get_busy (self->session));
  self->syncing_guard = FALSE;
}

static void
set_guard_mode (DynStagedChanges *self,
                DynGuardMode      mode)
{
  if (self->session == NULL)
    return;
  if (mode == DYN_GUARD_VERSION)
    {
      const char *text = gtk_editable_get_text (self->version_entry);
      g_autofree char *name = g_strstrip (g_strdup (text ? text : ""));

      /* The name the entry holds, or the usual one. */
      dyn_edit_session_set_version_attribute (self->session, *name ? name : "version");
    }
  dyn_edit_session_set_guard_mode (self->session, mode);
}

static void
guard_selected_cb (DynStagedChanges *self)
{
  guint selected = gtk_drop_down_get_selected (self->guard_dropdown);

  if (self->syncing_guard || selected >= G_N_ELEMENTS (guard_modes))
    return;
  set_guard_mode (self, guard_modes[selected]);
}

static void
version_activate_cb (DynStagedChanges *self)
{
  if (!self->syncing_guard)
    set_guard_mode (self, DYN_GUARD_VERSION);
}

static void
guard_mode_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (widget);
  GEnumClass *klass = g_type_class_ref (DYN_TYPE_GUARD_MODE);
  GEnumValue *value = g_enum_get_value_by_nick (klass, g_variant_get_string (parameter, NULL));

  if (value != NULL)
    set_guard_mode (self, value->value);
  g_type_class_unref (klass);
}

static void
update (DynStagedChanges *self)
{
  GtkWidget *child;
  guint n = self->session ? dyn_edit_session_get_n_changes (self->session) : 0;
  gboolean read_only = self->session && dyn_edit_session_get_read_only (self->session);
  gboolean busy = self->session && dyn_edit_session_get_busy (self->session);
  g_autofree char *title = NULL;
  g_autofree char *commit = NULL;
  /* The rows are rebuilt: not with the focus in one (a Drop button). */
  gboolean refocus = dyn_widget_release_focus (GTK_WIDGET (self->list_box), NULL);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);
  g_array_set_size (self->rows, 0);
  for (guint i = 0; i < n; i++)
    {
      RowInfo info = { 0 };

      gtk_list_box_append (self->list_box, build_row (self, i, &info));
      g_array_append_val (self->rows, info);
    }
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "list" : "empty");
  if (refocus && n > 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->list_box));

  if (n > 0)
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Staged Change", "%u Staged Changes", n), n);
  else
    title = g_strdup (_("Staged Changes"));
  gtk_label_set_text (self->title_label, title);
  commit = n > 0 ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Commit %u Change", "_Commit %u Changes", n), n)
                 : g_strdup (_("_Commit"));
  gtk_button_set_label (self->commit_button, commit);

  sync_guard (self);
  gtk_widget_set_visible (self->read_only_label, read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "staged.commit", n > 0 && !read_only && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "staged.discard-all", n > 0 && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "staged.drop", n > 0 && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "staged.undo",
                                 self->session && dyn_edit_session_get_can_undo (self->session) && !read_only && !busy);
}

static void
conflict_window_destroy_cb (DynStagedChanges *self)
{
  self->conflict_view = NULL;
  self->conflict_window = NULL;
}

static void commit (DynStagedChanges *self);

static void
conflict_resolved_cb (DynStagedChanges *self,
                      gboolean          commit_again)
{
  if (commit_again)
    commit (self);
}

static void
open_conflict (DynStagedChanges *self,
               guint             index)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->conflict_window != NULL)
    gtk_window_destroy (self->conflict_window);
  self->conflict_view = DYN_CONFLICT_VIEW (dyn_conflict_view_new (self->session, index));
  g_signal_connect_object (self->conflict_view, "resolved", G_CALLBACK (conflict_resolved_cb), self,
                           G_CONNECT_SWAPPED);
  self->conflict_window = dyn_conflict_view_present_window (self->conflict_view,
                                                            GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
  g_signal_connect_object (self->conflict_window, "destroy", G_CALLBACK (conflict_window_destroy_cb), self,
                           G_CONNECT_SWAPPED);
}

static char *
summarize (DynCommitResult *result)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  guint applied = dyn_commit_result_get_n_applied (result);
  guint conflicts = dyn_commit_result_get_n_conflicts (result);
  guint failed = dyn_commit_result_get_n_failed (result);

  if (applied > 0 || (conflicts == 0 && failed == 0))
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u change written",
                                                          "%u changes written", applied), applied));
  if (conflicts > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "%u conflict: the item changed on the server",
                                                          "%u conflicts: the items changed on the server",
                                                          conflicts), conflicts));
  if (failed > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u change failed",
                                                          "%u changes failed", failed), failed));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

static void
commit_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(DynStagedChanges) self = user_data;
  g_autoptr(DynCommitResult) commit_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;

  commit_result = dyn_edit_session_commit_finish (DYN_EDIT_SESSION (source), result, &error);
  /* Cancelled (the production confirmation's Cancel, or the window closing): nothing was sent. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (self->status_label != NULL)
        set_status (self, _("Cancelled: nothing was written"), NULL);
      return;
    }
  if (commit_result == NULL)
    {
      set_status (self, error->message, "error");
      g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, NULL);
      return;
    }
  summary = summarize (commit_result);
  set_status (self, summary,
              dyn_commit_result_get_n_conflicts (commit_result) + dyn_commit_result_get_n_failed (commit_result) > 0
              ? "warning" : "success");
  g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, commit_result);

  if (self->session == DYN_EDIT_SESSION (source))
    for (guint i = 0; i < dyn_edit_session_get_n_changes (self->session); i++)
      if (dyn_edit_session_get_status (self->session, i) == DYN_CHANGE_STATUS_CONFLICT)
        {
          open_conflict (self, i);
          break;
        }
}

static void
commit (DynStagedChanges *self)
{
  if (self->session == NULL || dyn_edit_session_get_n_changes (self->session) == 0)
    return;
  set_status (self, _("Committing…"), NULL);
  dyn_edit_session_commit_async (self->session, self->cancellable, commit_cb, g_object_ref (self));
}

static void
commit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  commit (DYN_STAGED_CHANGES (widget));
}

static void
undo_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(DynStagedChanges) self = user_data;
  g_autoptr(DynCommitResult) undo_result = NULL;
  g_autoptr(GError) error = NULL;

  undo_result = dyn_edit_session_undo_finish (DYN_EDIT_SESSION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (self->status_label != NULL)
        set_status (self, _("Cancelled: nothing was written"), NULL);
      return;
    }
  if (undo_result == NULL)
    set_status (self, error->message, "error");
  else if (dyn_commit_result_get_n_applied (undo_result) == dyn_commit_result_get_n_changes (undo_result))
    set_status (self, _("The last commit was undone"), "success");
  else
    {
      guint missed = dyn_commit_result_get_n_changes (undo_result) - dyn_commit_result_get_n_applied (undo_result);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u change could not be undone: its item changed since the commit",
                                                            "%u changes could not be undone: their items changed since the commit",
                                                            missed), missed);
      set_status (self, text, "warning");
    }
  g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, undo_result);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (widget);

  if (self->session == NULL)
    return;
  set_status (self, _("Undoing the last commit…"), NULL);
  dyn_edit_session_undo_async (self->session, self->cancellable, undo_cb, g_object_ref (self));
}

static void
discard_all_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (widget);

  if (self->session != NULL)
    dyn_edit_session_discard_all (self->session);
  set_status (self, NULL, NULL);
}

static void
drop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (widget);
  guint index = g_variant_get_uint32 (parameter);

  if (self->session != NULL && index < dyn_edit_session_get_n_changes (self->session))
    dyn_edit_session_drop (self->session, index);
}

static void
resolve_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (widget);
  guint index = g_variant_get_uint32 (parameter);

  if (self->session != NULL && index < dyn_edit_session_get_n_changes (self->session) &&
      dyn_edit_session_get_status (self->session, index) == DYN_CHANGE_STATUS_CONFLICT)
    open_conflict (self, index);
}

static void
dyn_staged_changes_dispose (GObject *object)
{
  DynStagedChanges *self = (DynStagedChanges *) object;

  g_cancellable_cancel (self->cancellable);
  if (self->conflict_window != NULL)
    gtk_window_destroy (self->conflict_window);
  dyn_staged_changes_set_session (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_STAGED_CHANGES);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (dyn_staged_changes_parent_class)->dispose (object);
}

static void
dyn_staged_changes_finalize (GObject *object)
{
  DynStagedChanges *self = (DynStagedChanges *) object;

  g_clear_pointer (&self->rows, g_array_unref);
  g_free (self->status_text);
  G_OBJECT_CLASS (dyn_staged_changes_parent_class)->finalize (object);
}

static void
dyn_staged_changes_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_staged_changes_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  DynStagedChanges *self = DYN_STAGED_CHANGES (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      dyn_staged_changes_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_staged_changes_class_init (DynStagedChangesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_staged_changes_dispose;
  object_class->finalize = dyn_staged_changes_finalize;
  object_class->get_property = dyn_staged_changes_get_property;
  object_class->set_property = dyn_staged_changes_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, DYN_TYPE_EDIT_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_COMMITTED] =
    g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_COMMIT_RESULT);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-staged-changes.ui");
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, title_label);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, undo_button);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, commit_button);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, read_only_label);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, guard_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, version_entry);
  gtk_widget_class_bind_template_callback (widget_class, guard_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, version_activate_cb);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, stack);
  gtk_widget_class_bind_template_child (widget_class, DynStagedChanges, list_box);

  gtk_widget_class_install_action (widget_class, "staged.commit", NULL, commit_action);
  gtk_widget_class_install_action (widget_class, "staged.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "staged.discard-all", NULL, discard_all_action);
  gtk_widget_class_install_action (widget_class, "staged.drop", "u", drop_action);
  gtk_widget_class_install_action (widget_class, "staged.resolve", "u", resolve_action);
  gtk_widget_class_install_action (widget_class, "staged.guard-mode", "s", guard_mode_action);
}

static void
dyn_staged_changes_init (DynStagedChanges *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->rows = g_array_new (FALSE, TRUE, sizeof (RowInfo));
  update (self);
}

GtkWidget *
dyn_staged_changes_new (DynEditSession *session)
{
  g_return_val_if_fail (session == NULL || DYN_IS_EDIT_SESSION (session), NULL);

  return g_object_new (DYN_TYPE_STAGED_CHANGES, "session", session, NULL);
}

DynEditSession *
dyn_staged_changes_get_session (DynStagedChanges *self)
{
  g_return_val_if_fail (DYN_IS_STAGED_CHANGES (self), NULL);
  return self->session;
}

void
dyn_staged_changes_set_session (DynStagedChanges *self,
                                DynEditSession   *session)
{
  g_return_if_fail (DYN_IS_STAGED_CHANGES (self));
  g_return_if_fail (session == NULL || DYN_IS_EDIT_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      g_signal_connect_swapped (session, "changed", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::read-only", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::busy", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::can-undo", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::guard-mode", G_CALLBACK (sync_guard), self);
      g_signal_connect_swapped (session, "notify::version-attribute", G_CALLBACK (sync_guard), self);
    }
  if (self->rows != NULL)
    {
      set_status (self, NULL, NULL);
      update (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

DynConflictView *
dyn_staged_changes_get_conflict_view (DynStagedChanges *self)
{
  g_return_val_if_fail (DYN_IS_STAGED_CHANGES (self), NULL);
  return self->conflict_view;
}

const char *
dyn_staged_changes_get_status_text (DynStagedChanges *self)
{
  g_return_val_if_fail (DYN_IS_STAGED_CHANGES (self), NULL);
  return self->status_text ? self->status_text : "";
}

guint
dyn_staged_changes_get_n_diff_rows (DynStagedChanges *self,
                                    guint             index)
{
  g_return_val_if_fail (DYN_IS_STAGED_CHANGES (self), 0);
  g_return_val_if_fail (index < self->rows->len, 0);
  return g_array_index (self->rows, RowInfo, index).n_diff_rows;
}

const char *
dyn_staged_changes_get_guard_text (DynStagedChanges *self,
                                   guint             index)
{
  g_return_val_if_fail (DYN_IS_STAGED_CHANGES (self), NULL);
  g_return_val_if_fail (index < self->rows->len, NULL);
  return gtk_label_get_text (g_array_index (self->rows, RowInfo, index).guard_label);
}

GtkDropDown *
dyn_staged_changes_get_guard_dropdown (DynStagedChanges *self)
{
  g_return_val_if_fail (DYN_IS_STAGED_CHANGES (self), NULL);
  return self->guard_dropdown;
}
