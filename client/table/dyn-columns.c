/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-columns"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dyn-columns.h"
#include "dyn-diff.h"
#include "dyn-error.h"

/* ------------------------------------------------------------------------ */
/* DynColumn */

struct _DynColumn
{
  gatomicrefcount  ref_count;
  DynColumnKind    kind;
  char            *key;
  char            *name;
  char            *title;
  DynExprPath     *path;
  gboolean         visible;
  int              width;
};

G_DEFINE_BOXED_TYPE (DynColumn, dyn_column, dyn_column_ref, dyn_column_unref)

static DynColumn *
column_new (DynColumnKind  kind,
            DynExprPath   *path)   /* taken */
{
  DynColumn *self = g_new0 (DynColumn, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->path = path;
  self->visible = TRUE;
  if (kind == DYN_COLUMN_ATTRIBUTE)
    {
      self->name = g_strdup (dyn_expr_path_get_name (path, 0, NULL));
      self->title = g_strdup (self->name);
      self->key = g_strconcat ("a:", self->name, NULL);
    }
  else
    {
      self->name = dyn_expr_path_to_string (path);
      self->title = dyn_path_to_display (path);
      self->key = g_strconcat ("p:", self->name, NULL);
    }
  return self;
}

static DynColumn *
attribute_column_new (const char *name)
{
  return column_new (DYN_COLUMN_ATTRIBUTE, dyn_expr_path_new (name));
}

DynColumn *
dyn_column_ref (DynColumn *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_column_unref (DynColumn *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->key);
  g_free (self->name);
  g_free (self->title);
  dyn_expr_path_free (self->path);
  g_free (self);
}

const char *
dyn_column_get_key (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->key;
}

DynColumnKind
dyn_column_get_kind (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, DYN_COLUMN_ATTRIBUTE);

  return self->kind;
}

const char *
dyn_column_get_name (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->name;
}

const char *
dyn_column_get_title (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->title;
}

const DynExprPath *
dyn_column_get_path (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->path;
}

gboolean
dyn_column_get_visible (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->visible;
}

int
dyn_column_get_width (const DynColumn *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->width;
}

DynValue *
dyn_column_lookup (const DynColumn *self,
                   const DynValue  *item)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (item == NULL || dyn_value_get_value_type (item) != DYN_VALUE_M)
    return NULL;
  if (self->kind == DYN_COLUMN_ATTRIBUTE)
    return dyn_value_map_lookup (item, self->name);
  return dyn_path_lookup (item, self->path);
}

/* The place of a type among mixed types (see dyn_column_compare_values()). */
static int
type_rank (DynValueType type)
{
  switch (type)
    {
    case DYN_VALUE_N: return 0;
    case DYN_VALUE_S: return 1;
    case DYN_VALUE_B: return 2;
    case DYN_VALUE_BOOL: return 3;
    case DYN_VALUE_SS: return 4;
    case DYN_VALUE_NS: return 5;
    case DYN_VALUE_BS: return 6;
    case DYN_VALUE_L: return 7;
    case DYN_VALUE_M: return 8;
    case DYN_VALUE_NULL: return 9;
    default: return 10;
    }
}

int
dyn_column_compare_values (const DynValue *a,
                           const DynValue *b,
                           gboolean        descending)
{
  int ra, rb, r;

  /* Missing last, whichever the direction. */
  if (a == NULL || b == NULL)
    return (a == NULL) - (b == NULL);
  ra = type_rank (dyn_value_get_value_type (a));
  rb = type_rank (dyn_value_get_value_type (b));
  if (ra != rb)
    r = ra < rb ? -1 : 1;
  else
    r = dyn_value_compare (a, b);
  return descending ? -r : r;
}

int
dyn_column_compare_items (const DynColumn *self,
                          DynItemObject   *a,
                          DynItemObject   *b,
                          gboolean         descending)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (a) && DYN_IS_ITEM_OBJECT (b), 0);

  return dyn_column_compare_values (dyn_column_lookup (self, dyn_item_object_get_item (a)),
                                    dyn_column_lookup (self, dyn_item_object_get_item (b)),
                                    descending);
}

