/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-conflict-view"
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-conflict-view.h"
#include "dyn-widgets-resources.h"

typedef struct {
  GtkLabel        *cells[3];
  GtkToggleButton *server_button;
  GtkToggleButton *mine_button;
} Row;

struct _DynConflictView
{
  AdwBin          parent_instance;

  DynEditSession *session;
  DynChange      *change;      /* identifies the staged change */
  DynValue       *server;      /* nullable: gone */
  GPtrArray      *entries;     /* DynMergeEntry* */
  GHashTable     *rows;        /* name → Row* */
  DynValue       *merged;
  char           *guard_text;
  gboolean        updating;

  GtkLabel       *title_label;
  GtkLabel       *description_label;
  GtkGrid        *grid;
  GtkLabel       *guard_label;
  GtkWidget      *take_mine_button;
  GtkButton      *commit_button;
};

enum {
  PROP_0,
  PROP_MERGED_ITEM,
  N_PROPS
};

enum {
  SIGNAL_RESOLVED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynConflictView, dyn_conflict_view, ADW_TYPE_BIN)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static int
find_index (DynConflictView *self)
{
  for (guint i = 0; i < dyn_edit_session_get_n_changes (self->session); i++)
    if (dyn_edit_session_get_change (self->session, i) == self->change)
      return i;
  return -1;
}

static gboolean
is_delete (DynConflictView *self)
{
  return dyn_change_get_after (self->change) == NULL;
}

static void
update_merged (DynConflictView *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *guard = NULL;

  g_clear_pointer (&self->merged, dyn_value_unref);
  if (!is_delete (self))
    self->merged = dyn_merge_build (self->entries);

  if (self->server != NULL && self->merged != NULL && dyn_value_equal (self->server, self->merged))
    guard = g_strdup (_("The merged item equals the server’s: committing again writes nothing."));
  else
    {
      g_autofree char *preview = dyn_edit_session_preview_guard (self->session, self->server, self->merged, &error);

      /* The preview is the one sentence on the guard; this only says what
       * "as loaded" now means. */
      if (preview != NULL)
        guard = g_strdup_printf (_("The new write starts from the server’s item as it is now. %s"), preview);
      else
        guard = g_strdup_printf (_("This write cannot be planned: %s"), error->message);
    }
  g_free (self->guard_text);
  self->guard_text = g_steal_pointer (&guard);
  gtk_label_set_text (self->guard_label, self->guard_text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MERGED_ITEM]);
}

static void
set_side (DynConflictView *self,
          DynMergeEntry   *entry,
          DynMergeSide     side)
{
  Row *row = g_hash_table_lookup (self->rows, entry->name);

  entry->side = side;
  if (row != NULL && row->mine_button != NULL)
    {
      self->updating = TRUE;
      gtk_toggle_button_set_active (side == DYN_MERGE_MINE ? row->mine_button : row->server_button, TRUE);
      self->updating = FALSE;
    }
}

static void
side_toggled_cb (GtkToggleButton *button,
                 DynConflictView *self)
{
  DynMergeEntry *entry;

  if (self->updating || !gtk_toggle_button_get_active (button))
    return;
  entry = dyn_merge_lookup (self->entries, g_object_get_data (G_OBJECT (button), "attribute"));
  if (entry == NULL)
    return;
  entry->side = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "side"));
  update_merged (self);
}

static GtkLabel *
add_label (DynConflictView *self,
           const char      *markup,
           int              column,
           int              row,
           const char      *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_grid_attach (self->grid, label, column, row, 1, 1);
  return GTK_LABEL (label);
}

static GtkToggleButton *
add_side_button (const char    *label,
                 DynMergeEntry *entry,
                 DynMergeSide   side,
                 DynConflictView *self)
{
  GtkWidget *button = gtk_toggle_button_new_with_label (label);

  g_object_set_data_full (G_OBJECT (button), "attribute", g_strdup (entry->name), g_free);
  g_object_set_data (G_OBJECT (button), "side", GINT_TO_POINTER (side));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), entry->side == side);
  g_signal_connect (button, "toggled", G_CALLBACK (side_toggled_cb), self);
  return GTK_TOGGLE_BUTTON (button);
}

