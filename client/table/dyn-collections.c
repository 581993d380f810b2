/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-collections"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-collections.h"
#include "dyn-entity.h"
#include "dyn-item-object-private.h"

/* Above this many inserted runs in one existing collection, a page replaces
 * the span they cover with one items-changed instead of one signal per run
 * (each run costs a move of the collection's tail). */
#define MAX_SEPARATE_RUNS 16

/* Items of one entity type have the same member names. Comparing an item's
 * names with those of a few recent items is cheaper than a hash lookup per
 * name. */
#define SHAPE_CACHE_SIZE 4

/* DynItemList: the flat model, a GListModel over a GPtrArray. -------------- */

#define DYN_TYPE_ITEM_LIST (dyn_item_list_get_type ())
G_DECLARE_FINAL_TYPE (DynItemList, dyn_item_list, DYN, ITEM_LIST, GObject)

struct _DynItemList
{
  GObject    parent_instance;
  GPtrArray *items;          /* DynItemObject*, owned */
};

static GType
dyn_item_list_get_item_type (GListModel *model)
{
  return DYN_TYPE_ITEM_OBJECT;
}

static guint
dyn_item_list_get_n_items (GListModel *model)
{
  return DYN_ITEM_LIST (model)->items->len;
}

static gpointer
dyn_item_list_get_item (GListModel *model,
                        guint       position)
{
  DynItemList *self = DYN_ITEM_LIST (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (self->items->pdata[position]);
}

static void
dyn_item_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyn_item_list_get_item_type;
  iface->get_n_items = dyn_item_list_get_n_items;
  iface->get_item = dyn_item_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DynItemList, dyn_item_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dyn_item_list_model_init))