/* ------------------------------------------------------------------------ */
/* DynColumnSet */

#define NOT_SEEN G_MAXUINT

typedef struct {
  DynColumn *column;
  gboolean   present;   /* listed: a noted attribute, or a path column */
  guint      seen;      /* where it was in the last list noted, NOT_SEEN */
} Entry;

struct _DynColumnSet
{
  GObject     parent_instance;

  GPtrArray  *entries;  /* Entry*, in order, listed or not */
  GHashTable *by_key;   /* key → Entry* */
  GPtrArray  *listed;   /* DynColumn*, borrowed from the entries */
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynColumnSet, dyn_column_set, G_TYPE_OBJECT)

static guint signals[N_SIGNALS];

static void
entry_free (Entry *entry)
{
  dyn_column_unref (entry->column);
  g_free (entry);
}

static Entry *
entry_new (DynColumn *column)   /* taken */
{
  Entry *entry = g_new0 (Entry, 1);

  entry->column = column;
  entry->seen = NOT_SEEN;
  entry->present = column->kind == DYN_COLUMN_PATH;
  return entry;
}

static void
relist (DynColumnSet *self)
{
  g_ptr_array_set_size (self->listed, 0);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];

      if (entry->present)
        g_ptr_array_add (self->listed, entry->column);
    }
}

static void
changed (DynColumnSet *self)
{
  relist (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
add_entry (DynColumnSet *self,
           Entry        *entry,
           guint         position)
{
  g_ptr_array_insert (self->entries, position > self->entries->len ? -1 : (int) position, entry);
  g_hash_table_insert (self->by_key, entry->column->key, entry);
}

static void
remove_entry (DynColumnSet *self,
              Entry        *entry)
{
  g_hash_table_remove (self->by_key, entry->column->key);
  g_ptr_array_remove (self->entries, entry);
}

static void
dyn_column_set_finalize (GObject *object)
{
  DynColumnSet *self = DYN_COLUMN_SET (object);

  g_hash_table_unref (self->by_key);
  g_ptr_array_unref (self->entries);
  g_ptr_array_unref (self->listed);

  G_OBJECT_CLASS (dyn_column_set_parent_class)->finalize (object);
}

static void
dyn_column_set_class_init (DynColumnSetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_column_set_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
dyn_column_set_init (DynColumnSet *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  self->listed = g_ptr_array_new ();
}

DynColumnSet *
dyn_column_set_new (void)
{
  return g_object_new (DYN_TYPE_COLUMN_SET, NULL);
}

static Entry *
lookup_entry (DynColumnSet *self,
              const char   *key)
{
  return key ? g_hash_table_lookup (self->by_key, key) : NULL;
}

static Entry *
lookup_attribute (DynColumnSet *self,
                  const char   *name)
{
  g_autofree char *key = g_strconcat ("a:", name, NULL);

  return lookup_entry (self, key);
}

/* A path column of one name (added before any item had the attribute). */
static Entry *
lookup_single_path (DynColumnSet *self,
                    const char   *name)
{
  g_autoptr(DynExprPath) path = dyn_expr_path_new (name);
  g_autofree char *text = dyn_expr_path_to_string (path);
  g_autofree char *key = g_strconcat ("p:", text, NULL);

  return lookup_entry (self, key);
}

gboolean
dyn_column_set_note_attributes (DynColumnSet       *self,
                                const char * const *names,
                                int                 n)
{
  gboolean any = FALSE;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  if (names == NULL)
    return FALSE;
  if (n < 0)
    n = (int) g_strv_length ((char **) names);
  for (int i = 0; i < n; i++)
    {
      Entry *entry = lookup_attribute (self, names[i]);

      if (entry == NULL)
        {
          Entry *single = lookup_single_path (self, names[i]);

          entry = entry_new (attribute_column_new (names[i]));
          if (single != NULL)
            {
              guint at = 0;

              /* The path column stood for this attribute: the attribute's
               * column takes its place, shown and sized as it was. */
              g_ptr_array_find (self->entries, single, &at);
              entry->column->visible = single->column->visible;
              entry->column->width = single->column->width;
              remove_entry (self, single);
              add_entry (self, entry, at);
            }
          else
            add_entry (self, entry, G_MAXUINT);
        }
      entry->seen = (guint) i;
      if (!entry->present)
        {
          entry->present = TRUE;
          any = TRUE;
        }
    }
  if (any)
    changed (self);
  return any;
}

void
dyn_column_set_forget_attributes (DynColumnSet *self)
{
  gboolean any = FALSE;

  g_return_if_fail (DYN_IS_COLUMN_SET (self));

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];

      if (entry->column->kind != DYN_COLUMN_ATTRIBUTE)
        continue;
      entry->seen = NOT_SEEN;
      if (entry->present)
        {
          entry->present = FALSE;
          any = TRUE;
        }
    }
  if (any)
    changed (self);
}

guint
dyn_column_set_get_n_columns (DynColumnSet *self)
{
  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), 0);

  return self->listed->len;
}

