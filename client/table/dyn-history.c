/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-history"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-history.h"

struct _DynReadEntry
{
  gatomicrefcount  ref_count;
  char            *table;
  char            *index;
  char            *text;
  DynReadOrigin    origin;
  char            *via;
  DynRequest      *request;
  JsonNode        *body;      /* the request's wire form, for comparing */
  gint64           time;
  char            *id;
  char            *name;
  DynReadRequest  *read;
};

G_DEFINE_BOXED_TYPE (DynReadEntry, dyn_read_entry, dyn_read_entry_ref, dyn_read_entry_unref)

static const char * const origin_names[] = {
  [DYN_READ_ORIGIN_BUILDER] = "builder",
  [DYN_READ_ORIGIN_FOLLOW] = "follow",
  [DYN_READ_ORIGIN_SCAN] = "scan",
};

static DynReadEntry *
entry_new_take (char          *table,
                char          *index,
                char          *text,
                DynReadOrigin  origin,
                char          *via,
                DynRequest    *request)
{
  DynReadEntry *self = g_new0 (DynReadEntry, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->table = table;
  self->index = index;
  self->text = text ? text : g_strdup ("");
  self->origin = origin;
  self->via = via;
  self->request = request;
  if (request != NULL)
    self->body = dyn_request_to_json (request);
  return self;
}

DynReadEntry *
dyn_read_entry_new (const char       *table,
                    const char       *index,
                    const char       *text,
                    DynReadOrigin     origin,
                    const char       *via,
                    const DynRequest *request)
{
  DynRequest *copy = NULL;

  g_return_val_if_fail (table != NULL || (request != NULL && request->table != NULL), NULL);
  g_return_val_if_fail (origin <= DYN_READ_ORIGIN_SCAN, NULL);

  if (request != NULL)
    {
      copy = dyn_request_copy (request);
      /* The first page's request: where a read continues is not part of it. */
      dyn_request_set_exclusive_start_key (copy, NULL);
      table = copy->table ? copy->table : table;
      index = copy->table ? copy->index : index;
    }
  return entry_new_take (g_strdup (table), g_strdup (index && *index ? index : NULL), g_strdup (text),
                         origin, g_strdup (via), copy);
}

DynReadEntry *
dyn_read_entry_new_for_read (DynReadRequest *read,
                             const char     *text,
                             DynReadOrigin   origin,
                             const char     *via)
{
  DynReadEntry *self;

  g_return_val_if_fail (DYN_IS_READ_REQUEST (read), NULL);
  g_return_val_if_fail (dyn_read_request_get_request (read) != NULL, NULL);

  self = dyn_read_entry_new (dyn_read_request_get_table (read), dyn_read_request_get_index (read), text, origin, via,
                             dyn_read_request_get_request (read));
  self->read = g_object_ref (read);
  return self;
}

DynReadEntry *
dyn_read_entry_ref (DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_read_entry_unref (DynReadEntry *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->table);
  g_free (self->index);
  g_free (self->text);
  g_free (self->via);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_pointer (&self->body, json_node_unref);
  g_free (self->id);
  g_free (self->name);
  g_clear_object (&self->read);
  g_free (self);
}

DynReadEntry *
dyn_read_entry_copy_as (const DynReadEntry *self,
                        const char         *id,
                        const char         *name)
{
  DynReadEntry *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = entry_new_take (g_strdup (self->table), g_strdup (self->index), g_strdup (self->text), self->origin,
                         g_strdup (self->via), self->request ? dyn_request_copy (self->request) : NULL);
  copy->time = self->time;
  copy->id = g_strdup (id);
  copy->name = g_strdup (name);
  return copy;
}

const char *
dyn_read_entry_get_table (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->table;
}

const char *
dyn_read_entry_get_index (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->index;
}

const char *
dyn_read_entry_get_text (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->text;
}

DynReadOrigin
dyn_read_entry_get_origin (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, DYN_READ_ORIGIN_BUILDER);
  return self->origin;
}

const char *
dyn_read_entry_get_via (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->via;
}

const DynRequest *
dyn_read_entry_get_request (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->request;
}

DynOperation
dyn_read_entry_get_operation (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, DYN_OP_SCAN);
  return self->request ? self->request->op : DYN_OP_SCAN;
}

gint64
dyn_read_entry_get_time (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->time;
}

void
dyn_read_entry_set_time (DynReadEntry *self,
                         gint64        time)
{
  g_return_if_fail (self != NULL);
  self->time = time;
}