static void
dyn_item_list_finalize (GObject *object)
{
  DynItemList *self = DYN_ITEM_LIST (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (dyn_item_list_parent_class)->finalize (object);
}

static void
dyn_item_list_class_init (DynItemListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_item_list_finalize;
}

static void
dyn_item_list_init (DynItemList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

/* DynCollection ------------------------------------------------------------ */

struct _DynCollection
{
  GObject             parent_instance;

  DynValue           *pk;           /* owned; NULL for the "(no key)" collection */
  char               *title;        /* made on first use */
  GPtrArray          *items;        /* DynItemObject*, owned, in sort order */
  GPtrArray          *pending;      /* DynItemObject*, not owned: this page's items */
  DynCollectionModel *model;        /* not a reference; NULL once detached */
  guint               page_serial;  /* the page that created it */
  guint               composite : 1; /* pk is a list: a multi-attribute partition key */
  guint               descending : 1;
  guint               unsorted : 1; /* created this page, items out of order */
};

enum {
  COLLECTION_PROP_0,
  COLLECTION_PROP_PARTITION_KEY_VALUE,
  COLLECTION_PROP_TITLE,
  COLLECTION_PROP_N_ITEMS,
  COLLECTION_PROP_MORE_PENDING,
  COLLECTION_N_PROPS
};

static GParamSpec *collection_properties[COLLECTION_N_PROPS];

static gboolean collection_more_pending (DynCollection *self);

static GType
dyn_collection_get_item_type (GListModel *model)
{
  return DYN_TYPE_ITEM_OBJECT;
}

static guint
dyn_collection_list_get_n_items (GListModel *model)
{
  return DYN_COLLECTION (model)->items->len;
}

static gpointer
dyn_collection_get_item (GListModel *model,
                         guint       position)
{
  DynCollection *self = DYN_COLLECTION (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (self->items->pdata[position]);
}

static void
dyn_collection_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = dyn_collection_get_item_type;
  iface->get_n_items = dyn_collection_list_get_n_items;
  iface->get_item = dyn_collection_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DynCollection, dyn_collection, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dyn_collection_model_iface_init))

static char *
key_to_title (const DynValue *pk,
              gboolean        composite)
{
  if (pk == NULL)
    return g_strdup (_("(no key)"));
  if (composite)
    {
      /* A multi-attribute partition key: "acme · 7". */
      GString *out = g_string_new (NULL);

      for (guint i = 0; i < dyn_value_get_length (pk); i++)
        {
          g_autofree char *part = key_to_title (dyn_value_list_get (pk, i), FALSE);

          if (i > 0)
            g_string_append (out, " · ");
          g_string_append (out, part);
        }
      return g_string_free (out, FALSE);
    }

  switch (dyn_value_get_value_type (pk))
    {
    case DYN_VALUE_S:
      return g_strndup (dyn_value_get_string (pk), dyn_value_get_string_length (pk));
    case DYN_VALUE_N:
      return g_strdup (dyn_value_get_number (pk));
    case DYN_VALUE_B:
      {
        GBytes *bytes = dyn_value_get_binary (pk);
        gsize len;
        const guint8 *data = g_bytes_get_data (bytes, &len);

        return g_base64_encode (data, len);
      }
    default:
      /* Not a key type (a projection may hold anything under the name). */
      return dyn_value_to_ddb_json_string (pk);
    }
}

/* The order of sort-key values in a collection: a missing value first, then
 * DynamoDB's key order (reversed when descending). */
static inline int
order_cmp (const DynValue *a,
           const DynValue *b,
           gboolean        descending)
{
  int c;

  if (a == NULL || b == NULL)
    return (a != NULL) - (b != NULL);
  if (a == b)
    return 0;
  c = dyn_value_compare (a, b);
  return descending ? -c : c;
}

static inline DynValue *
obj_sk (gconstpointer obj)
{
  return ((const DynItemObject *) obj)->sk;
}

static int
item_sort_cb (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  DynCollection *self = user_data;

  return order_cmp (obj_sk (*(gpointer *) a), obj_sk (*(gpointer *) b), self->descending);
}

/* The first index in [lo, n) whose sort key orders after @sk. */
static guint
upper_bound (GPtrArray      *items,
             guint           lo,
             const DynValue *sk,
             gboolean        descending)
{
  guint hi = items->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (order_cmp (obj_sk (items->pdata[mid]), sk, descending) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first index whose sort key does not order before @sk. */
static guint
lower_bound (GPtrArray      *items,
             const DynValue *sk,
             gboolean        descending)
{
  guint lo = 0, hi = items->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (order_cmp (obj_sk (items->pdata[mid]), sk, descending) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Inserts @n objects (taking new references) at @pos. */
static void
insert_block (GPtrArray *array,
              guint      pos,
              gpointer  *objs,
              guint      n)
{
  guint old_len = array->len;

  g_ptr_array_set_size (array, old_len + n);
  memmove (array->pdata + pos + n, array->pdata + pos, (old_len - pos) * sizeof (gpointer));
  for (guint i = 0; i < n; i++)
    array->pdata[pos + i] = g_object_ref (objs[i]);
}

static gboolean
is_sorted (GPtrArray *items,
           gboolean   descending)
{
  for (guint i = 1; i < items->len; i++)
    if (order_cmp (obj_sk (items->pdata[i - 1]), obj_sk (items->pdata[i]), descending) > 0)
      return FALSE;
  return TRUE;
}

/* Moves this page's items into the collection in sort order and says so. */
static void
collection_merge_pending (DynCollection *self)
{
  g_autoptr(GPtrArray) pending = g_steal_pointer (&self->pending);
  g_autofree guint *pos = NULL;
  GPtrArray *items = self->items;
  guint n = items->len, k = pending->len, runs = 1;

  if (!is_sorted (pending, self->descending))
    g_ptr_array_sort_with_data (pending, item_sort_cb, self);   /* stable */

  /* The common case: a partition continues on the next page. */
  if (n == 0 || order_cmp (obj_sk (items->pdata[n - 1]), obj_sk (pending->pdata[0]), self->descending) <= 0)
    {
      insert_block (items, n, pending->pdata, k);
      g_list_model_items_changed (G_LIST_MODEL (self), n, 0, k);
      return;
    }

  pos = g_new (guint, k);
  for (guint j = 0, lo = 0; j < k; j++)
    {
      lo = pos[j] = upper_bound (items, lo, obj_sk (pending->pdata[j]), self->descending);
      if (j > 0 && pos[j] != pos[j - 1])
        runs++;
    }

  if (runs <= MAX_SEPARATE_RUNS)
    {
      /* Runs go in front to back, so each one's final position is already
       * right when it is announced. */
      for (guint j = 0, offset = 0; j < k; )
        {
          guint start = j;

          while (j < k && pos[j] == pos[start])
            j++;
          insert_block (items, pos[start] + offset, pending->pdata + start, j - start);
          g_list_model_items_changed (G_LIST_MODEL (self), pos[start] + offset, 0, j - start);
          offset += j - start;
        }
    }
  else
    {
      GPtrArray *merged = g_ptr_array_new_full (n + k, g_object_unref);
      guint first = pos[0], last = pos[k - 1];
      guint i = 0;

      for (guint j = 0; j < k; j++)
        {
          for (; i < pos[j]; i++)
            g_ptr_array_add (merged, g_object_ref (items->pdata[i]));
          g_ptr_array_add (merged, g_object_ref (pending->pdata[j]));
        }
      for (; i < n; i++)
        g_ptr_array_add (merged, g_object_ref (items->pdata[i]));
      g_ptr_array_unref (self->items);
      self->items = merged;
      g_list_model_items_changed (G_LIST_MODEL (self), first, last - first, last - first + k);
    }
}

static void
collection_remove_at (DynCollection *self,
                      guint          position,
                      gboolean       notify)
{
  DynItemObject *obj = self->items->pdata[position];

  obj->owner = NULL;
  g_ptr_array_remove_index (self->items, position);
  if (notify)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
      g_object_notify_by_pspec (G_OBJECT (self), collection_properties[COLLECTION_PROP_N_ITEMS]);
    }
}

/* Inserts one object where its sort key belongs; returns the position. */
static guint
collection_insert_one (DynCollection *self,
                       DynItemObject *obj)
{
  guint pos = upper_bound (self->items, 0, obj_sk (obj), self->descending);
  gpointer p = obj;

  insert_block (self->items, pos, &p, 1);
  obj->owner = self;
  return pos;
}

static void
dyn_collection_dispose (GObject *object)
{
  DynCollection *self = DYN_COLLECTION (object);

  /* Items may outlive the collection; they must not point at it. */
  for (guint i = 0; i < self->items->len; i++)
    {
      DynItemObject *obj = self->items->pdata[i];

      if (obj->owner == self)
        obj->owner = NULL;
    }
  g_ptr_array_set_size (self->items, 0);
  g_clear_pointer (&self->pending, g_ptr_array_unref);

  G_OBJECT_CLASS (dyn_collection_parent_class)->dispose (object);
}

static void
dyn_collection_finalize (GObject *object)
{
  DynCollection *self = DYN_COLLECTION (object);

  g_clear_pointer (&self->pk, dyn_value_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (dyn_collection_parent_class)->finalize (object);
}

static void
dyn_collection_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DynCollection *self = DYN_COLLECTION (object);

  switch (prop_id)
    {
    case COLLECTION_PROP_PARTITION_KEY_VALUE:
      g_value_set_boxed (value, self->pk);
      break;
    case COLLECTION_PROP_TITLE:
      g_value_set_string (value, dyn_collection_get_title (self));
      break;
    case COLLECTION_PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    case COLLECTION_PROP_MORE_PENDING:
      g_value_set_boolean (value, collection_more_pending (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_collection_class_init (DynCollectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_collection_dispose;
  object_class->finalize = dyn_collection_finalize;
  object_class->get_property = dyn_collection_get_property;

  collection_properties[COLLECTION_PROP_PARTITION_KEY_VALUE] =
    g_param_spec_boxed ("partition-key-value", NULL, NULL, DYN_TYPE_VALUE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  collection_properties[COLLECTION_PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  collection_properties[COLLECTION_PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  collection_properties[COLLECTION_PROP_MORE_PENDING] =
    g_param_spec_boolean ("more-pending", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, COLLECTION_N_PROPS, collection_properties);
}

static void
dyn_collection_init (DynCollection *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

static DynCollection *
collection_new (DynCollectionModel *model,
                DynValue           *pk,
                gboolean            composite,
                gboolean            descending,
                guint               page_serial)
{
  DynCollection *self = g_object_new (DYN_TYPE_COLLECTION, NULL);

  self->pk = pk != NULL ? dyn_value_ref (pk) : NULL;
  self->composite = pk != NULL && composite;
  self->model = model;
  self->descending = !!descending;
  self->page_serial = page_serial;
  return self;
}

DynValue *
dyn_collection_get_partition_key_value (DynCollection *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION (self), NULL);
  return self->pk;
}

const char *
dyn_collection_get_title (DynCollection *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION (self), NULL);

  if (self->title == NULL)
    self->title = key_to_title (self->pk, self->composite);
  return self->title;
}

guint
dyn_collection_get_n_items (DynCollection *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION (self), 0);
  return self->items->len;
}

DynItemObject *
dyn_collection_peek_item (DynCollection *self,
                          guint          position)
{
  g_return_val_if_fail (DYN_IS_COLLECTION (self), NULL);
  g_return_val_if_fail (position < self->items->len, NULL);
  return self->items->pdata[position];
}

gboolean
dyn_collection_find (DynCollection *self,
                     DynItemObject *item,
                     guint         *position)
{
  DynValue *sk;

  g_return_val_if_fail (DYN_IS_COLLECTION (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (item), FALSE);

  sk = dyn_item_object_get_sort_key_value (item);
  for (guint i = lower_bound (self->items, sk, self->descending); i < self->items->len; i++)
    {
      if (self->items->pdata[i] == item)
        {
          if (position != NULL)
            *position = i;
          return TRUE;
        }
      if (order_cmp (obj_sk (self->items->pdata[i]), sk, self->descending) != 0)
        break;
    }
  return FALSE;
}

/* DynCollectionModel ------------------------------------------------------- */

struct _DynCollectionModel
{
  GObject        parent_instance;

  char          *partition_key;   /* the first partition attribute */
  char          *sort_key;        /* the first sort attribute, or NULL */
  GStrv          partition_keys;  /* every partition attribute, in key order */
  GStrv          sort_keys;       /* every sort attribute (may be empty) */
  gboolean       composite_pk;    /* more than one partition attribute */
  gboolean       composite_sk;    /* more than one sort attribute */
  GPtrArray     *collections;     /* DynCollection*, owned, first-appearance order */
  GHashTable    *by_pk;           /* DynValue* (the collection's) → DynCollection* */
  DynCollection *no_key;          /* borrowed from collections */
  DynItemList   *flat;
  GPtrArray     *attributes;      /* char*, owned, NULL-terminated */
  GHashTable    *attribute_set;   /* char* (from attributes) */
  GPtrArray     *shapes[SHAPE_CACHE_SIZE];  /* char*, owned: member names of recent items */
  guint          next_shape;
  guint          page_serial;
  gboolean       descending;
  gboolean       edited;          /* insert() or replace() was used: pages may repeat a key */
  gboolean       has_collections; /* items can share a partition key (see the header) */
  gboolean       more_pending;    /* the read has more pages */
  DynCollection *tail;            /* borrowed: the collection of the last page's last item */
  DynEntityDetector *entity;      /* where the entity labels come from */
};

enum {
  PROP_0,
  PROP_PARTITION_KEY,
  PROP_SORT_KEY,
  PROP_PARTITION_KEYS,
  PROP_SORT_KEYS,
  PROP_DESCENDING,
  PROP_N_ITEMS,
  PROP_N_ITEMS_TOTAL,
  PROP_N_ATTRIBUTES,
  PROP_HAS_COLLECTIONS,
  PROP_MORE_PENDING,
  PROP_ENTITY_SOURCE,
  N_PROPS
};

enum {
  ATTRIBUTES_CHANGED,
  N_SIGNALS
};

static GType
dyn_collection_model_get_item_type (GListModel *model)
{
  return DYN_TYPE_COLLECTION;
}

static guint
dyn_collection_model_list_get_n_items (GListModel *model)
{
  return DYN_COLLECTION_MODEL (model)->collections->len;
}

static gpointer
dyn_collection_model_get_item (GListModel *model,
                               guint       position)
{
  DynCollectionModel *self = DYN_COLLECTION_MODEL (model);

  if (position >= self->collections->len)
    return NULL;
  return g_object_ref (self->collections->pdata[position]);
}

static void
dyn_collection_model_list_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = dyn_collection_model_get_item_type;
  iface->get_n_items = dyn_collection_model_list_get_n_items;
  iface->get_item = dyn_collection_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DynCollectionModel, dyn_collection_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dyn_collection_model_list_iface_init))

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Only the collection the last page ended in can grow with the next page: a
 * Query reads one partition, and a Scan (of a table or an index, in one
 * segment) returns the items of a partition one after another. */
static gboolean
collection_more_pending (DynCollection *self)
{
  return self->model != NULL && self->model->more_pending && self->model->tail == self;
}

const char *
_dyn_collection_entity_label (gpointer       owner,
                              DynItemObject *obj,
                              gboolean      *known)
{
  DynCollection *coll = owner;

  *known = coll->model != NULL;
  if (coll->model == NULL)
    return NULL;
  return dyn_entity_detector_label (coll->model->entity, obj->item,
                                    _dyn_item_object_first_key (obj, FALSE),
                                    _dyn_item_object_first_key (obj, TRUE));
}

/* Partition keys are S, N or B. Equal numbers ("1.50", "1.5") must hash
 * alike: hash the significant digits only. */
static guint
key_hash (gconstpointer p)
{
  const DynValue *v = p;
  guint h = 2166136261u;

  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_S:
      {
        const guchar *s = (const guchar *) dyn_value_get_string (v);
        gsize len = dyn_value_get_string_length (v);

        for (gsize i = 0; i < len; i++)
          h = (h ^ s[i]) * 16777619u;
        return h;
      }
    case DYN_VALUE_N:
      {
        const char *s = dyn_value_get_number (v);
        gboolean leading = TRUE;
        guint zeros = 0;

        for (; *s != '\0' && *s != 'e' && *s != 'E'; s++)
          {
            if (*s < '0' || *s > '9')
              continue;
            if (*s == '0')
              {
                if (!leading)
                  zeros++;
                continue;
              }
            leading = FALSE;
            for (; zeros > 0; zeros--)
              h = (h ^ '0') * 16777619u;
            h = (h ^ (guchar) *s) * 16777619u;
          }
        return h;
      }
    case DYN_VALUE_B:
      return g_bytes_hash (dyn_value_get_binary (v));
    case DYN_VALUE_L:
      /* A multi-attribute partition key. */
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        h = (h ^ key_hash (dyn_value_list_get (v, i))) * 16777619u;
      return h;
    default:
      return dyn_value_get_value_type (v);
    }
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return dyn_value_equal (a, b);
}

static gboolean
same_key (const DynValue *a,
          const DynValue *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (a == b)
    return TRUE;
  if (dyn_value_get_value_type (a) == DYN_VALUE_S && dyn_value_get_value_type (b) == DYN_VALUE_S)
    {
      gsize len = dyn_value_get_string_length (a);

      return len == dyn_value_get_string_length (b) &&
             memcmp (dyn_value_get_string (a), dyn_value_get_string (b), len) == 0;
    }
  return dyn_value_equal (a, b);
}

static DynCollection *
find_collection (DynCollectionModel *self,
                 const DynValue     *pk)
{
  if (pk == NULL)
    return self->no_key;
  return g_hash_table_lookup (self->by_pk, pk);
}

static DynCollection *
add_collection (DynCollectionModel *self,
                DynValue           *pk)
{
  DynCollection *coll = collection_new (self, pk, self->composite_pk, self->descending, self->page_serial);

  g_ptr_array_add (self->collections, coll);
  if (pk == NULL)
    self->no_key = coll;
  else
    g_hash_table_insert (self->by_pk, coll->pk, coll);
  return coll;
}

static void
detach_collection (DynCollectionModel *self,
                   DynCollection      *coll)
{
  if (coll == self->tail)
    self->tail = NULL;
  if (coll == self->no_key)
    self->no_key = NULL;
  else
    g_hash_table_remove (self->by_pk, coll->pk);
  coll->model = NULL;
}

static void
drop_collection_if_empty (DynCollectionModel *self,
                          DynCollection      *coll)
{
  guint pos;

  if (coll->items->len > 0)
    return;
  if (!g_ptr_array_find (self->collections, coll, &pos))
    g_return_if_reached ();
  detach_collection (self, coll);
  g_ptr_array_remove_index (self->collections, pos);
  g_list_model_items_changed (G_LIST_MODEL (self), pos, 1, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* The partition (@sort FALSE) or sort key value of @item (a map, or a key
 * map): the attribute's value, borrowed, for a single-attribute key; for a
 * multi-attribute one a new list of the values in key order (*owned set):
 * every partition attribute, else NULL; the sort attributes as far as @item
 * has them from the left (a missing one sorts first), else NULL. */
static DynValue *
key_of (DynCollectionModel *self,
        const DynValue     *item,
        gboolean            sort,
        gboolean           *owned)
{
  GStrv names = sort ? self->sort_keys : self->partition_keys;
  DynValue *list;

  *owned = FALSE;
  if (!(sort ? self->composite_sk : self->composite_pk))
    {
      const char *name = sort ? self->sort_key : self->partition_key;

      return name != NULL ? dyn_value_map_lookup (item, name) : NULL;
    }
  list = NULL;
  for (guint i = 0; names[i] != NULL; i++)
    {
      DynValue *v = dyn_value_map_lookup (item, names[i]);

      if (v == NULL)
        {
          if (!sort)
            g_clear_pointer (&list, dyn_value_unref);
          break;
        }
      if (list == NULL)
        list = dyn_value_new_list ();
      dyn_value_list_append (list, v);
    }
  *owned = list != NULL;
  return list;
}

/* A new item object for @item with this model's keys. */
static DynItemObject *
object_new (DynCollectionModel *self,
            DynValue           *item)
{
  gboolean pk_owned, sk_owned;
  DynValue *pk = key_of (self, item, FALSE, &pk_owned);
  DynValue *sk = key_of (self, item, TRUE, &sk_owned);

  if (!pk_owned && !sk_owned)
    return _dyn_item_object_new (item, pk, sk, self->sort_key == NULL);
  return _dyn_item_object_new_composite (item, pk, pk_owned, sk, sk_owned, self->sort_key == NULL);
}

/* Where @name is among the key attributes (partition then sort), or -1. */
static int
key_index (DynCollectionModel *self,
           const char         *name)
{
  guint n = 0;

  for (guint i = 0; self->partition_keys[i] != NULL; i++, n++)
    if (strcmp (name, self->partition_keys[i]) == 0)
      return n;
  for (guint i = 0; self->sort_keys[i] != NULL; i++, n++)
    if (strcmp (name, self->sort_keys[i]) == 0)
      return n;
  return -1;
}

/* Records the member names of @item. Returns TRUE when a key attribute had to
 * go in front of names seen before. */
static gboolean
shape_matches (GPtrArray      *shape,
               const DynValue *item,
               guint           n)
{
  if (shape == NULL || shape->len != n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (strcmp (shape->pdata[i], dyn_value_map_get_name (item, i)) != 0)
      return FALSE;
  return TRUE;
}

static void
clear_shapes (DynCollectionModel *self)
{
  for (guint i = 0; i < SHAPE_CACHE_SIZE; i++)
    g_clear_pointer (&self->shapes[i], g_ptr_array_unref);
}

static gboolean
note_attributes (DynCollectionModel *self,
                 const DynValue     *item)
{
  gboolean reordered = FALSE;
  guint n = dyn_value_get_length (item);
  GPtrArray *shape;

  for (guint i = 0; i < SHAPE_CACHE_SIZE; i++)
    if (shape_matches (self->shapes[i], item, n))
      return FALSE;

  shape = g_ptr_array_new_full (n, g_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (shape, g_strdup (dyn_value_map_get_name (item, i)));
  g_clear_pointer (&self->shapes[self->next_shape], g_ptr_array_unref);
  self->shapes[self->next_shape] = shape;
  self->next_shape = (self->next_shape + 1) % SHAPE_CACHE_SIZE;

  for (guint i = 0; i < n; i++)
    {
      const char *name = dyn_value_map_get_name (item, i);
      char *copy;
      int k;

      if (g_hash_table_contains (self->attribute_set, name))
        continue;
      copy = g_strdup (name);
      g_hash_table_add (self->attribute_set, copy);
      k = key_index (self, name);
      /* A key attribute's values are shown as the keys they are. */
      if (k < 0)
        dyn_entity_detector_note_attribute (self->entity, copy);
      if (k >= 0)
        {
          /* Key attributes lead, in key order. */
          guint at = 0;

          while (at < self->attributes->len)
            {
              int other = key_index (self, self->attributes->pdata[at]);

              if (other < 0 || other > k)
                break;
              at++;
            }
          reordered |= self->attributes->len > at;
          g_ptr_array_insert (self->attributes, at, copy);
        }
      else
        g_ptr_array_add (self->attributes, copy);
    }
  return reordered;
}

static void
announce_attributes (DynCollectionModel *self,
                     guint               old_n,
                     gboolean            reordered)
{
  guint n = self->attributes->len;

  if (reordered)
    g_signal_emit (self, signals[ATTRIBUTES_CHANGED], 0, 0, old_n, n);
  else if (n > old_n)
    g_signal_emit (self, signals[ATTRIBUTES_CHANGED], 0, old_n, 0, n - old_n);
  else
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ATTRIBUTES]);
}

/* Whether @coll shows that items share partition keys here: a hash-only
 * table never does, a hash-only index may. The "(no key)" collection (a
 * projection without the key) does not count. */
static gboolean
holds_collection (DynCollectionModel *self,
                  DynCollection      *coll)
{
  return !self->has_collections && coll != self->no_key && coll->items->len > 1;
}

static void
set_has_collections (DynCollectionModel *self,
                     gboolean            has_collections)
{
  has_collections = has_collections || self->sort_key != NULL;
  if (self->has_collections == has_collections)
    return;
  self->has_collections = has_collections;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_COLLECTIONS]);
}

/* The collection the read's last page ended in. */
static void
set_tail (DynCollectionModel *self,
          DynCollection      *tail)
{
  g_autoptr(DynCollection) old = NULL;

  if (self->tail == tail)
    return;
  old = self->tail ? g_object_ref (self->tail) : NULL;
  self->tail = tail;
  if (!self->more_pending)
    return;
  if (old != NULL)
    g_object_notify_by_pspec (G_OBJECT (old), collection_properties[COLLECTION_PROP_MORE_PENDING]);
  if (tail != NULL)
    g_object_notify_by_pspec (G_OBJECT (tail), collection_properties[COLLECTION_PROP_MORE_PENDING]);
}

static void
append_items (DynCollectionModel *self,
              DynValue          **items,
              guint               n)
{
  g_autoptr(GPtrArray) touched = g_ptr_array_new ();
  GPtrArray *flat = self->flat->items;
  guint flat_old = flat->len, colls_old = self->collections->len;
  guint attrs_old = self->attributes->len, added = 0;
  gboolean reordered = FALSE, grew = FALSE, entity_changed;
  DynCollection *last = NULL;
  DynValue *last_pk = NULL;

  self->page_serial++;

  for (guint i = 0; i < n; i++)
    {
      DynValue *item = items[i];
      DynValue *pk, *sk;
      DynCollection *coll;
      DynItemObject *obj;

      if (item == NULL || dyn_value_get_value_type (item) != DYN_VALUE_M)
        {
          g_critical ("%s: item %u of the page is not a map", G_STRFUNC, i);
          continue;
        }

      obj = object_new (self, item);
      pk = obj->pk;
      sk = obj->sk;

      /* Pages mostly hold runs of one partition. */
      if (last != NULL && same_key (pk, last_pk))
        coll = last;
      else
        {
          coll = find_collection (self, pk);
          if (coll == NULL)
            coll = add_collection (self, pk);
          last = coll;
          last_pk = pk;
        }

      obj->owner = coll;
      g_ptr_array_add (flat, obj);
      added++;

      if (coll->page_serial == self->page_serial)
        {
          GPtrArray *ci = coll->items;

          if (!coll->unsorted && ci->len > 0 &&
              order_cmp (obj_sk (ci->pdata[ci->len - 1]), sk, self->descending) > 0)
            coll->unsorted = TRUE;
          g_ptr_array_add (ci, g_object_ref (obj));
        }
      else
        {
          if (coll->pending == NULL)
            {
              coll->pending = g_ptr_array_new ();
              g_ptr_array_add (touched, coll);
            }
          g_ptr_array_add (coll->pending, obj);
        }

      reordered |= note_attributes (self, item);
      dyn_entity_detector_observe (self->entity, item, _dyn_item_object_first_key (obj, FALSE),
                                   _dyn_item_object_first_key (obj, TRUE));
    }

  for (guint i = colls_old; i < self->collections->len; i++)
    {
      DynCollection *coll = self->collections->pdata[i];

      if (coll->unsorted)
        {
          g_ptr_array_sort_with_data (coll->items, item_sort_cb, coll);   /* stable */
          coll->unsorted = FALSE;
        }
      grew = grew || holds_collection (self, coll);
    }
  /* Decided before the rows of this page are bound. */
  entity_changed = dyn_entity_detector_update (self->entity);

  for (guint i = 0; i < touched->len; i++)
    {
      DynCollection *coll = touched->pdata[i];

      collection_merge_pending (coll);
      g_object_notify_by_pspec (G_OBJECT (coll), collection_properties[COLLECTION_PROP_N_ITEMS]);
      grew = grew || holds_collection (self, coll);
    }

  if (self->collections->len > colls_old)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), colls_old, 0,
                                  self->collections->len - colls_old);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
  if (added > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self->flat), flat_old, 0, added);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS_TOTAL]);
    }
  announce_attributes (self, attrs_old, reordered);
  if (grew)
    set_has_collections (self, TRUE);
  if (entity_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENTITY_SOURCE]);
}