DynColumn *
dyn_column_set_get_column (DynColumnSet *self,
                           guint         position)
{
  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), NULL);
  g_return_val_if_fail (position < self->listed->len, NULL);

  return self->listed->pdata[position];
}

DynColumn *
dyn_column_set_lookup_key (DynColumnSet *self,
                           const char   *key)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), NULL);

  entry = lookup_entry (self, key);
  return entry != NULL && entry->present ? entry->column : NULL;
}

DynColumn *
dyn_column_set_lookup (DynColumnSet *self,
                       const char   *name)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  entry = lookup_attribute (self, name);
  if (entry != NULL && entry->present)
    return entry->column;
  for (guint i = 0; i < self->listed->len; i++)
    {
      DynColumn *column = self->listed->pdata[i];

      if (column->kind == DYN_COLUMN_PATH && strcmp (column->name, name) == 0)
        return column;
    }
  return NULL;
}

guint
dyn_column_set_find (DynColumnSet *self,
                     const char   *key)
{
  DynColumn *column;
  guint position;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), G_MAXUINT);

  column = dyn_column_set_lookup_key (self, key);
  if (column == NULL || !g_ptr_array_find (self->listed, column, &position))
    return G_MAXUINT;
  return position;
}

/* The path of @text, or NULL with the error. */
static DynExprPath *
parse_column_path (const char  *text,
                   GError     **error)
{
  g_autoptr(DynExprPath) path = NULL;
  g_autofree char *stripped = g_strstrip (g_strdup (text ? text : ""));

  if (*stripped == '\0')
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                           _("Type a document path, such as info.rating or tags[0]"));
      return NULL;
    }
  path = dyn_expr_path_parse (stripped, error);
  if (path == NULL)
    return NULL;
  for (guint i = 0; i < dyn_expr_path_get_length (path); i++)
    {
      gboolean placeholder = FALSE;

      if (!dyn_expr_path_is_index (path, i))
        dyn_expr_path_get_name (path, i, &placeholder);
      if (placeholder)
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                               _("A column path names attributes itself: write the name instead of a #placeholder"));
          return NULL;
        }
    }
  if (dyn_expr_path_is_index (path, 0))
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                           _("A document path starts with an attribute name"));
      return NULL;
    }
  return g_steal_pointer (&path);
}

DynColumn *
dyn_column_set_add_path (DynColumnSet  *self,
                         const char    *text,
                         GError       **error)
{
  g_autoptr(DynExprPath) path = NULL;
  Entry *entry;
  guint last = 0;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), NULL);

  path = parse_column_path (text, error);
  if (path == NULL)
    return NULL;
  if (dyn_expr_path_get_length (path) == 1)
    {
      entry = lookup_attribute (self, dyn_expr_path_get_name (path, 0, NULL));
      if (entry != NULL && entry->present)
        {
          if (!entry->column->visible)
            {
              entry->column->visible = TRUE;
              changed (self);
            }
          return entry->column;
        }
    }
  {
    g_autoptr(DynColumn) column = column_new (DYN_COLUMN_PATH, g_steal_pointer (&path));

    entry = lookup_entry (self, column->key);
    if (entry != NULL)
      {
        if (!entry->column->visible)
          {
            entry->column->visible = TRUE;
            changed (self);
          }
        return entry->column;
      }
    entry = entry_new (g_steal_pointer (&column));
  }
  /* After the last listed column. */
  for (guint i = 0; i < self->entries->len; i++)
    if (((Entry *) self->entries->pdata[i])->present)
      last = i + 1;
  add_entry (self, entry, last);
  changed (self);
  return entry->column;
}