static void
build_grid (DynConflictView *self)
{
  const char *headers[] = {
    N_("Attribute"), N_("Started From"), N_("Server Now"), N_("Yours"), N_("Keep"),
  };
  gboolean choices = !is_delete (self) && self->server != NULL;
  guint n_columns = choices ? 5 : 4;

  for (guint c = 0; c < n_columns; c++)
    add_label (self, _(headers[c]), c, 0, "caption-heading");

  for (guint i = 0; i < self->entries->len; i++)
    {
      DynMergeEntry *entry = self->entries->pdata[i];
      Row *row = g_new0 (Row, 1);
      DynValue *values[] = { entry->base, entry->server, entry->mine };
      gboolean changed[] = { FALSE, entry->server_changed, entry->mine_changed };
      g_autofree char *escaped = g_markup_escape_text (entry->name, -1);
      g_autofree char *name_markup = NULL;
      int r = i + 1;

      if (entry->conflict)
        name_markup = g_strdup_printf ("<b>%s</b>  ⚠", escaped);
      else if (entry->server_changed || entry->mine_changed)
        name_markup = g_strdup_printf ("<b>%s</b>", escaped);
      else
        name_markup = g_strdup (escaped);
      add_label (self, name_markup, 0, r,
                 entry->conflict ? "warning" : (entry->server_changed || entry->mine_changed) ? NULL : "dim-label");

      for (guint c = 0; c < 3; c++)
        {
          g_autofree char *markup = dyn_edit_session_format_value (values[c]);
          const char *css = NULL;

          if (c == DYN_CONFLICT_COLUMN_MINE && is_delete (self))
            {
              g_free (markup);
              markup = g_markup_printf_escaped ("<i>%s</i>", _("deleted"));
              css = "error";
            }
          else if (changed[c])
            css = c == DYN_CONFLICT_COLUMN_SERVER ? "warning" : "accent";
          else if (!entry->server_changed && !entry->mine_changed)
            css = "dim-label";
          row->cells[c] = add_label (self, markup, c + 1, r, css);
        }

      if (choices)
        {
          if (entry->is_key)
            add_label (self, _("key"), 4, r, "dim-label");
          else if (!entry->server_changed && !entry->mine_changed)
            add_label (self, _("same"), 4, r, "dim-label");
          else
            {
              GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

              gtk_widget_add_css_class (box, "linked");
              row->server_button = add_side_button (_("Server"), entry, DYN_MERGE_SERVER, self);
              row->mine_button = add_side_button (_("Mine"), entry, DYN_MERGE_MINE, self);
              gtk_toggle_button_set_group (row->mine_button, row->server_button);
              gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->server_button));
              gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->mine_button));
              gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
              gtk_grid_attach (self->grid, box, 4, r, 1, 1);
            }
        }
      g_hash_table_insert (self->rows, g_strdup (entry->name), row);
    }
}

static void
take_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynConflictView *self = DYN_CONFLICT_VIEW (widget);
  const char *name, *side;
  DynMergeEntry *entry;

  g_variant_get (parameter, "(&s&s)", &name, &side);
  entry = dyn_merge_lookup (self->entries, name);
  if (entry == NULL || entry->is_key)
    return;
  set_side (self, entry, strcmp (side, "mine") == 0 ? DYN_MERGE_MINE : DYN_MERGE_SERVER);
  update_merged (self);
}

static void
take_all_mine_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynConflictView *self = DYN_CONFLICT_VIEW (widget);

  for (guint i = 0; i < self->entries->len; i++)
    {
      DynMergeEntry *entry = self->entries->pdata[i];

      if (!entry->is_key)
        set_side (self, entry, DYN_MERGE_MINE);
    }
  update_merged (self);
}

static void
keep_server_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynConflictView *self = DYN_CONFLICT_VIEW (widget);
  int index = find_index (self);

  if (index >= 0)
    dyn_edit_session_keep_server (self->session, index);
  g_signal_emit (self, signals[SIGNAL_RESOLVED], 0, FALSE);
}

static void
commit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  DynConflictView *self = DYN_CONFLICT_VIEW (widget);
  g_autoptr(GError) error = NULL;
  int index = find_index (self);

  if (index < 0)
    {
      g_signal_emit (self, signals[SIGNAL_RESOLVED], 0, FALSE);
      return;
    }
  if (!dyn_edit_session_resolve_conflict (self->session, index, self->merged, &error))
    {
      gtk_label_set_text (self->description_label, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->description_label), "error");
      gtk_widget_error_bell (widget);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_RESOLVED], 0, TRUE);
}

static void
row_free (gpointer data)
{
  g_free (data);
}

static void
dyn_conflict_view_dispose (GObject *object)
{
  DynConflictView *self = (DynConflictView *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_CONFLICT_VIEW);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (dyn_conflict_view_parent_class)->dispose (object);
}

static void
dyn_conflict_view_finalize (GObject *object)
{
  DynConflictView *self = (DynConflictView *) object;

  g_clear_pointer (&self->change, dyn_change_unref);
  g_clear_pointer (&self->server, dyn_value_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_hash_table_unref);
  g_clear_pointer (&self->merged, dyn_value_unref);
  g_free (self->guard_text);
  G_OBJECT_CLASS (dyn_conflict_view_parent_class)->finalize (object);
}

