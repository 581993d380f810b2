/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-table-details"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-lifetime.h"
#include "dyn-table-details.h"

struct _DynTableDetails
{
  AdwBin          parent_instance;

  GString        *text;
  DynTableInfo   *info;
  const DynTableInfo *shown;     /* info, or what dyn_table_details_show_info() gave */
  char           *ttl_entry_text;
  char           *job_title;
  char           *job_text;
  gboolean        have_count;
  DynCountResult  count;
  GDateTime      *count_time;
  char           *count_table;

  AdwPreferencesGroup *job_group;
  AdwActionRow   *job_row;
  GtkProgressBar *job_bar;
  GtkBox         *groups_box;
  GtkEditable    *ttl_entry;      /* in a group of groups_box, or NULL */
};

G_DEFINE_FINAL_TYPE (DynTableDetails, dyn_table_details, ADW_TYPE_BIN)

static void render (DynTableDetails *self);

enum {
  PROP_0,
  PROP_INFO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
format_count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

static char *
format_units (double units)
{
  return g_strdup_printf ("%'.1f", units);
}

static GtkWidget *
add_row (DynTableDetails      *self,
         AdwPreferencesGroup  *group,
         const char           *title,
         const char           *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  /* The value takes the room the title leaves, wrapping only when long. */
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
  g_string_append_printf (self->text, "%s: %s\n", title, value);
  return row;
}

/* A row saying what a button does (and costs), with the button. */
static GtkWidget *
add_button_row (DynTableDetails     *self,
                AdwPreferencesGroup *group,
                const char          *title,
                const char          *subtitle,
                const char          *label,
                const char          *action,
                GVariant            *target,
                const char          *style)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  if (target != NULL)
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  if (style != NULL)
    gtk_widget_add_css_class (button, style);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_preferences_group_add (group, row);
  g_string_append_printf (self->text, "%s: %s\n", title, subtitle ? subtitle : "");
  return row;
}

static AdwPreferencesGroup *
add_group (DynTableDetails *self,
           const char      *title,
           const char      *description)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
  gtk_box_append (self->groups_box, group);
  g_string_append_printf (self->text, "[%s]\n", title);
  if (description != NULL)
    g_string_append_printf (self->text, "%s\n", description);
  return ADW_PREFERENCES_GROUP (group);
}

static const char *
type_code (DynValueType type)
{
  return type == DYN_VALUE_N ? "N" : type == DYN_VALUE_B ? "B" : "S";
}

/* "tenant (S), region (S)" */
static char *
key_names (const DynKeySchema *keys,
           gboolean            sort)
{
  GString *out = g_string_new (NULL);
  guint n = sort ? dyn_key_schema_get_n_sort_keys (keys) : dyn_key_schema_get_n_partition_keys (keys);

  for (guint i = 0; i < n; i++)
    {
      DynValueType type = DYN_VALUE_S;
      const char *name = sort ? dyn_key_schema_get_sort_key (keys, i, &type)
                              : dyn_key_schema_get_partition_key (keys, i, &type);
      g_string_append_printf (out, "%s%s (%s)", i ? ", " : "", name, type_code (type));
    }
  return g_string_free (out, FALSE);
}

static void
add_key_rows (DynTableDetails     *self,
              AdwPreferencesGroup *group,
              const DynKeySchema  *keys)
{
  g_autofree char *partition = key_names (keys, FALSE);

  add_row (self, group,
           dyn_key_schema_get_n_partition_keys (keys) > 1 ? _("Partition key attributes") : _("Partition key"),
           partition);
  if (dyn_key_schema_get_n_sort_keys (keys) > 0)
    {
      g_autofree char *sort = key_names (keys, TRUE);
      add_row (self, group,
               dyn_key_schema_get_n_sort_keys (keys) > 1 ? _("Sort key attributes") : _("Sort key"),
               sort);
    }
}