gboolean
dyn_column_set_remove_path (DynColumnSet *self,
                            const char   *key)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  entry = lookup_entry (self, key);
  if (entry == NULL || entry->column->kind != DYN_COLUMN_PATH)
    return FALSE;
  remove_entry (self, entry);
  changed (self);
  return TRUE;
}

gboolean
dyn_column_set_set_visible (DynColumnSet *self,
                            const char   *key,
                            gboolean      visible)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  entry = lookup_entry (self, key);
  if (entry == NULL)
    return FALSE;
  visible = !!visible;
  if (entry->column->visible != visible)
    {
      entry->column->visible = visible;
      changed (self);
    }
  return TRUE;
}

gboolean
dyn_column_set_show_all (DynColumnSet *self)
{
  gboolean any = FALSE;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  for (guint i = 0; i < self->listed->len; i++)
    {
      DynColumn *column = self->listed->pdata[i];

      any |= !column->visible;
      column->visible = TRUE;
    }
  if (any)
    changed (self);
  return any;
}

gboolean
dyn_column_set_move (DynColumnSet *self,
                     const char   *key,
                     guint         position)
{
  Entry *entry, *target;
  guint from, at, to;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  entry = lookup_entry (self, key);
  if (entry == NULL || !entry->present || self->listed->len == 0)
    return FALSE;
  position = MIN (position, self->listed->len - 1);
  g_ptr_array_find (self->listed, entry->column, &from);
  if (from == position)
    return TRUE;
  /* Take the place of the listed column there: before it when moving up,
   * after it when moving down. */
  target = lookup_entry (self, ((DynColumn *) self->listed->pdata[position])->key);
  g_ptr_array_find (self->entries, entry, &at);
  g_ptr_array_steal_index (self->entries, at);
  g_ptr_array_find (self->entries, target, &to);
  g_ptr_array_insert (self->entries, (int) (position > from ? to + 1 : to), entry);
  changed (self);
  return TRUE;
}

gboolean
dyn_column_set_reorder (DynColumnSet       *self,
                        const char * const *keys)
{
  g_autoptr(GPtrArray) wanted = g_ptr_array_new ();
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean any = FALSE;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  /* The listed entries @keys names, in its order. */
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      Entry *entry = lookup_entry (self, keys[i]);

      if (entry != NULL && entry->present && !g_ptr_array_find (wanted, entry, NULL))
        g_ptr_array_add (wanted, entry);
    }
  /* The places they hold now, in order; they are refilled in the new order. */
  for (guint i = 0; i < self->entries->len; i++)
    if (g_ptr_array_find (wanted, self->entries->pdata[i], NULL))
      g_array_append_val (slots, i);
  for (guint i = 0; i < wanted->len; i++)
    {
      guint slot = g_array_index (slots, guint, i);

      if (self->entries->pdata[slot] != wanted->pdata[i])
        {
          self->entries->pdata[slot] = wanted->pdata[i];
          any = TRUE;
        }
    }
  if (any)
    changed (self);
  return any;
}

gboolean
dyn_column_set_set_width (DynColumnSet *self,
                          const char   *key,
                          int           width)
{
  Entry *entry;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  entry = lookup_entry (self, key);
  if (entry == NULL)
    return FALSE;
  width = MAX (width, 0);
  if (entry->column->width != width)
    {
      entry->column->width = width;
      changed (self);
    }
  return TRUE;
}

static int
seen_cmp (gconstpointer a,
          gconstpointer b)
{
  const Entry *ea = *(const Entry **) a;
  const Entry *eb = *(const Entry **) b;

  return ea->seen < eb->seen ? -1 : ea->seen > eb->seen;
}