static void
dyn_conflict_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynConflictView *self = DYN_CONFLICT_VIEW (object);

  switch (prop_id)
    {
    case PROP_MERGED_ITEM:
      g_value_set_boxed (value, self->merged);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_conflict_view_class_init (DynConflictViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_conflict_view_dispose;
  object_class->finalize = dyn_conflict_view_finalize;
  object_class->get_property = dyn_conflict_view_get_property;

  properties[PROP_MERGED_ITEM] =
    g_param_spec_boxed ("merged-item", NULL, NULL, DYN_TYPE_VALUE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_RESOLVED] =
    g_signal_new ("resolved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-conflict-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DynConflictView, title_label);
  gtk_widget_class_bind_template_child (widget_class, DynConflictView, description_label);
  gtk_widget_class_bind_template_child (widget_class, DynConflictView, grid);
  gtk_widget_class_bind_template_child (widget_class, DynConflictView, guard_label);
  gtk_widget_class_bind_template_child (widget_class, DynConflictView, take_mine_button);
  gtk_widget_class_bind_template_child (widget_class, DynConflictView, commit_button);

  gtk_widget_class_install_action (widget_class, "conflict.take", "(ss)", take_action);
  gtk_widget_class_install_action (widget_class, "conflict.take-all-mine", NULL, take_all_mine_action);
  gtk_widget_class_install_action (widget_class, "conflict.keep-server", NULL, keep_server_action);
  gtk_widget_class_install_action (widget_class, "conflict.commit", NULL, commit_action);
}

static void
dyn_conflict_view_init (DynConflictView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, row_free);
}

GtkWidget *
dyn_conflict_view_new (DynEditSession *session,
                       guint           index)
{
  DynConflictView *self;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  DynValue *server;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (session), NULL);
  g_return_val_if_fail (index < dyn_edit_session_get_n_changes (session), NULL);

  self = g_object_new (DYN_TYPE_CONFLICT_VIEW, NULL);
  self->session = g_object_ref (session);
  self->change = dyn_change_ref (dyn_edit_session_get_change (session, index));
  server = dyn_edit_session_get_current (session, index);
  self->server = server ? dyn_value_ref (server) : NULL;
  self->entries = dyn_merge_entries (dyn_change_get_before (self->change), self->server,
                                     dyn_change_get_after (self->change),
                                     dyn_edit_session_get_keys (session));

  title = dyn_edit_session_dup_title (session, index);
  if (self->server == NULL)
    {
      description = g_strdup_printf (_("%s was deleted on the server after you loaded it. Nothing was "
                                       "overwritten. Create it again with your values, or let it go."), title);
      gtk_button_set_label (self->commit_button, _("_Create Again"));
      gtk_widget_set_visible (self->take_mine_button, FALSE);
    }
  else if (is_delete (self))
    {
      description = g_strdup_printf (_("%s changed on the server after you loaded it, so it was not "
                                       "deleted. Delete it as it is now, or keep it."), title);
      gtk_button_set_label (self->commit_button, _("_Delete Anyway"));
      gtk_widget_set_visible (self->take_mine_button, FALSE);
    }
  else
    description = g_strdup_printf (_("%s changed on the server after you loaded it. Nothing was "
                                     "overwritten. Choose for each attribute or nested path what to "
                                     "keep, then commit again: only what you keep of yours is written."),
                                   title);
  gtk_label_set_text (self->description_label, description);

  build_grid (self);
  update_merged (self);
  return GTK_WIDGET (self);
}

guint
dyn_conflict_view_get_index (DynConflictView *self)
{
  g_return_val_if_fail (DYN_IS_CONFLICT_VIEW (self), 0);
  return MAX (find_index (self), 0);
}

DynValue *
dyn_conflict_view_get_merged_item (DynConflictView *self)
{
  g_return_val_if_fail (DYN_IS_CONFLICT_VIEW (self), NULL);
  return self->merged;
}

GPtrArray *
dyn_conflict_view_get_entries (DynConflictView *self)
{
  g_return_val_if_fail (DYN_IS_CONFLICT_VIEW (self), NULL);
  return self->entries;
}

const char *
dyn_conflict_view_get_cell_text (DynConflictView   *self,
                                 const char        *attribute,
                                 DynConflictColumn  column)
{
  Row *row;

  g_return_val_if_fail (DYN_IS_CONFLICT_VIEW (self), NULL);
  g_return_val_if_fail (column <= DYN_CONFLICT_COLUMN_MINE, NULL);

  row = g_hash_table_lookup (self->rows, attribute);
  return row && row->cells[column] ? gtk_label_get_text (row->cells[column]) : NULL;
}

const char *
dyn_conflict_view_get_guard_text (DynConflictView *self)
{
  g_return_val_if_fail (DYN_IS_CONFLICT_VIEW (self), NULL);
  return self->guard_text;
}

static void
window_resolved_cb (DynConflictView *self,
                    gboolean         commit,
                    GtkWindow       *window)
{
  gtk_window_destroy (window);
}

GtkWindow *
dyn_conflict_view_present_window (DynConflictView *self,
                                  GtkWindow       *parent)
{
  GtkWidget *window, *box, *header;

  g_return_val_if_fail (DYN_IS_CONFLICT_VIEW (self), NULL);

  window = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), _("Resolve Conflict"));
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 980, 560);
  if (parent != NULL)
    gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self));
  adw_window_set_content (ADW_WINDOW (window), box);
  g_signal_connect_object (self, "resolved", G_CALLBACK (window_resolved_cb), window, 0);
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}