static char *
billing_text (DynBilling billing,
              gint64     read_units,
              gint64     write_units)
{
  g_autofree char *r = NULL;
  g_autofree char *w = NULL;

  if (billing == DYN_BILLING_ON_DEMAND)
    return g_strdup (_("On demand"));
  r = g_strdup_printf ("%" G_GINT64_FORMAT, read_units);
  w = g_strdup_printf ("%" G_GINT64_FORMAT, write_units);
  return g_strdup_printf (_("Provisioned: %s RCU, %s WCU"), r, w);
}

static void
add_size_row (DynTableDetails     *self,
              AdwPreferencesGroup *group,
              gint64               size)
{
  g_autofree char *text = g_format_size_full (size, G_FORMAT_SIZE_LONG_FORMAT);
  add_row (self, group, _("Size"), text);
}

static void
add_count_rows (DynTableDetails     *self,
                AdwPreferencesGroup *group)
{
  const DynTableInfo *info = self->shown;
  g_autofree char *units = format_units (dyn_transfer_estimate_scan_rcu (info->size_bytes, FALSE));
  g_autofree char *size = g_format_size (info->size_bytes);
  /* Translators: "about 12.5 RCU (the table's 100 kB, eventually consistent reads)" */
  g_autofree char *cost = g_strdup_printf (_("A Select=COUNT scan of the whole table: about %s RCU (the table's %s, "
                                             "eventually consistent reads)"), units, size);

  add_button_row (self, group, _("Count exactly"), cost, _("Count _Exactly"), "win.count-exactly", NULL, NULL);
  if (self->have_count && g_strcmp0 (self->count_table, info->name) == 0)
    {
      g_autofree char *n = format_count (self->count.count);
      g_autofree char *value = g_strdup_printf (ngettext ("%s item", "%s items", self->count.count), n);
      g_autoptr(GDateTime) local = g_date_time_to_local (self->count_time);
      g_autofree char *when = g_date_time_format (local, "%X");
      g_autofree char *spent = format_units (self->count.read_units);
      g_autofree char *requests = format_count (self->count.requests);
      /* Translators: "counted at 14:02:11 · cost 12.5 RCU in 3 requests" */
      g_autofree char *subtitle = g_strdup_printf (ngettext ("counted at %s · cost %s RCU in %s request",
                                                                "counted at %s · cost %s RCU in %s requests",
                                                                self->count.requests),
                                                   when, spent, requests);
      GtkWidget *row = add_row (self, group, _("Exact count"), value);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      g_string_append_printf (self->text, "%s\n", subtitle);
    }
}

static void
add_table_group (DynTableDetails *self)
{
  const DynTableInfo *info = self->shown;
  AdwPreferencesGroup *group = add_group (self, info->name, _("Table"));
  g_autofree char *billing = billing_text (info->billing, info->read_units, info->write_units);
  g_autofree char *count = dyn_table_info_describe_count (info);

  add_key_rows (self, group, &info->keys->table.keys);
  if (info->status != NULL)
    add_row (self, group, _("Status"), info->status);
  add_row (self, group, _("Billing mode"), billing);
  add_row (self, group, _("Table class"),
           g_strcmp0 (info->table_class, "STANDARD_INFREQUENT_ACCESS") == 0 ? _("Standard-Infrequent Access")
                                                                           : _("Standard"));
  add_row (self, group, _("Deletion protection"), info->deletion_protection ? _("On") : _("Off"));
  add_size_row (self, group, info->size_bytes);
  add_row (self, group, _("Item count"), count);
  add_count_rows (self, group);
  if (info->created != NULL)
    {
      g_autoptr(GDateTime) local = g_date_time_to_local (info->created);
      g_autofree char *text = g_date_time_format (local, "%x %X");
      add_row (self, group, _("Created"), text);
    }
}

static void
ttl_entry_changed_cb (GtkEditable     *editable,
                      GParamSpec      *pspec,
                      DynTableDetails *self)
{
  g_free (self->ttl_entry_text);
  self->ttl_entry_text = g_strdup (gtk_editable_get_text (editable));
}