void
dyn_column_set_reset (DynColumnSet *self)
{
  g_return_if_fail (DYN_IS_COLUMN_SET (self));

  for (guint i = self->entries->len; i > 0; i--)
    {
      Entry *entry = self->entries->pdata[i - 1];

      if (entry->column->kind == DYN_COLUMN_PATH)
        remove_entry (self, entry);
      else
        {
          entry->column->visible = TRUE;
          entry->column->width = 0;
        }
    }
  /* Stable: attributes never noted keep their order after the others. */
  g_ptr_array_sort (self->entries, seen_cmp);
  changed (self);
}

gboolean
dyn_column_set_is_customized (DynColumnSet *self)
{
  guint last_seen = 0;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];

      if (entry->column->kind == DYN_COLUMN_PATH || !entry->column->visible || entry->column->width > 0)
        return TRUE;
      if (!entry->present)
        continue;
      if (entry->seen < last_seen)
        return TRUE;
      last_seen = entry->seen;
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Persistence */

#define KEY_COLUMNS "columns"
#define KEY_HIDDEN "hidden"
#define KEY_WIDTHS "widths"

char *
dyn_columns_get_default_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "dynoscope", "columns.ini", NULL);
}

char *
dyn_columns_make_group (const char *connection_id,
                        const char *table)
{
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (connection_id != NULL && table != NULL, NULL);

  /* Escaped: a group name cannot hold "[", "]" or control characters. */
  id = g_uri_escape_string (connection_id, NULL, FALSE);
  name = g_uri_escape_string (table, NULL, FALSE);
  return g_strconcat (id, "/", name, NULL);
}

/* A column from its saved key, or NULL. */
static DynColumn *
column_from_key (const char *key)
{
  if (g_str_has_prefix (key, "a:") && key[2] != '\0')
    return attribute_column_new (key + 2);
  if (g_str_has_prefix (key, "p:"))
    {
      g_autoptr(GError) error = NULL;
      DynExprPath *path = parse_column_path (key + 2, &error);

      if (path == NULL)
        {
          g_debug ("saved column %s: %s", key, error->message);
          return NULL;
        }
      return column_new (DYN_COLUMN_PATH, path);
    }
  return NULL;
}

gboolean
dyn_column_set_load (DynColumnSet *self,
                     GKeyFile     *file,
                     const char   *group)
{
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) hidden = NULL;
  g_autofree int *widths = NULL;
  gsize n_keys = 0, n_widths = 0;
  g_autoptr(GPtrArray) before = NULL;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);
  g_return_val_if_fail (file != NULL && group != NULL, FALSE);

  if (!g_key_file_has_group (file, group))
    return FALSE;
  keys = g_key_file_get_string_list (file, group, KEY_COLUMNS, &n_keys, NULL);
  hidden = g_key_file_get_string_list (file, group, KEY_HIDDEN, NULL, NULL);
  widths = g_key_file_get_integer_list (file, group, KEY_WIDTHS, &n_widths, NULL);

  /* What was noted stays noted. */
  before = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  while (self->entries->len > 0)
    g_ptr_array_add (before, g_ptr_array_steal_index (self->entries, 0));
  g_hash_table_remove_all (self->by_key);

  for (gsize i = 0; i < n_keys; i++)
    {
      DynColumn *column = column_from_key (keys[i]);
      Entry *entry;

      if (column == NULL || lookup_entry (self, column->key) != NULL)
        {
          g_clear_pointer (&column, dyn_column_unref);
          continue;
        }
      entry = entry_new (column);
      column->visible = hidden == NULL || !g_strv_contains ((const char * const *) hidden, column->key);
      column->width = i < n_widths ? MAX (widths[i], 0) : 0;
      add_entry (self, entry, G_MAXUINT);
    }
  for (guint i = 0; i < before->len; i++)
    {
      Entry *old = before->pdata[i];
      Entry *entry;

      if (old->column->kind != DYN_COLUMN_ATTRIBUTE)
        continue;
      entry = lookup_entry (self, old->column->key);
      if (entry == NULL)
        {
          /* Not in the saved layout: after it, as it was. */
          entry = entry_new (dyn_column_ref (old->column));
          add_entry (self, entry, G_MAXUINT);
        }
      entry->present = old->present;
      entry->seen = old->seen;
    }
  changed (self);
  return TRUE;
}

