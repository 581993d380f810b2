/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-table-details"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-lifetime.h"
#include "dyn-table-details.h"

struct _DynTableDetails
{
  AdwBin   parent_instance;

  GString *text;

  GtkBox  *groups_box;
};

G_DEFINE_FINAL_TYPE (DynTableDetails, dyn_table_details, ADW_TYPE_BIN)

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
member_int (JsonObject *object,
            const char *name,
            gint64     *out)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  *out = json_node_get_int (node);
  return TRUE;
}

static void
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
  gtk_widget_add_css_class (label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
  g_string_append_printf (self->text, "%s: %s\n", title, value);
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
  return ADW_PREFERENCES_GROUP (group);
}

static const char *
attribute_type (JsonObject *table,
                const char *name)
{
  JsonArray *defs = json_object_has_member (table, "AttributeDefinitions")
                      ? json_object_get_array_member (table, "AttributeDefinitions") : NULL;

  for (guint i = 0; defs != NULL && i < json_array_get_length (defs); i++)
    {
      JsonObject *def = json_array_get_object_element (defs, i);
      if (g_strcmp0 (member_string (def, "AttributeName"), name) == 0)
        return member_string (def, "AttributeType");
    }
  return "?";
}

static void
add_key_rows (DynTableDetails     *self,
              AdwPreferencesGroup *group,
              JsonObject          *table,
              JsonObject          *owner)
{
  JsonArray *schema = json_object_has_member (owner, "KeySchema")
                        ? json_object_get_array_member (owner, "KeySchema") : NULL;

  for (guint i = 0; schema != NULL && i < json_array_get_length (schema); i++)
    {
      JsonObject *key = json_array_get_object_element (schema, i);
      const char *name = member_string (key, "AttributeName");
      g_autofree char *value = g_strdup_printf ("%s (%s)", name, attribute_type (table, name));

      add_row (self, group,
               g_strcmp0 (member_string (key, "KeyType"), "HASH") == 0 ? _("Partition key") : _("Sort key"),
               value);
    }
}

static void
add_counts (DynTableDetails     *self,
            AdwPreferencesGroup *group,
            JsonObject          *owner)
{
  gint64 count, size;

  if (member_int (owner, "ItemCount", &count))
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, count);
      add_row (self, group, _("Item count"), text);
    }
  if (member_int (owner, "TableSizeBytes", &size) || member_int (owner, "IndexSizeBytes", &size))
    {
      g_autofree char *text = g_format_size_full (size, G_FORMAT_SIZE_LONG_FORMAT);
      add_row (self, group, _("Size"), text);
    }
}

static void
add_indexes (DynTableDetails *self,
             JsonObject      *table,
             const char      *member,
             const char      *kind)
{
  JsonArray *indexes = json_object_has_member (table, member) ? json_object_get_array_member (table, member) : NULL;

  for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
    {
      JsonObject *index = json_array_get_object_element (indexes, i);
      JsonObject *projection = json_object_has_member (index, "Projection")
                                 ? json_object_get_object_member (index, "Projection") : NULL;
      const char *type = member_string (projection, "ProjectionType");
      AdwPreferencesGroup *group = add_group (self, member_string (index, "IndexName"), kind);
      g_autofree char *projected = NULL;

      add_key_rows (self, group, table, index);
      if (projection != NULL && json_object_has_member (projection, "NonKeyAttributes"))
        {
          JsonArray *attrs = json_object_get_array_member (projection, "NonKeyAttributes");
          GString *s = g_string_new (type);

          g_string_append (s, ": ");
          for (guint j = 0; j < json_array_get_length (attrs); j++)
            g_string_append_printf (s, "%s%s", j ? ", " : "", json_array_get_string_element (attrs, j));
          projected = g_string_free (s, FALSE);
        }
      add_row (self, group, _("Projection"), projected ? projected : type ? type : "ALL");
      add_counts (self, group, index);
    }
}

static void
dyn_table_details_finalize (GObject *object)
{
  DynTableDetails *self = DYN_TABLE_DETAILS (object);

  g_string_free (self->text, TRUE);

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
dyn_table_details_class_init (DynTableDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_table_details_dispose;
  object_class->finalize = dyn_table_details_finalize;

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-table-details.ui");
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
  GtkWidget *child;
  AdwPreferencesGroup *group;
  JsonObject *billing;
  const char *mode = NULL;

  g_return_if_fail (DYN_IS_TABLE_DETAILS (self));

  /* Not with the focus in a row that goes. */
  dyn_widget_release_focus (GTK_WIDGET (self->groups_box), NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->groups_box))) != NULL)
    gtk_box_remove (self->groups_box, child);
  g_string_truncate (self->text, 0);
  if (table == NULL)
    return;

  group = add_group (self, member_string (table, "TableName"), _("Table"));
  add_key_rows (self, group, table, table);
  add_counts (self, group, table);
  billing = json_object_has_member (table, "BillingModeSummary")
              ? json_object_get_object_member (table, "BillingModeSummary") : NULL;
  mode = member_string (billing, "BillingMode");
  if (g_strcmp0 (mode, "PAY_PER_REQUEST") == 0)
    add_row (self, group, _("Billing mode"), _("On demand"));
  else
    {
      JsonObject *throughput = json_object_has_member (table, "ProvisionedThroughput")
                                 ? json_object_get_object_member (table, "ProvisionedThroughput") : NULL;
      gint64 rcu = 0, wcu = 0;
      g_autofree char *text = NULL;

      member_int (throughput, "ReadCapacityUnits", &rcu);
      member_int (throughput, "WriteCapacityUnits", &wcu);
      /* DynamoDB Local reports no summary for on-demand tables, only 0/0. */
      if (mode == NULL && rcu == 0 && wcu == 0)
        text = g_strdup (_("On demand"));
      else
        {
          g_autofree char *r = g_strdup_printf ("%" G_GINT64_FORMAT, rcu);
          g_autofree char *w = g_strdup_printf ("%" G_GINT64_FORMAT, wcu);

          text = g_strdup_printf (_("Provisioned: %s RCU, %s WCU"), r, w);
        }
      add_row (self, group, _("Billing mode"), text);
    }
  if (member_string (table, "TableStatus") != NULL)
    add_row (self, group, _("Status"), member_string (table, "TableStatus"));

  add_indexes (self, table, "GlobalSecondaryIndexes", _("Global secondary index"));
  add_indexes (self, table, "LocalSecondaryIndexes", _("Local secondary index"));
}

char *
dyn_table_details_dup_text (DynTableDetails *self)
{
  g_return_val_if_fail (DYN_IS_TABLE_DETAILS (self), NULL);

  return g_strdup (self->text->str);
}