static void
add_ttl_group (DynTableDetails *self)
{
  const DynTableInfo *info = self->shown;
  AdwPreferencesGroup *group = add_group (self, _("Time to Live"),
                                          _("DynamoDB deletes items whose TTL attribute (a number of seconds since "
                                            "1970) is in the past, usually within a few days"));
  const char *status = info->ttl_status;

  if (status == NULL)
    {
      add_row (self, group, _("Status"), _("Not known"));
      return;
    }
  if (g_strcmp0 (status, "ENABLED") == 0 || g_strcmp0 (status, "ENABLING") == 0)
    {
      g_autofree char *text = g_strdup_printf ("%s (%s)", status, info->ttl_attribute ? info->ttl_attribute : "");
      add_row (self, group, _("Status"), text);
      if (g_strcmp0 (status, "ENABLED") == 0)
        add_button_row (self, group, _("Turn off"), _("Items are no longer deleted when they expire"),
                        _("_Disable"), "win.disable-ttl", NULL, NULL);
    }
  else
    {
      GtkWidget *row = adw_entry_row_new ();
      GtkWidget *button = gtk_button_new_with_mnemonic (_("_Enable"));

      add_row (self, group, _("Status"), status);
      if (g_strcmp0 (status, "DISABLED") != 0)
        return;
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("TTL attribute"));
      gtk_editable_set_text (GTK_EDITABLE (row), self->ttl_entry_text ? self->ttl_entry_text : "");
      g_signal_connect (row, "notify::text", G_CALLBACK (ttl_entry_changed_cb), self);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.enable-ttl");
      adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), button);
      adw_preferences_group_add (group, row);
      self->ttl_entry = GTK_EDITABLE (row);
    }
}

static void
add_index_group (DynTableDetails      *self,
                 const DynIndexStatus *index)
{
  gboolean global = index->kind == DYN_INDEX_GLOBAL;
  AdwPreferencesGroup *group = add_group (self, index->name,
                                          global ? _("Global secondary index") : _("Local secondary index"));
  g_autofree char *status = NULL;
  g_autofree char *projection = NULL;

  if (global)
    {
      GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");

      gtk_widget_set_tooltip_text (button, _("Delete Index…"));
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.delete-gsi");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (index->name));
      adw_preferences_group_set_header_suffix (group, button);
    }
  status = index->backfilling
             ? g_strdup_printf (_("%s · Backfilling (existing items are being added)"), index->status ? index->status : "")
             : g_strdup (index->status ? index->status : "ACTIVE");
  add_row (self, group, _("Status"), status);
  add_key_rows (self, group, &index->keys);
  /* DynamoDB's own names, as the console and the CLI show them. */
  if (index->projection == DYN_PROJECTION_INCLUDE)
    {
      g_autofree char *attributes = index->non_key_attributes ? g_strjoinv (", ", index->non_key_attributes) : g_strdup ("");
      projection = g_strdup_printf ("INCLUDE: %s", attributes);
    }
  else
    projection = g_strdup (index->projection == DYN_PROJECTION_KEYS_ONLY ? "KEYS_ONLY" : "ALL");
  add_row (self, group, _("Projection"), projection);
  {
    g_autofree char *n = format_count (index->item_count);
    g_autofree char *text = g_strdup_printf (_("About %s"), n);
    add_row (self, group, _("Item count"), text);
  }
  add_size_row (self, group, index->size_bytes);
  if (global && (index->read_units > 0 || index->write_units > 0))
    {
      g_autofree char *billing = billing_text (DYN_BILLING_PROVISIONED, index->read_units, index->write_units);
      add_row (self, group, _("Capacity"), billing);
    }
}