const char *
dyn_read_entry_get_id (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->id;
}

const char *
dyn_read_entry_get_name (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

DynReadRequest *
dyn_read_entry_get_read (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->read;
}

void
dyn_read_entry_set_read (DynReadEntry   *self,
                         DynReadRequest *read)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (read == NULL || DYN_IS_READ_REQUEST (read));
  g_set_object (&self->read, read);
}

gboolean
dyn_read_entry_equal (const DynReadEntry *a,
                      const DynReadEntry *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a == b)
    return TRUE;
  if (g_strcmp0 (a->table, b->table) != 0 || g_strcmp0 (a->index, b->index) != 0 ||
      (a->origin == DYN_READ_ORIGIN_SCAN) != (b->origin == DYN_READ_ORIGIN_SCAN))
    return FALSE;
  /* A Scan of everything ignored the builder's text: any text is the same read. */
  if (a->origin != DYN_READ_ORIGIN_SCAN && g_strcmp0 (a->text, b->text) != 0)
    return FALSE;
  if ((a->body == NULL) != (b->body == NULL))
    return FALSE;
  if (a->body == NULL)
    return TRUE;
  return a->request->op == b->request->op && json_node_equal (a->body, b->body);
}

char *
dyn_read_entry_dup_title (const DynReadEntry *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->origin == DYN_READ_ORIGIN_SCAN || self->text[0] == '\0')
    return g_strdup (_("All items"));
  /* One line: the text may have been written over several. */
  return g_strdelimit (g_strstrip (g_strdup (self->text)), "\n\t\r", ' ');
}

char *
dyn_read_entry_dup_subtitle (const DynReadEntry *self)
{
  const char *operation;

  g_return_val_if_fail (self != NULL, NULL);

  operation = dyn_operation_get_name (dyn_read_entry_get_operation (self));
  if (self->origin == DYN_READ_ORIGIN_FOLLOW && self->via != NULL)
    {
      /* Translators: a read that followed a key link: "Query · GSI1 · Movies · followed GSI1PK" */
      if (self->index != NULL)
        return g_strdup_printf (_("%s · %s · %s · followed %s"), operation, self->index, self->table, self->via);
      return g_strdup_printf (_("%s · %s · followed %s"), operation, self->table, self->via);
    }
  if (self->index != NULL)
    return g_strdup_printf ("%s · %s · %s", operation, self->index, self->table);
  return g_strdup_printf ("%s · %s", operation, self->table);
}

/* JSON. */

static void
set_string (JsonObject *obj,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (obj, member, value);
}

JsonNode *
dyn_read_entry_to_json (const DynReadEntry *self)
{
  JsonObject *obj;
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  obj = json_object_new ();
  set_string (obj, "id", self->id);
  set_string (obj, "name", self->name);
  set_string (obj, "table", self->table);
  set_string (obj, "index", self->index);
  set_string (obj, "text", self->text);
  set_string (obj, "origin", origin_names[self->origin]);
  set_string (obj, "via", self->via);
  if (self->time > 0)
    {
      g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (self->time / G_USEC_PER_SEC);
      g_autofree char *text = time ? g_date_time_format_iso8601 (time) : NULL;

      set_string (obj, "time", text);
    }
  if (self->request != NULL)
    {
      json_object_set_string_member (obj, "operation", dyn_operation_get_name (self->request->op));
      json_object_set_member (obj, "request", json_node_copy (self->body));
    }
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, obj);
  return node;
}

static gboolean G_GNUC_PRINTF (3, 4)
shape_error (GError    **error,
             const char *where,
             const char *format,
             ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL, "%s: %s", where, message);
  return FALSE;
}

/* Member @name of @obj as a string: TRUE with *out NULL when it is missing
 * or null, FALSE when it is something else. */
static gboolean
get_string (JsonObject  *obj,
            const char  *where,
            const char  *name,
            const char **out,
            GError     **error)
{
  JsonNode *member = json_object_get_member (obj, name);

  *out = NULL;
  if (member == NULL || JSON_NODE_HOLDS_NULL (member))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s", where, name);

      return shape_error (error, path, _("must be a string"));
    }
  *out = json_node_get_string (member);
  return TRUE;
}

static gboolean
get_boolean (JsonObject  *obj,
             const char  *where,
             const char  *name,
             gboolean    *out,
             GError     **error)
{
  JsonNode *member = json_object_get_member (obj, name);

  if (member == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_BOOLEAN)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s", where, name);

      return shape_error (error, path, _("must be true or false"));
    }
  *out = json_node_get_boolean (member);
  return TRUE;
}