static void
dyn_collection_model_dispose (GObject *object)
{
  DynCollectionModel *self = DYN_COLLECTION_MODEL (object);

  for (guint i = 0; self->collections != NULL && i < self->collections->len; i++)
    DYN_COLLECTION (self->collections->pdata[i])->model = NULL;
  self->tail = NULL;
  g_clear_pointer (&self->by_pk, g_hash_table_unref);
  g_clear_pointer (&self->collections, g_ptr_array_unref);
  self->no_key = NULL;
  g_clear_object (&self->flat);

  G_OBJECT_CLASS (dyn_collection_model_parent_class)->dispose (object);
}

static void
dyn_collection_model_finalize (GObject *object)
{
  DynCollectionModel *self = DYN_COLLECTION_MODEL (object);

  g_clear_pointer (&self->partition_key, g_free);
  g_clear_pointer (&self->sort_key, g_free);
  g_clear_pointer (&self->partition_keys, g_strfreev);
  g_clear_pointer (&self->sort_keys, g_strfreev);
  g_clear_pointer (&self->attribute_set, g_hash_table_unref);
  g_clear_pointer (&self->attributes, g_ptr_array_unref);
  clear_shapes (self);
  g_clear_pointer (&self->entity, dyn_entity_detector_free);

  G_OBJECT_CLASS (dyn_collection_model_parent_class)->finalize (object);
}