static void
add_indexes (DynTableDetails *self)
{
  const DynTableInfo *info = self->shown;
  guint n_global = 0, n_local = 0;
  g_autofree char *description = NULL;
  AdwPreferencesGroup *group;
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Add Index…"));

  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];
      if (index->kind == DYN_INDEX_GLOBAL)
        n_global++;
      else
        n_local++;
    }
  /* Translators: "2 global, 1 local" */
  description = g_strdup_printf (_("%u global, %u local"), n_global, n_local);
  group = add_group (self, _("Secondary Indexes"), description);
  gtk_widget_set_tooltip_text (button, _("Add a global secondary index (UpdateTable)"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.add-gsi");
  adw_preferences_group_set_header_suffix (group, button);
  for (guint i = 0; i < info->indexes->len; i++)
    add_index_group (self, info->indexes->pdata[i]);
}

static void
add_danger_group (DynTableDetails *self)
{
  const DynTableInfo *info = self->shown;
  AdwPreferencesGroup *group = add_group (self, _("Delete Items or the Table"), NULL);
  double rcu = 0, wcu = 0;
  g_autofree char *r = NULL;
  g_autofree char *w = NULL;
  g_autofree char *cost = NULL;

  dyn_transfer_estimate_truncate (MAX (info->item_count, 0), MAX (info->size_bytes, 0), &rcu, &wcu);
  r = format_units (rcu);
  w = format_units (wcu);
  /* Translators: the cost of deleting every item, from DescribeTable's count and size */
  cost = g_strdup_printf (_("Deletes every item, keeps the table: about %s RCU to scan the keys and %s WCU to "
                            "delete (from DescribeTable's count and size)"), r, w);
  add_button_row (self, group, _("Truncate"), cost, _("_Truncate…"), "win.truncate-table", NULL, "destructive-action");
  add_button_row (self, group, _("Delete table"), _("The table, its indexes and every item, after you type its name"),
                  _("_Delete Table…"), "win.delete-table", NULL, "destructive-action");
}

static void
render (DynTableDetails *self)
{
  GtkWidget *child;

  /* Not with the focus in a row that goes. */
  dyn_widget_release_focus (GTK_WIDGET (self->groups_box), NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->groups_box))) != NULL)
    gtk_box_remove (self->groups_box, child);
  self->ttl_entry = NULL;
  g_string_truncate (self->text, 0);
  if (self->shown == NULL)
    return;
  add_table_group (self);
  add_indexes (self);
  add_ttl_group (self);
  add_danger_group (self);
}

static void
dyn_table_details_finalize (GObject *object)
{
  DynTableDetails *self = DYN_TABLE_DETAILS (object);

  g_string_free (self->text, TRUE);
  g_clear_pointer (&self->info, dyn_table_info_free);
  g_free (self->ttl_entry_text);
  g_free (self->job_title);
  g_free (self->job_text);
  g_clear_pointer (&self->count_time, g_date_time_unref);
  g_free (self->count_table);

  G_OBJECT_CLASS (dyn_table_details_parent_class)->finalize (object);
}

static void
dyn_table_details_dispose (GObject *object)
{
  /* The template's top widget is the AdwBin child: let AdwBin drop it first. */
  adw_bin_set_child (ADW_BIN (object), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_TABLE_DETAILS);

  G_OBJECT_CLASS (dyn_table_details_parent_class)->dispose (object);
}

