/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-row-model"

#include "config.h"

#include <string.h>

#include "dyn-item-object-private.h"
#include "dyn-row-model.h"

/* One collection's rows: its header, then its items while expanded. */
typedef struct {
  DynCollection *collection;   /* a reference */
  DynRowModel   *owner;
  guint          offset;       /* the header's row, valid below self->valid */
  guint          n;            /* the collection's items, as last announced */
  gboolean       expanded;
  gulong         handler;
  guint         *order;        /* sorted: the collection's positions in row order */
} Group;

struct _DynRowModel
{
  GObject             parent_instance;

  DynCollectionModel *model;
  gboolean            grouped;
  GPtrArray          *groups;      /* Group*, in collection order */
  GHashTable         *by_collection; /* DynCollection* → Group* */
  guint               valid;       /* groups[0 .. valid) have right offsets */
  guint               n_rows;
  GCompareDataFunc    sort_func;   /* NULL: the model's own order */
  gpointer            sort_data;
  GArray             *flat_order;  /* sorted and flat: flat positions in row order */
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_GROUPED,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void dyn_row_model_list_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynRowModel, dyn_row_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dyn_row_model_list_init))

static guint
group_rows (const Group *group)
{
  return 1 + (group->expanded ? group->n : 0);
}

static void
group_free (gpointer data)
{
  Group *group = data;

  g_clear_signal_handler (&group->handler, group->collection);
  g_object_unref (group->collection);
  g_free (group->order);
  g_free (group);
}

/* Offsets are recomputed lazily from the first changed group on. */
static void
invalidate_from (DynRowModel *self,
                 guint        index)
{
  self->valid = MIN (self->valid, index);
}

static void
validate (DynRowModel *self,
          guint        upto)
{
  guint offset;

  if (self->valid >= upto)
    return;
  if (self->valid == 0)
    offset = 0;
  else
    {
      Group *prev = self->groups->pdata[self->valid - 1];

      offset = prev->offset + group_rows (prev);
    }
  for (guint i = self->valid; i < upto; i++)
    {
      Group *group = self->groups->pdata[i];

      group->offset = offset;
      offset += group_rows (group);
    }
  self->valid = upto;
}

static guint
group_index (DynRowModel *self,
             Group       *group)
{
  guint index;

  /* Groups are found by collection in the hash table; their index by
   * position. Collections come and go rarely: a linear search is fine. */
  if (!g_ptr_array_find (self->groups, group, &index))
    g_return_val_if_reached (G_MAXUINT);
  return index;
}

static void
notify_n_items (DynRowModel *self,
                guint        removed,
                guint        added)
{
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* Sorting: positions ordered by their objects, stable (g_qsort_with_data
 * is), so equal ones keep the model's order. */
typedef struct {
  DynRowModel *self;
  GListModel  *list;
} SortCtx;

static int
position_cmp (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  SortCtx *ctx = user_data;
  g_autoptr(GObject) x = g_list_model_get_item (ctx->list, *(const guint *) a);
  g_autoptr(GObject) y = g_list_model_get_item (ctx->list, *(const guint *) b);

  return ctx->self->sort_func (x, y, ctx->self->sort_data);
}

static guint *
sorted_positions (DynRowModel *self,
                  GListModel  *list,
                  guint        n)
{
  guint *order = g_new (guint, MAX (n, 1));
  SortCtx ctx = { self, list };

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), position_cmp, &ctx);
  return order;
}

static void
sort_group (DynRowModel *self,
            Group       *group)
{
  g_clear_pointer (&group->order, g_free);
  if (self->sort_func != NULL)
    group->order = sorted_positions (self, G_LIST_MODEL (group->collection), group->n);
}

static void
sort_flat (DynRowModel *self)
{
  g_clear_pointer (&self->flat_order, g_array_unref);
  if (self->sort_func != NULL && self->model != NULL)
    {
      GListModel *flat = dyn_collection_model_get_flat_model (self->model);
      guint n = g_list_model_get_n_items (flat);

      g_autofree guint *order = sorted_positions (self, flat, n);

      self->flat_order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
      g_array_append_vals (self->flat_order, order, n);
    }
}