void
dyn_column_set_save (DynColumnSet *self,
                     GKeyFile     *file,
                     const char   *group)
{
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GPtrArray) hidden = NULL;
  g_autoptr(GArray) widths = NULL;

  g_return_if_fail (DYN_IS_COLUMN_SET (self));
  g_return_if_fail (file != NULL && group != NULL);

  g_key_file_remove_group (file, group, NULL);
  if (!dyn_column_set_is_customized (self))
    return;
  keys = g_ptr_array_new ();
  hidden = g_ptr_array_new ();
  widths = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint i = 0; i < self->entries->len; i++)
    {
      DynColumn *column = ((Entry *) self->entries->pdata[i])->column;

      g_ptr_array_add (keys, column->key);
      g_array_append_val (widths, column->width);
      if (!column->visible)
        g_ptr_array_add (hidden, column->key);
    }
  g_key_file_set_string_list (file, group, KEY_COLUMNS, (const char * const *) keys->pdata, keys->len);
  if (hidden->len > 0)
    g_key_file_set_string_list (file, group, KEY_HIDDEN, (const char * const *) hidden->pdata, hidden->len);
  g_key_file_set_integer_list (file, group, KEY_WIDTHS, (int *) (void *) widths->data, widths->len);
}

static gboolean
read_key_file (GKeyFile    *file,
               const char  *path,
               GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (g_key_file_load_from_file (file, path, G_KEY_FILE_KEEP_COMMENTS, &local))
    return TRUE;
  if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
dyn_column_set_load_file (DynColumnSet  *self,
                          const char    *path,
                          const char    *group,
                          GError       **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);
  g_return_val_if_fail (path != NULL && group != NULL, FALSE);

  if (!read_key_file (file, path, error))
    return FALSE;
  dyn_column_set_load (self, file, group);
  return TRUE;
}

gboolean
dyn_column_set_save_file (DynColumnSet  *self,
                          const char    *path,
                          const char    *group,
                          GError       **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *dir = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_return_val_if_fail (DYN_IS_COLUMN_SET (self), FALSE);
  g_return_val_if_fail (path != NULL && group != NULL, FALSE);

  /* A file we cannot read is not overwritten. */
  if (!read_key_file (file, path, error))
    return FALSE;
  before = g_key_file_to_data (file, NULL, NULL);
  dyn_column_set_save (self, file, group);
  after = g_key_file_to_data (file, NULL, NULL);
  /* Nothing to write (a table never arranged): no file is touched. */
  if (g_strcmp0 (before, after) == 0)
    return TRUE;
  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (file, path, error);
}

/* ------------------------------------------------------------------------ */
/* Sorting */

static const DynIndexInfo *
plan_source (const DynTableKeys *keys,
             const DynExprPlan  *plan)
{
  return dyn_table_keys_lookup (keys, plan->index_name);
}

gboolean
dyn_columns_read_is_ordered_by (const DynTableKeys *keys,
                                DynReadRequest     *read,
                                const char         *attribute,
                                gboolean            descending)
{
  const DynExprPlan *plan;
  const DynRequest *request;
  const DynIndexInfo *source;

  g_return_val_if_fail (attribute != NULL, FALSE);

  if (keys == NULL || read == NULL || !dyn_read_request_is_valid (read))
    return FALSE;
  plan = dyn_read_request_get_plan (read);
  request = dyn_read_request_get_request (read);
  if (plan == NULL || request == NULL || plan->operation != DYN_EXPR_PLAN_QUERY)
    return FALSE;
  source = plan_source (keys, plan);
  return source != NULL && g_strcmp0 (source->keys.sort_key, attribute) == 0 &&
         !request->scan_forward == !!descending;
}