static void
dyn_table_details_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynTableDetails *self = DYN_TABLE_DETAILS (object);

  switch (prop_id)
    {
    case PROP_INFO:
      g_value_set_pointer (value, self->info);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_table_details_class_init (DynTableDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_table_details_dispose;
  object_class->finalize = dyn_table_details_finalize;
  object_class->get_property = dyn_table_details_get_property;

  /* The DynTableInfo shown (dyn_table_details_get_info()). */
  properties[PROP_INFO] =
    g_param_spec_pointer ("info", NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-table-details.ui");
  gtk_widget_class_bind_template_child (widget_class, DynTableDetails, job_group);
  gtk_widget_class_bind_template_child (widget_class, DynTableDetails, job_row);
  gtk_widget_class_bind_template_child (widget_class, DynTableDetails, job_bar);
  gtk_widget_class_bind_template_child (widget_class, DynTableDetails, groups_box);
}

static void
dyn_table_details_init (DynTableDetails *self)
{
  self->text = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyn_table_details_new (void)
{
  return g_object_new (DYN_TYPE_TABLE_DETAILS, NULL);
}

void
dyn_table_details_set_description (DynTableDetails *self,
                                   JsonObject      *table)
{
  g_autoptr(GError) error = NULL;
  DynTableInfo *info = NULL;

  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));

  if (table != NULL)
    {
      info = dyn_table_info_new_from_json (table, NULL, &error);
      if (info == NULL)
        g_warning ("DescribeTable: %s", error->message);
    }
  /* DescribeTable says nothing of TTL: what DescribeTimeToLive said stays. */
  if (info != NULL && self->info != NULL && g_strcmp0 (info->name, self->info->name) == 0 && info->ttl_status == NULL)
    {
      info->ttl_status = g_strdup (self->info->ttl_status);
      info->ttl_attribute = g_strdup (self->info->ttl_attribute);
    }
  dyn_table_details_set_info (self, info);
}

void
dyn_table_details_set_info (DynTableDetails *self,
                            DynTableInfo    *info)
{
  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));

  if (info == NULL || self->info == NULL || g_strcmp0 (info->name, self->info->name) != 0)
    g_clear_pointer (&self->ttl_entry_text, g_free);
  g_clear_pointer (&self->info, dyn_table_info_free);
  self->info = info;
  self->shown = info;
  render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INFO]);
}

void
dyn_table_details_show_info (DynTableDetails    *self,
                             const DynTableInfo *info)
{
  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));
  g_return_if_fail (info != NULL);

  self->shown = info;
  render (self);
  self->shown = self->info;
}

const DynTableInfo *
dyn_table_details_get_info (DynTableDetails *self)
{
  g_return_val_if_fail (DYN_IS_TABLE_DETAILS (self), NULL);
  return self->info;
}

void
dyn_table_details_set_job (DynTableDetails *self,
                           const char      *title,
                           const char      *text,
                           double           fraction)
{
  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));

  g_free (self->job_title);
  self->job_title = g_strdup (title);
  g_free (self->job_text);
  self->job_text = g_strdup (text);
  gtk_widget_set_visible (GTK_WIDGET (self->job_group), title != NULL);
  adw_preferences_group_set_title (self->job_group, title ? title : "");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->job_row), text ? text : "");
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->job_bar, CLAMP (fraction, 0, 1));
  else
    gtk_progress_bar_pulse (self->job_bar);
}

void
dyn_table_details_set_count (DynTableDetails      *self,
                             const DynCountResult *result,
                             GDateTime            *when)
{
  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));

  self->have_count = result != NULL;
  g_clear_pointer (&self->count_time, g_date_time_unref);
  g_clear_pointer (&self->count_table, g_free);
  if (result != NULL)
    {
      self->count = *result;
      self->count_time = when ? g_date_time_ref (when) : g_date_time_new_now_utc ();
      self->count_table = g_strdup (self->info ? self->info->name : NULL);
    }
  render (self);
}

const char *
dyn_table_details_get_ttl_entry (DynTableDetails *self)
{
  g_return_val_if_fail (DYN_IS_TABLE_DETAILS (self), NULL);
  return self->ttl_entry ? gtk_editable_get_text (self->ttl_entry) : NULL;
}

void
dyn_table_details_set_ttl_entry (DynTableDetails *self,
                                 const char      *attribute)
{
  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));

  g_free (self->ttl_entry_text);
  self->ttl_entry_text = g_strdup (attribute);
  if (self->ttl_entry != NULL)
    gtk_editable_set_text (self->ttl_entry, attribute ? attribute : "");
}

char *
dyn_table_details_dup_text (DynTableDetails *self)
{
  GString *out;

  g_return_val_if_fail (DYN_IS_TABLE_DETAILS (self), NULL);

  out = g_string_new (NULL);
  if (self->job_title != NULL)
    g_string_append_printf (out, "[%s]\n%s\n", self->job_title, self->job_text ? self->job_text : "");
  g_string_append (out, self->text->str);
  return g_string_free (out, FALSE);
}