static gboolean
get_count (JsonObject  *obj,
           const char  *where,
           const char  *name,
           gint64      *out,
           GError     **error)
{
  JsonNode *member = json_object_get_member (obj, name);

  if (member == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_INT64 ||
      json_node_get_int (member) < 0 || json_node_get_int (member) > G_MAXINT32)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s", where, name);

      return shape_error (error, path, _("must be a whole number from 0 to %d"), G_MAXINT32);
    }
  *out = json_node_get_int (member);
  return TRUE;
}

static gboolean
take_string (JsonObject  *obj,
             const char  *where,
             const char  *name,
             char       **field,
             GError     **error)
{
  const char *value;

  if (!get_string (obj, where, name, &value, error))
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static gboolean
operation_from_name (const char   *name,
                     DynOperation *op)
{
  static const DynOperation reads[] = { DYN_OP_GET_ITEM, DYN_OP_QUERY, DYN_OP_SCAN };

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (reads); i++)
    if (strcmp (name, dyn_operation_get_name (reads[i])) == 0)
      {
        *op = reads[i];
        return TRUE;
      }
  return FALSE;
}

/* The wire form back into a request: only what a read sends. */
static DynRequest *
request_from_json (JsonNode     *node,
                   DynOperation  op,
                   const char   *where,
                   GError      **error)
{
  g_autoptr(DynRequest) request = NULL;
  JsonObject *obj;
  JsonNode *member;
  const char *table = NULL;
  gint64 number;
  gint64 segment = 0, total_segments = 0;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      shape_error (error, where, _("must be an object"));
      return NULL;
    }
  obj = json_node_get_object (node);
  if (!get_string (obj, where, "TableName", &table, error))
    return NULL;
  if (table == NULL || *table == '\0')
    {
      g_autofree char *path = g_strdup_printf ("%s.TableName", where);

      shape_error (error, path, _("is missing"));
      return NULL;
    }
  request = dyn_request_new (op, table);
  request->return_consumed_capacity = FALSE;
  if (!take_string (obj, where, "IndexName", &request->index, error) ||
      !take_string (obj, where, "KeyConditionExpression", &request->key_condition, error) ||
      !take_string (obj, where, "FilterExpression", &request->filter, error) ||
      !take_string (obj, where, "ProjectionExpression", &request->projection, error) ||
      !take_string (obj, where, "Select", &request->select, error) ||
      !get_boolean (obj, where, "ConsistentRead", &request->consistent_read, error) ||
      !get_boolean (obj, where, "ScanIndexForward", &request->scan_forward, error))
    return NULL;
  number = 0;
  if (!get_count (obj, where, "Limit", &number, error))
    return NULL;
  request->limit = number;
  if (!get_count (obj, where, "Segment", &segment, error) ||
      !get_count (obj, where, "TotalSegments", &total_segments, error))
    return NULL;
  request->segment = (int) segment;
  request->total_segments = (int) total_segments;
  {
    const char *capacity = NULL;

    if (!get_string (obj, where, "ReturnConsumedCapacity", &capacity, error))
      return NULL;
    request->return_consumed_capacity = g_strcmp0 (capacity, "TOTAL") == 0;
  }

  member = json_object_get_member (obj, "Key");
  if (member != NULL)
    {
      g_autoptr(GError) key_error = NULL;
      g_autofree char *path = g_strdup_printf ("%s.Key", where);

      request->key = dyn_item_from_ddb_json (member, &key_error);
      if (request->key == NULL)
        {
          shape_error (error, path, "%s", key_error->message);
          return NULL;
        }
    }

  member = json_object_get_member (obj, "ExpressionAttributeNames");
  if (member != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s.ExpressionAttributeNames", where);
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      if (!JSON_NODE_HOLDS_OBJECT (member))
        {
          shape_error (error, path, _("must be an object"));
          return NULL;
        }
      json_object_iter_init (&iter, json_node_get_object (member));
      while (json_object_iter_next (&iter, &name, &value))
        {
          if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
            {
              g_autofree char *inner = g_strdup_printf ("%s.%s", path, name);

              shape_error (error, inner, _("must be a string"));
              return NULL;
            }
          dyn_request_add_name (request, name, json_node_get_string (value));
        }
    }

  member = json_object_get_member (obj, "ExpressionAttributeValues");
  if (member != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s.ExpressionAttributeValues", where);
      JsonObjectIter iter;
      const char *name;
      JsonNode *json;

      if (!JSON_NODE_HOLDS_OBJECT (member))
        {
          shape_error (error, path, _("must be an object"));
          return NULL;
        }
      json_object_iter_init (&iter, json_node_get_object (member));
      while (json_object_iter_next (&iter, &name, &json))
        {
          g_autoptr(GError) value_error = NULL;
          g_autoptr(DynValue) value = dyn_value_from_ddb_json (json, &value_error);

          if (value == NULL)
            {
              g_autofree char *inner = g_strdup_printf ("%s.%s", path, name);

              shape_error (error, inner, "%s", value_error->message);
              return NULL;
            }
          dyn_request_add_value (request, name, value);
        }
    }
  return g_steal_pointer (&request);
}