static void
dyn_collection_model_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  DynCollectionModel *self = DYN_COLLECTION_MODEL (object);

  switch (prop_id)
    {
    case PROP_PARTITION_KEY:
      g_value_set_string (value, self->partition_key);
      break;
    case PROP_SORT_KEY:
      g_value_set_string (value, self->sort_key);
      break;
    case PROP_PARTITION_KEYS:
      g_value_set_boxed (value, self->partition_keys);
      break;
    case PROP_SORT_KEYS:
      g_value_set_boxed (value, self->sort_keys);
      break;
    case PROP_DESCENDING:
      g_value_set_boolean (value, self->descending);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->collections->len);
      break;
    case PROP_N_ITEMS_TOTAL:
      g_value_set_uint (value, self->flat->items->len);
      break;
    case PROP_N_ATTRIBUTES:
      g_value_set_uint (value, self->attributes->len);
      break;
    case PROP_HAS_COLLECTIONS:
      g_value_set_boolean (value, self->has_collections);
      break;
    case PROP_MORE_PENDING:
      g_value_set_boolean (value, self->more_pending);
      break;
    case PROP_ENTITY_SOURCE:
      g_value_set_enum (value, dyn_entity_detector_get_source (self->entity));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_collection_model_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  DynCollectionModel *self = DYN_COLLECTION_MODEL (object);

  switch (prop_id)
    {
    case PROP_PARTITION_KEY:
      g_free (self->partition_key);
      self->partition_key = g_value_dup_string (value);
      break;
    case PROP_SORT_KEY:
      g_free (self->sort_key);
      self->sort_key = g_value_dup_string (value);
      break;
    case PROP_PARTITION_KEYS:
      g_strfreev (self->partition_keys);
      self->partition_keys = g_value_dup_boxed (value);
      break;
    case PROP_SORT_KEYS:
      g_strfreev (self->sort_keys);
      self->sort_keys = g_value_dup_boxed (value);
      break;
    case PROP_DESCENDING:
      self->descending = g_value_get_boolean (value);
      break;
    case PROP_MORE_PENDING:
      dyn_collection_model_set_more_pending (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_collection_model_constructed (GObject *object)
{
  DynCollectionModel *self = DYN_COLLECTION_MODEL (object);

  G_OBJECT_CLASS (dyn_collection_model_parent_class)->constructed (object);

  /* "partition-keys"/"sort-keys" (a multi-attribute key) win over
   * "partition-key"/"sort-key", which then name their first attribute. */
  if (self->partition_keys != NULL && self->partition_keys[0] != NULL)
    {
      g_free (self->partition_key);
      self->partition_key = g_strdup (self->partition_keys[0]);
    }
  if (self->partition_key == NULL)
    {
      g_critical ("DynCollectionModel needs a partition key");
      self->partition_key = g_strdup ("");
    }
  if (self->partition_keys == NULL || self->partition_keys[0] == NULL)
    {
      const char *one[] = { self->partition_key, NULL };

      g_strfreev (self->partition_keys);
      self->partition_keys = g_strdupv ((GStrv) one);
    }
  if (self->sort_keys != NULL && self->sort_keys[0] != NULL)
    {
      g_free (self->sort_key);
      self->sort_key = g_strdup (self->sort_keys[0]);
    }
  else
    {
      const char *one[] = { self->sort_key, NULL };

      g_strfreev (self->sort_keys);
      self->sort_keys = g_strdupv ((GStrv) one);
    }
  self->composite_pk = g_strv_length (self->partition_keys) > 1;
  self->composite_sk = g_strv_length (self->sort_keys) > 1;
  self->has_collections = self->sort_key != NULL;
}

static void
dyn_collection_model_class_init (DynCollectionModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_collection_model_dispose;
  object_class->finalize = dyn_collection_model_finalize;
  object_class->get_property = dyn_collection_model_get_property;
  object_class->set_property = dyn_collection_model_set_property;
  object_class->constructed = dyn_collection_model_constructed;

  properties[PROP_PARTITION_KEY] =
    g_param_spec_string ("partition-key", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SORT_KEY] =
    g_param_spec_string ("sort-key", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Every partition and sort attribute of a multi-attribute key, in order. */
  properties[PROP_PARTITION_KEYS] =
    g_param_spec_boxed ("partition-keys", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SORT_KEYS] =
    g_param_spec_boxed ("sort-keys", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DESCENDING] =
    g_param_spec_boolean ("descending", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS_TOTAL] =
    g_param_spec_uint ("n-items-total", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ATTRIBUTES] =
    g_param_spec_uint ("n-attributes", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_COLLECTIONS] =
    g_param_spec_boolean ("has-collections", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MORE_PENDING] =
    g_param_spec_boolean ("more-pending", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENTITY_SOURCE] =
    g_param_spec_enum ("entity-source", NULL, NULL, DYN_TYPE_ENTITY_SOURCE, DYN_ENTITY_SOURCE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DynCollectionModel::attributes-changed:
   * @position: the first changed index of the attribute list
   * @removed: names removed there
   * @added: names added there
   *
   * The known attribute names changed, like GListModel::items-changed.
   */
  signals[ATTRIBUTES_CHANGED] =
    g_signal_new ("attributes-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);
}

static void
dyn_collection_model_init (DynCollectionModel *self)
{
  self->collections = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_pk = g_hash_table_new (key_hash, key_equal);
  self->flat = g_object_new (DYN_TYPE_ITEM_LIST, NULL);
  self->attributes = g_ptr_array_new_null_terminated (8, g_free, TRUE);
  self->attribute_set = g_hash_table_new (g_str_hash, g_str_equal);
  self->entity = dyn_entity_detector_new ();
}

/**
 * dyn_collection_model_new:
 *
 * Returns: (transfer full): a new empty model
 */
DynCollectionModel *
dyn_collection_model_new (const char *partition_key,
                          const char *sort_key,
                          gboolean    descending)
{
  g_return_val_if_fail (partition_key != NULL, NULL);

  return g_object_new (DYN_TYPE_COLLECTION_MODEL,
                       "partition-key", partition_key,
                       "sort-key", sort_key,
                       "descending", descending,
                       NULL);
}

DynCollectionModel *
dyn_collection_model_new_for_schema (const DynKeySchema *keys,
                                     gboolean            descending)
{
  g_autoptr(GStrvBuilder) partition = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) sort = g_strv_builder_new ();
  g_auto(GStrv) partition_keys = NULL;
  g_auto(GStrv) sort_keys = NULL;

  g_return_val_if_fail (keys != NULL && keys->partition_key != NULL, NULL);

  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
    g_strv_builder_add (partition, dyn_key_schema_get_partition_key (keys, i, NULL));
  for (guint i = 0; i < dyn_key_schema_get_n_sort_keys (keys); i++)
    g_strv_builder_add (sort, dyn_key_schema_get_sort_key (keys, i, NULL));
  partition_keys = g_strv_builder_end (partition);
  sort_keys = g_strv_builder_end (sort);
  return g_object_new (DYN_TYPE_COLLECTION_MODEL,
                       "partition-keys", partition_keys,
                       "sort-keys", sort_keys,
                       "descending", descending,
                       NULL);
}

const char *
dyn_collection_model_get_partition_key (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return self->partition_key;
}

const char *
dyn_collection_model_get_sort_key (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return self->sort_key;
}

const char * const *
dyn_collection_model_get_partition_keys (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return (const char * const *) self->partition_keys;
}

const char * const *
dyn_collection_model_get_sort_keys (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return (const char * const *) self->sort_keys;
}

gboolean
dyn_collection_model_get_descending (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), FALSE);
  return self->descending;
}

/* The object with @item's key values, when the model has one. */
static DynItemObject *
find_object (DynCollectionModel *self,
             DynValue           *item)
{
  g_autoptr(DynValue) pk_list = NULL;
  g_autoptr(DynValue) sk_list = NULL;
  gboolean pk_owned, sk_owned;
  DynValue *pk = key_of (self, item, FALSE, &pk_owned);
  DynValue *sk = key_of (self, item, TRUE, &sk_owned);
  DynCollection *coll;

  if (pk_owned)
    pk_list = pk;
  if (sk_owned)
    sk_list = sk;
  if (pk == NULL || (self->sort_key != NULL && sk == NULL) ||
      (self->composite_sk && dyn_value_get_length (sk) < g_strv_length (self->sort_keys)))
    return NULL;
  coll = find_collection (self, pk);
  if (coll == NULL || coll->items->len == 0)
    return NULL;
  if (self->sort_key == NULL)
    return coll->items->pdata[0];
  {
    guint i = lower_bound (coll->items, sk, self->descending);

    if (i < coll->items->len && order_cmp (obj_sk (coll->items->pdata[i]), sk, self->descending) == 0)
      return coll->items->pdata[i];
  }
  return NULL;
}

/* A page after insert() or replace(). */
static void
append_edited (DynCollectionModel *self,
               GPtrArray          *items)
{
  g_autoptr(GPtrArray) fresh = NULL;
  g_autoptr(GPtrArray) known = NULL;

  /* Items the window wrote (created, changed, brought back by an undo) can
   * come again in a later page: not as a second row. An unchanged row takes
   * the page's item (the server's now); a row with a staged change keeps
   * showing that change. */
  fresh = g_ptr_array_sized_new (items->len);
  known = g_ptr_array_new ();
  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      DynItemObject *existing = item && dyn_value_get_value_type (item) == DYN_VALUE_M ? find_object (self, item) : NULL;

      if (existing == NULL)
        g_ptr_array_add (fresh, item);
      else if (existing->state == DYN_ITEM_STATE_UNCHANGED)
        {
          g_ptr_array_add (known, existing);
          g_ptr_array_add (known, item);
        }
    }
  if (fresh->len > 0)
    append_items (self, (DynValue **) fresh->pdata, fresh->len);
  for (guint i = 0; i < known->len; i += 2)
    if (!dyn_value_equal (dyn_item_object_get_item (known->pdata[i]), known->pdata[i + 1]))
      dyn_collection_model_replace (self, known->pdata[i], known->pdata[i + 1]);
}

void
dyn_collection_model_append_page (DynCollectionModel *self,
                                  GPtrArray          *items)
{
  g_return_if_fail (DYN_IS_COLLECTION_MODEL (self));
  g_return_if_fail (items != NULL);

  if (items->len == 0)
    return;
  if (!self->edited)
    append_items (self, (DynValue **) items->pdata, items->len);
  else
    append_edited (self, items);
  /* The page ends in this collection: it may go on in the next page. */
  {
    DynValue *last = items->pdata[items->len - 1];
    g_autoptr(DynValue) pk_list = NULL;
    gboolean owned = FALSE;
    DynValue *pk = last && dyn_value_get_value_type (last) == DYN_VALUE_M ? key_of (self, last, FALSE, &owned) : NULL;

    if (owned)
      pk_list = pk;
    if (last != NULL && dyn_value_get_value_type (last) == DYN_VALUE_M)
      set_tail (self, find_collection (self, pk));
  }
}

void
dyn_collection_model_page_func (GPtrArray *items,
                                gpointer   model)
{
  dyn_collection_model_append_page (model, items);
}

void
dyn_collection_model_clear (DynCollectionModel *self)
{
  g_autoptr(GPtrArray) old_collections = NULL;
  g_autoptr(GPtrArray) old_items = NULL;
  guint n_collections, n_items, n_attributes;
  gboolean had_entities;

  g_return_if_fail (DYN_IS_COLLECTION_MODEL (self));

  n_collections = self->collections->len;
  n_items = self->flat->items->len;
  n_attributes = self->attributes->len;
  self->edited = FALSE;

  /* Swap in empty containers first so that handlers see an empty model. */
  old_collections = g_steal_pointer (&self->collections);
  self->collections = g_ptr_array_new_with_free_func (g_object_unref);
  old_items = g_steal_pointer (&self->flat->items);
  self->flat->items = g_ptr_array_new_with_free_func (g_object_unref);
  g_hash_table_remove_all (self->by_pk);
  self->no_key = NULL;
  for (guint i = 0; i < old_collections->len; i++)
    DYN_COLLECTION (old_collections->pdata[i])->model = NULL;
  for (guint i = 0; i < old_items->len; i++)
    {
      DynItemObject *obj = old_items->pdata[i];

      obj->owner = NULL;
    }
  g_hash_table_remove_all (self->attribute_set);
  g_ptr_array_set_size (self->attributes, 0);
  clear_shapes (self);
  self->tail = NULL;
  had_entities = dyn_entity_detector_get_source (self->entity) != DYN_ENTITY_SOURCE_NONE;
  dyn_entity_detector_reset (self->entity);

  if (n_collections > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, n_collections, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
  if (n_items > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self->flat), 0, n_items, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS_TOTAL]);
    }
  if (n_attributes > 0)
    {
      g_signal_emit (self, signals[ATTRIBUTES_CHANGED], 0, 0, n_attributes, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ATTRIBUTES]);
    }
  if (had_entities)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENTITY_SOURCE]);
  set_has_collections (self, FALSE);
  dyn_collection_model_set_more_pending (self, FALSE);
}