static void
collection_items_changed_cb (GListModel *collection,
                             guint       position,
                             guint       removed,
                             guint       added,
                             Group      *group)
{
  DynRowModel *self = group->owner;
  guint index = group_index (self, group);

  g_return_if_fail (index != G_MAXUINT);
  if (self->sort_func != NULL)
    {
      guint old = group->n;

      /* Sorted, the changed items can go anywhere in the collection. */
      group->n = group->n - removed + added;
      sort_group (self, group);
      if (!group->expanded)
        return;
      position = 0;
      removed = old;
      added = group->n;
    }
  else
    group->n = group->n - removed + added;
  if (!group->expanded)
    return;
  validate (self, index + 1);
  invalidate_from (self, index + 1);
  self->n_rows = self->n_rows - removed + added;
  g_list_model_items_changed (G_LIST_MODEL (self), group->offset + 1 + position, removed, added);
  notify_n_items (self, removed, added);
}

static Group *
group_new (DynRowModel   *self,
           DynCollection *collection)
{
  Group *group = g_new0 (Group, 1);

  group->collection = g_object_ref (collection);
  group->owner = self;
  group->n = g_list_model_get_n_items (G_LIST_MODEL (collection));
  group->expanded = TRUE;
  group->handler = g_signal_connect (collection, "items-changed",
                                     G_CALLBACK (collection_items_changed_cb), group);
  sort_group (self, group);
  return group;
}

static void
model_items_changed_cb (GListModel  *model,
                        guint        position,
                        guint        removed,
                        guint        added,
                        DynRowModel *self)
{
  guint row, rows_removed = 0, rows_added = 0;
  g_autoptr(GPtrArray) fresh = g_ptr_array_new ();

  validate (self, position);
  if (position == 0)
    row = 0;
  else
    {
      Group *prev = self->groups->pdata[position - 1];

      row = prev->offset + group_rows (prev);
    }

  for (guint i = 0; i < removed; i++)
    {
      Group *group = self->groups->pdata[position + i];

      rows_removed += group_rows (group);
      g_hash_table_remove (self->by_collection, group->collection);
    }
  g_ptr_array_remove_range (self->groups, position, removed);

  for (guint i = 0; i < added; i++)
    {
      g_autoptr(DynCollection) collection = g_list_model_get_item (model, position + i);
      Group *group = group_new (self, collection);

      g_ptr_array_add (fresh, group);
      g_hash_table_insert (self->by_collection, collection, group);
      rows_added += group_rows (group);
    }
  for (guint i = 0; i < fresh->len; i++)
    g_ptr_array_insert (self->groups, position + i, fresh->pdata[i]);

  invalidate_from (self, position);
  self->n_rows = self->n_rows - rows_removed + rows_added;
  g_list_model_items_changed (G_LIST_MODEL (self), row, rows_removed, rows_added);
  notify_n_items (self, rows_removed, rows_added);
}

static void
flat_items_changed_cb (GListModel  *flat,
                       guint        position,
                       guint        removed,
                       guint        added,
                       DynRowModel *self)
{
  if (self->sort_func != NULL)
    {
      guint old = self->n_rows;

      sort_flat (self);
      self->n_rows = self->flat_order->len;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_rows);
      notify_n_items (self, old, self->n_rows);
      return;
    }
  self->n_rows = self->n_rows - removed + added;
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  notify_n_items (self, removed, added);
}

/* GListModel */

static GType
dyn_row_model_get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
dyn_row_model_get_n_items (GListModel *list)
{
  return DYN_ROW_MODEL (list)->n_rows;
}

/* The group holding row @position (a binary search over the offsets). */
static Group *
find_group (DynRowModel *self,
            guint        position)
{
  guint lo = 0, hi;

  validate (self, self->groups->len);
  hi = self->groups->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      Group *group = self->groups->pdata[mid];

      if (group->offset <= position)
        lo = mid;
      else
        hi = mid;
    }
  return self->groups->len > 0 ? self->groups->pdata[lo] : NULL;
}

gpointer
dyn_row_model_peek_row (DynRowModel *self,
                        guint        position)
{
  Group *group;

  g_return_val_if_fail (DYN_IS_ROW_MODEL (self), NULL);

  if (position >= self->n_rows)
    return NULL;
  if (!self->grouped)
    {
      GListModel *flat = dyn_collection_model_get_flat_model (self->model);
      g_autoptr(GObject) item = g_list_model_get_item (flat, self->flat_order ? g_array_index (self->flat_order, guint, position)
                                                                              : position);

      /* The flat model keeps a reference. */
      return item;
    }
  group = find_group (self, position);
  if (group == NULL)
    return NULL;
  if (position == group->offset)
    return group->collection;
  position -= group->offset + 1;
  return dyn_collection_peek_item (group->collection, group->order ? group->order[position] : position);
}