DynReadEntry *
dyn_read_entry_from_json (JsonNode    *node,
                          const char  *where,
                          GError     **error)
{
  g_autoptr(DynRequest) request = NULL;
  JsonObject *obj;
  const char *table = NULL, *index = NULL, *text = NULL, *origin_name = NULL, *via = NULL;
  const char *time_text = NULL, *id = NULL, *name = NULL, *operation = NULL;
  DynReadOrigin origin = DYN_READ_ORIGIN_BUILDER;
  DynReadEntry *self;
  JsonNode *member;
  gint64 time = 0;
  gboolean known = FALSE;

  g_return_val_if_fail (node != NULL, NULL);

  if (where == NULL)
    where = "entry";
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      shape_error (error, where, _("must be an object"));
      return NULL;
    }
  obj = json_node_get_object (node);
  if (!get_string (obj, where, "table", &table, error) || !get_string (obj, where, "index", &index, error) ||
      !get_string (obj, where, "text", &text, error) || !get_string (obj, where, "origin", &origin_name, error) ||
      !get_string (obj, where, "via", &via, error) || !get_string (obj, where, "time", &time_text, error) ||
      !get_string (obj, where, "id", &id, error) || !get_string (obj, where, "name", &name, error) ||
      !get_string (obj, where, "operation", &operation, error))
    return NULL;
  for (guint i = 0; origin_name != NULL && i < G_N_ELEMENTS (origin_names); i++)
    if (strcmp (origin_name, origin_names[i]) == 0)
      {
        origin = i;
        known = TRUE;
      }
  if (origin_name != NULL && !known)
    {
      g_autofree char *path = g_strdup_printf ("%s.origin", where);

      shape_error (error, path, _("must be “builder”, “follow” or “scan”, not “%s”"), origin_name);
      return NULL;
    }
  if (time_text != NULL)
    {
      g_autoptr(GDateTime) parsed = g_date_time_new_from_iso8601 (time_text, NULL);

      if (parsed == NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s.time", where);

          shape_error (error, path, _("is not a date and time (ISO 8601): “%s”"), time_text);
          return NULL;
        }
      time = g_date_time_to_unix (parsed) * G_USEC_PER_SEC;
    }
  member = json_object_get_member (obj, "request");
  if (member != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s.request", where);
      DynOperation op;

      if (!operation_from_name (operation, &op))
        {
          g_autofree char *op_path = g_strdup_printf ("%s.operation", where);

          shape_error (error, op_path, _("must be GetItem, Query or Scan"));
          return NULL;
        }
      request = request_from_json (member, op, path, error);
      if (request == NULL)
        return NULL;
    }
  if (table == NULL && request == NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s.table", where);

      shape_error (error, path, _("is missing"));
      return NULL;
    }
  if (request != NULL && table != NULL && strcmp (table, request->table) != 0)
    {
      g_autofree char *path = g_strdup_printf ("%s.table", where);

      shape_error (error, path, _("“%s” is not the request’s TableName “%s”"), table, request->table);
      return NULL;
    }
  self = dyn_read_entry_new (table, index, text, origin, via, request);
  self->time = time;
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  return self;
}

gboolean
dyn_read_entries_add_recent (GPtrArray    *list,
                             DynReadEntry *entry,
                             guint         max)
{
  g_return_val_if_fail (list != NULL, FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);

  if (list->len > 0 && list->pdata[0] == entry)
    return FALSE;
  for (guint i = 0; i < list->len; i++)
    if (dyn_read_entry_equal (list->pdata[i], entry))
      {
        g_ptr_array_remove_index (list, i);
        break;
      }
  g_ptr_array_insert (list, 0, dyn_read_entry_ref (entry));
  if (list->len > max)
    g_ptr_array_set_size (list, max);
  return TRUE;
}