guint
dyn_collection_model_get_n_items_total (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), 0);
  return self->flat->items->len;
}

guint
dyn_collection_model_get_n_collections (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), 0);
  return self->collections->len;
}

GListModel *
dyn_collection_model_get_flat_model (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return G_LIST_MODEL (self->flat);
}

DynCollection *
dyn_collection_model_peek_collection (DynCollectionModel *self,
                                      guint               position)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  g_return_val_if_fail (position < self->collections->len, NULL);
  return self->collections->pdata[position];
}

const char * const *
dyn_collection_model_get_attributes (DynCollectionModel *self,
                                     guint              *n_attributes)
{
  static const char * const empty[] = { NULL };

  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), empty);

  if (n_attributes != NULL)
    *n_attributes = self->attributes->len;
  /* A null-terminated GPtrArray's pdata may still be NULL while empty. */
  if (self->attributes->pdata == NULL)
    return empty;
  return (const char * const *) self->attributes->pdata;
}

DynCollection *
dyn_collection_model_lookup_collection (DynCollectionModel *self,
                                        const DynValue     *pk_value)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return find_collection (self, pk_value);
}

static gboolean
item_matches (DynItemObject  *obj,
              const DynValue *key)
{
  DynValue *item = dyn_item_object_get_item (obj);
  guint n = dyn_value_get_length (key);

  for (guint i = 0; i < n; i++)
    {
      DynValue *v = dyn_value_map_lookup (item, dyn_value_map_get_name (key, i));

      if (v == NULL || !dyn_value_equal (v, dyn_value_map_get_value (key, i)))
        return FALSE;
    }
  return TRUE;
}