static gpointer
dyn_row_model_get_item (GListModel *list,
                        guint       position)
{
  gpointer row = dyn_row_model_peek_row (DYN_ROW_MODEL (list), position);

  return row ? g_object_ref (row) : NULL;
}

static void
dyn_row_model_list_init (GListModelInterface *iface)
{
  iface->get_item_type = dyn_row_model_get_item_type;
  iface->get_n_items = dyn_row_model_get_n_items;
  iface->get_item = dyn_row_model_get_item;
}

/* GObject */

static void
dyn_row_model_constructed (GObject *object)
{
  DynRowModel *self = DYN_ROW_MODEL (object);

  G_OBJECT_CLASS (dyn_row_model_parent_class)->constructed (object);

  if (self->model == NULL)
    return;
  if (self->grouped)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));

      g_signal_connect_object (self->model, "items-changed", G_CALLBACK (model_items_changed_cb), self, 0);
      for (guint i = 0; i < n; i++)
        {
          Group *group = group_new (self, dyn_collection_model_peek_collection (self->model, i));

          g_ptr_array_add (self->groups, group);
          g_hash_table_insert (self->by_collection, group->collection, group);
          self->n_rows += group_rows (group);
        }
    }
  else
    {
      GListModel *flat = dyn_collection_model_get_flat_model (self->model);

      g_signal_connect_object (flat, "items-changed", G_CALLBACK (flat_items_changed_cb), self, 0);
      self->n_rows = g_list_model_get_n_items (flat);
    }
}

static void
dyn_row_model_dispose (GObject *object)
{
  DynRowModel *self = DYN_ROW_MODEL (object);

  g_ptr_array_set_size (self->groups, 0);
  g_hash_table_remove_all (self->by_collection);
  if (self->model != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->model, self);
      g_signal_handlers_disconnect_by_data (dyn_collection_model_get_flat_model (self->model), self);
    }
  g_clear_object (&self->model);

  G_OBJECT_CLASS (dyn_row_model_parent_class)->dispose (object);
}

static void
dyn_row_model_finalize (GObject *object)
{
  DynRowModel *self = DYN_ROW_MODEL (object);

  g_ptr_array_unref (self->groups);
  g_hash_table_unref (self->by_collection);
  g_clear_pointer (&self->flat_order, g_array_unref);

  G_OBJECT_CLASS (dyn_row_model_parent_class)->finalize (object);
}

static void
dyn_row_model_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DynRowModel *self = DYN_ROW_MODEL (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_GROUPED:
      g_value_set_boolean (value, self->grouped);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->n_rows);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_row_model_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  DynRowModel *self = DYN_ROW_MODEL (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;
    case PROP_GROUPED:
      self->grouped = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_row_model_class_init (DynRowModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = dyn_row_model_constructed;
  object_class->dispose = dyn_row_model_dispose;
  object_class->finalize = dyn_row_model_finalize;
  object_class->get_property = dyn_row_model_get_property;
  object_class->set_property = dyn_row_model_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, DYN_TYPE_COLLECTION_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUPED] =
    g_param_spec_boolean ("grouped", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_row_model_init (DynRowModel *self)
{
  self->groups = g_ptr_array_new_with_free_func (group_free);
  self->by_collection = g_hash_table_new (NULL, NULL);
}

DynRowModel *
dyn_row_model_new (DynCollectionModel *model,
                   gboolean            grouped)
{
  g_return_val_if_fail (model == NULL || DYN_IS_COLLECTION_MODEL (model), NULL);

  return g_object_new (DYN_TYPE_ROW_MODEL, "model", model, "grouped", grouped, NULL);
}

DynCollectionModel *
dyn_row_model_get_model (DynRowModel *self)
{
  g_return_val_if_fail (DYN_IS_ROW_MODEL (self), NULL);

  return self->model;
}

gboolean
dyn_row_model_get_grouped (DynRowModel *self)
{
  g_return_val_if_fail (DYN_IS_ROW_MODEL (self), FALSE);

  return self->grouped;
}

gboolean
dyn_row_model_get_expanded (DynRowModel   *self,
                            DynCollection *collection)
{
  Group *group;

  g_return_val_if_fail (DYN_IS_ROW_MODEL (self), FALSE);

  if (!self->grouped)
    return TRUE;
  group = g_hash_table_lookup (self->by_collection, collection);
  return group != NULL && group->expanded;
}

static void
set_group_expanded (DynRowModel *self,
                    guint        index,
                    gboolean     expanded)
{
  Group *group = self->groups->pdata[index];

  if (group->expanded == expanded)
    return;
  validate (self, index + 1);
  group->expanded = expanded;
  invalidate_from (self, index + 1);
  if (group->n == 0)
    return;
  if (expanded)
    {
      self->n_rows += group->n;
      g_list_model_items_changed (G_LIST_MODEL (self), group->offset + 1, 0, group->n);
      notify_n_items (self, 0, group->n);
    }
  else
    {
      self->n_rows -= group->n;
      g_list_model_items_changed (G_LIST_MODEL (self), group->offset + 1, group->n, 0);
      notify_n_items (self, group->n, 0);
    }
}

void
dyn_row_model_set_expanded (DynRowModel   *self,
                            DynCollection *collection,
                            gboolean       expanded)
{
  Group *group;

  g_return_if_fail (DYN_IS_ROW_MODEL (self));
  g_return_if_fail (DYN_IS_COLLECTION (collection));

  group = g_hash_table_lookup (self->by_collection, collection);
  if (group == NULL)
    return;
  set_group_expanded (self, group_index (self, group), expanded);
}

void
dyn_row_model_set_all_expanded (DynRowModel *self,
                                gboolean     expanded)
{
  guint old_rows;

  g_return_if_fail (DYN_IS_ROW_MODEL (self));

  if (!self->grouped)
    return;
  /* One change for the whole list, not one per collection. */
  old_rows = self->n_rows;
  self->n_rows = 0;
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *group = self->groups->pdata[i];

      group->expanded = expanded;
      self->n_rows += group_rows (group);
    }
  self->valid = 0;
  if (old_rows != self->n_rows)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old_rows, self->n_rows);
      notify_n_items (self, old_rows, self->n_rows);
    }
}