/* The history. */

struct _DynHistory
{
  GObject    parent_instance;

  GPtrArray *entries;    /* DynReadEntry, the oldest first */
  guint      position;   /* of the current entry */
  guint      max;
};

enum {
  PROP_0,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynHistory, dyn_history, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
dyn_history_finalize (GObject *object)
{
  DynHistory *self = DYN_HISTORY (object);

  g_ptr_array_unref (self->entries);

  G_OBJECT_CLASS (dyn_history_parent_class)->finalize (object);
}

static void
dyn_history_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  DynHistory *self = DYN_HISTORY (object);

  switch (prop_id)
    {
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, dyn_history_can_go_back (self));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, dyn_history_can_go_forward (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_history_class_init (DynHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_history_finalize;
  object_class->get_property = dyn_history_get_property;

  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_history_init (DynHistory *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_read_entry_unref);
}

DynHistory *
dyn_history_new (guint max)
{
  DynHistory *self = g_object_new (DYN_TYPE_HISTORY, NULL);

  self->max = MAX (max, 1);
  return self;
}

/* Notifies what changed between @back/@forward and now. */
static void
notify_moves (DynHistory *self,
              gboolean    back,
              gboolean    forward)
{
  if (back != dyn_history_can_go_back (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  if (forward != dyn_history_can_go_forward (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

gboolean
dyn_history_push (DynHistory   *self,
                  DynReadEntry *entry)
{
  gboolean back, forward;
  DynReadEntry *current;

  g_return_val_if_fail (DYN_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);

  current = dyn_history_get_current (self);
  if (current != NULL && dyn_read_entry_equal (current, entry))
    return FALSE;
  back = dyn_history_can_go_back (self);
  forward = dyn_history_can_go_forward (self);
  if (self->entries->len > 0)
    g_ptr_array_set_size (self->entries, self->position + 1);
  g_ptr_array_add (self->entries, dyn_read_entry_ref (entry));
  if (self->entries->len > self->max)
    g_ptr_array_remove_range (self->entries, 0, self->entries->len - self->max);
  self->position = self->entries->len - 1;
  notify_moves (self, back, forward);
  return TRUE;
}

DynReadEntry *
dyn_history_get_current (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), NULL);

  return self->entries->len > 0 ? self->entries->pdata[self->position] : NULL;
}

DynReadEntry *
dyn_history_peek_back (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), NULL);

  return dyn_history_can_go_back (self) ? self->entries->pdata[self->position - 1] : NULL;
}

DynReadEntry *
dyn_history_peek_forward (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), NULL);

  return dyn_history_can_go_forward (self) ? self->entries->pdata[self->position + 1] : NULL;
}

gboolean
dyn_history_can_go_back (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), FALSE);

  return self->entries->len > 0 && self->position > 0;
}

gboolean
dyn_history_can_go_forward (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), FALSE);

  return self->entries->len > 0 && self->position + 1 < self->entries->len;
}

static DynReadEntry *
go (DynHistory *self,
    int         step)
{
  gboolean back = dyn_history_can_go_back (self);
  gboolean forward = dyn_history_can_go_forward (self);

  if ((step < 0 && !back) || (step > 0 && !forward))
    return NULL;
  self->position += step;
  notify_moves (self, back, forward);
  return self->entries->pdata[self->position];
}

DynReadEntry *
dyn_history_go_back (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), NULL);

  return go (self, -1);
}

DynReadEntry *
dyn_history_go_forward (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), NULL);

  return go (self, 1);
}

guint
dyn_history_get_length (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), 0);

  return self->entries->len;
}

guint
dyn_history_get_position (DynHistory *self)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), 0);

  return self->position;
}

DynReadEntry *
dyn_history_get_entry (DynHistory *self,
                       guint       position)
{
  g_return_val_if_fail (DYN_IS_HISTORY (self), NULL);
  g_return_val_if_fail (position < self->entries->len, NULL);

  return self->entries->pdata[position];
}

void
dyn_history_clear (DynHistory *self)
{
  gboolean back, forward;

  g_return_if_fail (DYN_IS_HISTORY (self));

  back = dyn_history_can_go_back (self);
  forward = dyn_history_can_go_forward (self);
  g_ptr_array_set_size (self->entries, 0);
  self->position = 0;
  notify_moves (self, back, forward);
}