/* The items @plan reads: its key condition and filter as one condition
 * (new), or NULL when it reads everything. */
static DynExprNode *
plan_condition (const DynExprPlan *plan)
{
  DynExprNode *both;

  if (plan->key_condition == NULL && plan->filter == NULL)
    return NULL;
  if (plan->key_condition == NULL || plan->filter == NULL)
    return dyn_expr_node_copy (plan->key_condition ? plan->key_condition : plan->filter);
  both = dyn_expr_node_new (DYN_EXPR_AND);
  dyn_expr_node_add_child (both, dyn_expr_node_copy (plan->key_condition));
  dyn_expr_node_add_child (both, dyn_expr_node_copy (plan->filter));
  return both;
}

gboolean
dyn_columns_find_ordered_query (const DynTableKeys  *keys,
                                DynReadRequest      *read,
                                const char          *attribute,
                                char               **index_name)
{
  const DynExprPlan *plan;
  g_autoptr(DynExprNode) condition = NULL;

  g_return_val_if_fail (attribute != NULL, FALSE);

  if (index_name != NULL)
    *index_name = NULL;
  if (keys == NULL || read == NULL || !dyn_read_request_is_valid (read))
    return FALSE;
  plan = dyn_read_request_get_plan (read);
  if (plan == NULL)
    return FALSE;
  condition = plan_condition (plan);
  /* Without a condition there is no partition-key equality to Query by. */
  if (condition == NULL)
    return FALSE;
  for (guint i = 0; i <= keys->indexes->len; i++)
    {
      const DynIndexInfo *info = i == 0 ? &keys->table : keys->indexes->pdata[i - 1];
      const char *name = i == 0 ? NULL : info->name;
      g_autoptr(DynExprPlan) other = NULL;

      if (g_strcmp0 (info->keys.sort_key, attribute) != 0)
        continue;
      /* Another source must not return less of each item. */
      if (i > 0 && info->projection != DYN_PROJECTION_ALL)
        continue;
      if (g_strcmp0 (name, plan->index_name) == 0 && plan->operation == DYN_EXPR_PLAN_QUERY)
        continue;
      other = dyn_expr_plan_condition (keys, name, condition, NULL);
      if (other == NULL || other->operation != DYN_EXPR_PLAN_QUERY)
        continue;
      if (index_name != NULL)
        *index_name = g_strdup (name);
      return TRUE;
    }
  return FALSE;
}

char *
dyn_columns_describe_sort (const char *title,
                           gboolean    descending,
                           gboolean    grouped,
                           guint       n_items,
                           gboolean    complete,
                           gboolean    ordered,
                           const char *index_name)
{
  g_autofree char *by = NULL;

  g_return_val_if_fail (title != NULL, NULL);

  /* Translators: a column's title, sorted from the highest value down */
  by = descending ? g_strdup_printf (_("%s (descending)"), title) : g_strdup (title);
  if (ordered && index_name != NULL)
    /* Translators: the first %s is a column ("Price" or "Price (descending)"),
     * the second an index */
    return g_strdup_printf (_("Sorted by %s, the order in which the Query on index %s returns the items: Load More continues it"),
                            by, index_name);
  if (ordered)
    /* Translators: %s is a column ("Price" or "Price (descending)") */
    return g_strdup_printf (_("Sorted by %s, the order in which the Query on the table returns the items: Load More continues it"),
                            by);
  if (complete && grouped)
    /* Translators: %s is a column; %u how many items */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Sorted by %s within each item collection, over the %u item read",
                                         "Sorted by %s within each item collection, over all %u items read",
                                         n_items),
                            by, n_items);
  if (complete)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Sorted by %s over the %u item read",
                                         "Sorted by %s over all %u items read", n_items),
                            by, n_items);
  if (grouped)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Sorted by %s within each item collection, over the %u loaded item — not the whole table",
                                         "Sorted by %s within each item collection, over the %u loaded items — not the whole table",
                                         n_items),
                            by, n_items);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Sorted by %s over the %u loaded item — not the whole table",
                                       "Sorted by %s over the %u loaded items — not the whole table", n_items),
                          by, n_items);
}