guint
dyn_row_model_find_collection (DynRowModel   *self,
                               DynCollection *collection)
{
  Group *group;
  guint index;

  g_return_val_if_fail (DYN_IS_ROW_MODEL (self), G_MAXUINT);

  if (!self->grouped)
    return G_MAXUINT;
  group = g_hash_table_lookup (self->by_collection, collection);
  if (group == NULL)
    return G_MAXUINT;
  index = group_index (self, group);
  validate (self, index + 1);
  return group->offset;
}

guint
dyn_row_model_find_item (DynRowModel   *self,
                         DynItemObject *item)
{
  guint position;

  g_return_val_if_fail (DYN_IS_ROW_MODEL (self), G_MAXUINT);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (item), G_MAXUINT);

  if (self->model == NULL)
    return G_MAXUINT;
  if (self->grouped)
    {
      Group *group = item->owner ? g_hash_table_lookup (self->by_collection, item->owner) : NULL;
      guint index;

      if (group == NULL || !group->expanded ||
          !dyn_collection_find (group->collection, item, &position))
        return G_MAXUINT;
      if (group->order != NULL)
        {
          guint k;

          for (k = 0; k < group->n && group->order[k] != position; k++)
            ;
          if (k == group->n)
            return G_MAXUINT;
          position = k;
        }
      index = group_index (self, group);
      validate (self, index + 1);
      return group->offset + 1 + position;
    }
  else
    {
      GListModel *flat = dyn_collection_model_get_flat_model (self->model);
      guint n = g_list_model_get_n_items (flat);

      for (position = 0; position < n; position++)
        {
          g_autoptr(GObject) row = g_list_model_get_item (flat, position);

          if (row == (GObject *) item)
            break;
        }
      if (position == n)
        return G_MAXUINT;
      if (self->flat_order != NULL)
        for (guint k = 0; k < self->flat_order->len; k++)
          if (g_array_index (self->flat_order, guint, k) == position)
            return k;
      return self->flat_order ? G_MAXUINT : position;
    }
}

/**
 * dyn_row_model_set_sort_func:
 * @func: (nullable): compares two DynItemObject; NULL for the model's order
 *
 * Orders the items of each collection (grouped) or all items (flat) by
 * @func, stably, and again whenever the items change; the collections keep
 * their order. Calling it again sorts again (the order @func gives may have
 * changed). One items-changed for the whole list.
 */
void
dyn_row_model_set_sort_func (DynRowModel      *self,
                             GCompareDataFunc  func,
                             gpointer          user_data)
{
  guint old;

  g_return_if_fail (DYN_IS_ROW_MODEL (self));

  self->sort_func = func;
  self->sort_data = user_data;
  old = self->n_rows;
  if (self->grouped)
    for (guint i = 0; i < self->groups->len; i++)
      sort_group (self, self->groups->pdata[i]);
  else
    sort_flat (self);
  if (old > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_rows);
}