DynItemObject *
dyn_collection_model_lookup (DynCollectionModel *self,
                             const DynValue     *key)
{
  g_autoptr(DynValue) pk_list = NULL;
  g_autoptr(DynValue) sk_list = NULL;
  gboolean pk_owned, sk_owned;
  DynValue *pk, *sk;
  DynCollection *coll;
  guint start = 0;

  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  g_return_val_if_fail (key != NULL && dyn_value_get_value_type (key) == DYN_VALUE_M, NULL);

  pk = key_of (self, key, FALSE, &pk_owned);
  if (pk_owned)
    pk_list = pk;
  if (pk == NULL)
    {
      GPtrArray *flat = self->flat->items;

      for (guint i = 0; i < flat->len; i++)
        if (item_matches (flat->pdata[i], key))
          return flat->pdata[i];
      return NULL;
    }

  coll = find_collection (self, pk);
  if (coll == NULL)
    return NULL;
  sk = key_of (self, key, TRUE, &sk_owned);
  if (sk_owned)
    sk_list = sk;
  /* A binary search needs the whole sort key. */
  if (sk != NULL && self->composite_sk && dyn_value_get_length (sk) < g_strv_length (self->sort_keys))
    sk = NULL;
  if (sk != NULL)
    start = lower_bound (coll->items, sk, self->descending);
  for (guint i = start; i < coll->items->len; i++)
    {
      DynItemObject *obj = coll->items->pdata[i];

      if (sk != NULL && order_cmp (obj_sk (obj), sk, self->descending) != 0)
        break;
      if (item_matches (obj, key))
        return obj;
    }
  return NULL;
}

DynItemObject *
dyn_collection_model_insert (DynCollectionModel *self,
                             DynValue           *item)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  g_return_val_if_fail (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M, NULL);

  self->edited = TRUE;
  append_items (self, &item, 1);
  return g_ptr_array_index (self->flat->items, self->flat->items->len - 1);
}

/* Where @obj is: its collection (of this model) and position there. */
static DynCollection *
locate (DynCollectionModel *self,
        DynItemObject      *obj,
        guint              *position)
{
  DynCollection *coll = obj->owner;

  if (coll == NULL || coll->model != self)
    return NULL;
  if (!dyn_collection_find (coll, obj, position))
    g_return_val_if_reached (NULL);
  return coll;
}

DynItemObject *
dyn_collection_model_replace (DynCollectionModel *self,
                              DynItemObject      *old,
                              DynValue           *item)
{
  g_autoptr(DynItemObject) obj = NULL;
  DynCollection *coll, *target;
  DynValue *pk, *sk;
  guint pos, flat_pos;
  guint attrs_old;
  gboolean reordered, grew = FALSE;

  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (old), NULL);
  g_return_val_if_fail (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M, NULL);

  coll = locate (self, old, &pos);
  if (coll == NULL)
    return NULL;
  if (!g_ptr_array_find (self->flat->items, old, &flat_pos))
    g_return_val_if_reached (NULL);
  self->edited = TRUE;

  obj = object_new (self, item);
  pk = obj->pk;
  sk = obj->sk;

  attrs_old = self->attributes->len;
  reordered = note_attributes (self, item);

  /* The flat model: same place. */
  g_ptr_array_index (self->flat->items, flat_pos) = g_object_ref (obj);

  if (same_key (pk, dyn_item_object_get_partition_key_value (old)) &&
      order_cmp (sk, dyn_item_object_get_sort_key_value (old), self->descending) == 0)
    {
      old->owner = NULL;
      obj->owner = coll;
      g_ptr_array_index (coll->items, pos) = g_object_ref (obj);
      g_object_unref (old);   /* the collection's reference */
      g_list_model_items_changed (G_LIST_MODEL (coll), pos, 1, 1);
    }
  else
    {
      guint new_pos;

      g_object_ref (old);
      collection_remove_at (coll, pos, TRUE);
      target = find_collection (self, pk);
      if (target == NULL)
        {
          target = add_collection (self, pk);
          collection_insert_one (target, obj);
          g_list_model_items_changed (G_LIST_MODEL (self), self->collections->len - 1, 0, 1);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
        }
      else
        {
          new_pos = collection_insert_one (target, obj);
          g_list_model_items_changed (G_LIST_MODEL (target), new_pos, 0, 1);
          g_object_notify_by_pspec (G_OBJECT (target), collection_properties[COLLECTION_PROP_N_ITEMS]);
          grew = holds_collection (self, target);
        }
      drop_collection_if_empty (self, coll);
      g_object_unref (old);   /* the reference taken above */
    }

  g_list_model_items_changed (G_LIST_MODEL (self->flat), flat_pos, 1, 1);
  /* The flat list's reference to @old. */
  g_object_unref (old);
  announce_attributes (self, attrs_old, reordered);
  if (grew)
    set_has_collections (self, TRUE);

  return obj;   /* borrowed: the model holds it */
}

gboolean
dyn_collection_model_remove (DynCollectionModel *self,
                             DynItemObject      *item)
{
  DynCollection *coll;
  guint pos, flat_pos;

  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (item), FALSE);

  coll = locate (self, item, &pos);
  if (coll == NULL)
    return FALSE;

  g_object_ref (item);
  collection_remove_at (coll, pos, TRUE);
  drop_collection_if_empty (self, coll);
  if (g_ptr_array_find (self->flat->items, item, &flat_pos))
    {
      g_ptr_array_remove_index (self->flat->items, flat_pos);
      g_list_model_items_changed (G_LIST_MODEL (self->flat), flat_pos, 1, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS_TOTAL]);
    }
  g_object_unref (item);
  return TRUE;
}

GListModel *
dyn_collection_model_create_child_model (gpointer item,
                                         gpointer user_data)
{
  if (DYN_IS_COLLECTION (item))
    return g_object_ref (G_LIST_MODEL (item));
  return NULL;
}

gboolean
dyn_collection_model_has_collections (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), FALSE);
  return self->has_collections;
}

gboolean
dyn_collection_model_get_more_pending (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), FALSE);
  return self->more_pending;
}

void
dyn_collection_model_set_more_pending (DynCollectionModel *self,
                                       gboolean            more_pending)
{
  g_return_if_fail (DYN_IS_COLLECTION_MODEL (self));

  more_pending = !!more_pending;
  if (self->more_pending == more_pending)
    return;
  self->more_pending = more_pending;
  if (self->tail != NULL)
    g_object_notify_by_pspec (G_OBJECT (self->tail), collection_properties[COLLECTION_PROP_MORE_PENDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MORE_PENDING]);
}

gboolean
dyn_collection_get_more_pending (DynCollection *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION (self), FALSE);
  return collection_more_pending (self);
}

DynEntitySource
dyn_collection_model_get_entity_source (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), DYN_ENTITY_SOURCE_NONE);
  return dyn_entity_detector_get_source (self->entity);
}

const char *
dyn_collection_model_get_entity_attribute (DynCollectionModel *self)
{
  g_return_val_if_fail (DYN_IS_COLLECTION_MODEL (self), NULL);
  return dyn_entity_detector_get_attribute (self->entity);
}
