/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-entity"

#include "config.h"

#include <string.h>

#include "dyn-entity.h"

/* Every item of the first pages, then a sample: the decision needs the
 * shape of the data, not every row of a million. */
#define OBSERVE_ALL   4096
#define OBSERVE_EVERY 16

#define MAX_PREFIX       32
#define MAX_WORD         24
#define MAX_VALUE        40
#define MAX_PREFIXES     64
#define MAX_VALUES       32

#define N_SEPARATORS 3
static const char separators[N_SEPARATORS] = { '#', '|', ':' };

/* The discriminator attributes looked for, most specific first: the names
 * single-table libraries write (dynamodb-toolbox _et, ElectroDB __edb_e__,
 * OneTable _type, GraphQL __typename) and the names people give them. */
static const char * const candidates[] = {
  "EntityType", "entityType", "entity_type", "ENTITY_TYPE",
  "__edb_e__", "_et", "_type", "__typename",
  "ItemType", "itemType", "item_type", "RecordType", "recordType", "record_type",
  "Entity", "entity",
  "Type", "type", "TYPE", "Kind", "kind",
};

G_DEFINE_ENUM_TYPE (DynEntitySource, dyn_entity_source,
  G_DEFINE_ENUM_VALUE (DYN_ENTITY_SOURCE_NONE, "none"),
  G_DEFINE_ENUM_VALUE (DYN_ENTITY_SOURCE_ATTRIBUTE, "attribute"),
  G_DEFINE_ENUM_VALUE (DYN_ENTITY_SOURCE_SORT_KEY, "sort-key"),
  G_DEFINE_ENUM_VALUE (DYN_ENTITY_SOURCE_PARTITION_KEY, "partition-key"))

typedef struct {
  guint       n_strings;                /* string values observed */
  guint       n_with[N_SEPARATORS];     /* of them with a type-name prefix */
  GHashTable *prefixes[N_SEPARATORS];   /* prefix → count */
  gboolean    overflow[N_SEPARATORS];   /* more than MAX_PREFIXES distinct */
  guint       n_words;                  /* values without a separator that are words */
  GHashTable *words;                    /* those words → count */
  gboolean    words_overflow;
} KeyStats;

typedef struct {
  char       *name;
  guint       rank;        /* place in candidates[] */
  guint       n_strings;   /* short strings */
  guint       n_other;     /* other types, long strings */
  GHashTable *values;      /* value → count */
  gboolean    overflow;    /* more than MAX_VALUES distinct */
} AttributeStats;

struct _DynEntityDetector
{
  guint64          n_seen;
  guint            n_observed;
  KeyStats         keys[2];      /* partition, sort */
  GPtrArray       *attributes;   /* AttributeStats*: the candidates the read has */
  DynEntitySource  source;
  char            *attribute;
  char             separator;
};

static void
attribute_stats_free (gpointer data)
{
  AttributeStats *stats = data;

  g_free (stats->name);
  g_hash_table_unref (stats->values);
  g_free (stats);
}

static int
candidate_rank (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (strcmp (name, candidates[i]) == 0)
      return i;
  return -1;
}

gboolean
dyn_entity_detector_is_candidate (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);
  return candidate_rank (name) >= 0;
}

DynEntityDetector *
dyn_entity_detector_new (void)
{
  DynEntityDetector *self = g_new0 (DynEntityDetector, 1);

  for (guint k = 0; k < 2; k++)
    {
      for (guint s = 0; s < N_SEPARATORS; s++)
        self->keys[k].prefixes[s] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self->keys[k].words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    }
  self->attributes = g_ptr_array_new_with_free_func (attribute_stats_free);
  return self;
}

void
dyn_entity_detector_free (DynEntityDetector *self)
{
  if (self == NULL)
    return;
  for (guint k = 0; k < 2; k++)
    {
      for (guint s = 0; s < N_SEPARATORS; s++)
        g_hash_table_unref (self->keys[k].prefixes[s]);
      g_hash_table_unref (self->keys[k].words);
    }
  g_ptr_array_unref (self->attributes);
  g_free (self->attribute);
  g_free (self);
}

void
dyn_entity_detector_reset (DynEntityDetector *self)
{
  g_return_if_fail (self != NULL);

  self->n_seen = 0;
  self->n_observed = 0;
  for (guint k = 0; k < 2; k++)
    {
      KeyStats *stats = &self->keys[k];

      stats->n_strings = 0;
      for (guint s = 0; s < N_SEPARATORS; s++)
        {
          stats->n_with[s] = 0;
          stats->overflow[s] = FALSE;
          g_hash_table_remove_all (stats->prefixes[s]);
        }
      stats->n_words = 0;
      g_hash_table_remove_all (stats->words);
      stats->words_overflow = FALSE;
    }
  g_ptr_array_set_size (self->attributes, 0);
  self->source = DYN_ENTITY_SOURCE_NONE;
  g_clear_pointer (&self->attribute, g_free);
  self->separator = '\0';
}

void
dyn_entity_detector_note_attribute (DynEntityDetector *self,
                                    const char        *name)
{
  AttributeStats *stats;
  int rank;

  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL);

  rank = candidate_rank (name);
  if (rank < 0)
    return;
  for (guint i = 0; i < self->attributes->len; i++)
    if (strcmp (((AttributeStats *) self->attributes->pdata[i])->name, name) == 0)
      return;
  stats = g_new0 (AttributeStats, 1);
  stats->name = g_strdup (name);
  stats->rank = rank;
  stats->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_ptr_array_add (self->attributes, stats);
}

/* A type name: "PROJ", "order_line", "v2". */
static gboolean
is_type_name (const char *s,
              gsize       len)
{
  if (len == 0 || len > MAX_PREFIX)
    return FALSE;
  if (!g_ascii_isalpha (s[0]) && s[0] != '_')
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!g_ascii_isalnum (s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
      return FALSE;
  return TRUE;
}

/* A whole key value that names its item's type: "META", "PROFILE". */
static gboolean
is_word (const char *s,
         gsize       len)
{
  if (len == 0 || len > MAX_WORD)
    return FALSE;
  if (!g_ascii_isalpha (s[0]) && s[0] != '_')
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!g_ascii_isalpha (s[i]) && s[i] != '_' && s[i] != '-')
      return FALSE;
  return TRUE;
}

static const char *
intern_len (const char *s,
            gsize       len)
{
  char buf[MAX_VALUE + 1];

  g_assert (len <= MAX_VALUE);
  memcpy (buf, s, len);
  buf[len] = '\0';
  return g_intern_string (buf);
}

/* Where each separator first occurs in the first MAX_PREFIX + 1 bytes (a
 * longer prefix is no type name), or -1. */
static void
find_separators (const char *s,
                 gsize       len,
                 int         at[N_SEPARATORS])
{
  gsize n = MIN (len, MAX_PREFIX + 1);
  guint found = 0;

  for (guint k = 0; k < N_SEPARATORS; k++)
    at[k] = -1;
  for (gsize i = 0; i < n && found < N_SEPARATORS; i++)
    for (guint k = 0; k < N_SEPARATORS; k++)
      if (s[i] == separators[k] && at[k] < 0)
        {
          at[k] = i;
          found++;
        }
}

static void
count (GHashTable *table,
       const char *s,
       gsize       len,
       guint       max,
       gboolean   *overflow)
{
  char buf[MAX_VALUE + 1];
  gpointer key, value;

  g_assert (len <= MAX_VALUE);
  memcpy (buf, s, len);
  buf[len] = '\0';
  if (g_hash_table_lookup_extended (table, buf, &key, &value))
    g_hash_table_insert (table, g_strdup (buf), GUINT_TO_POINTER (GPOINTER_TO_UINT (value) + 1));
  else if (g_hash_table_size (table) < max)
    g_hash_table_insert (table, g_strdup (buf), GUINT_TO_POINTER (1));
  else
    *overflow = TRUE;
}

static void
observe_key (KeyStats       *stats,
             const DynValue *key)
{
  const char *s;
  gsize len;
  int at[N_SEPARATORS];

  if (key == NULL || dyn_value_get_value_type (key) != DYN_VALUE_S)
    return;
  s = dyn_value_get_string (key);
  len = dyn_value_get_string_length (key);
  stats->n_strings++;
  find_separators (s, len, at);
  if (at[0] < 0 && at[1] < 0 && at[2] < 0 && is_word (s, len))
    {
      stats->n_words++;
      if (!stats->words_overflow)
        count (stats->words, s, len, MAX_PREFIXES, &stats->words_overflow);
    }
  for (guint k = 0; k < N_SEPARATORS; k++)
    if (at[k] >= 0 && is_type_name (s, at[k]))
      {
        stats->n_with[k]++;
        if (!stats->overflow[k])
          count (stats->prefixes[k], s, at[k], MAX_PREFIXES, &stats->overflow[k]);
      }
}

/* A string of at most MAX_VALUE bytes without control characters. */
static gboolean
is_short_text (const char *s,
               gsize       len)
{
  if (len == 0 || len > MAX_VALUE)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] < 0x20)
      return FALSE;
  return TRUE;
}

void
dyn_entity_detector_observe (DynEntityDetector *self,
                             const DynValue    *item,
                             const DynValue    *pk,
                             const DynValue    *sk)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (item != NULL);

  self->n_seen++;
  if (self->n_seen > OBSERVE_ALL && self->n_seen % OBSERVE_EVERY != 0)
    return;
  self->n_observed++;
  observe_key (&self->keys[0], pk);
  observe_key (&self->keys[1], sk);
  for (guint i = 0; i < self->attributes->len; i++)
    {
      AttributeStats *stats = self->attributes->pdata[i];
      DynValue *v = dyn_value_map_lookup (item, stats->name);

      if (v == NULL)
        continue;
      if (dyn_value_get_value_type (v) == DYN_VALUE_S &&
          is_short_text (dyn_value_get_string (v), dyn_value_get_string_length (v)))
        {
          stats->n_strings++;
          if (!stats->overflow)
            count (stats->values, dyn_value_get_string (v), dyn_value_get_string_length (v), MAX_VALUES,
                   &stats->overflow);
        }
      else
        stats->n_other++;
    }
}

static gboolean
attribute_accepted (DynEntityDetector *self,
                    AttributeStats    *stats)
{
  guint distinct = g_hash_table_size (stats->values);

  return stats->n_strings >= 2 &&
         stats->n_other * 10 <= stats->n_strings &&
         stats->n_strings * 2 >= self->n_observed &&
         !stats->overflow &&
         distinct < stats->n_strings;
}

/* How many distinct labels a key prefix rule gives: the prefixes and the
 * words. */
static guint
n_labels (KeyStats *stats,
          guint     k)
{
  GHashTableIter iter;
  gpointer word;
  guint n = g_hash_table_size (stats->prefixes[k]);

  g_hash_table_iter_init (&iter, stats->words);
  while (g_hash_table_iter_next (&iter, &word, NULL))
    if (!g_hash_table_contains (stats->prefixes[k], word))
      n++;
  return n;
}

/* The separator of an acceptable key prefix rule (and how many distinct
 * labels it gives), or -1. */
static int
key_rule (KeyStats *stats,
          guint    *n_distinct)
{
  int best = -1;

  for (guint k = 0; k < N_SEPARATORS; k++)
    {
      guint n = stats->n_with[k];
      guint distinct = g_hash_table_size (stats->prefixes[k]);

      /* Enough prefixes, and with the words most values are labelled. */
      if (n < 2 || n * 4 < stats->n_strings || (n + stats->n_words) * 2 < stats->n_strings ||
          stats->overflow[k] || distinct >= n)
        continue;
      if (best < 0 || n > stats->n_with[best])
        best = k;
    }
  if (best >= 0)
    *n_distinct = n_labels (stats, best);
  return best;
}

gboolean
dyn_entity_detector_update (DynEntityDetector *self)
{
  AttributeStats *chosen = NULL;
  DynEntitySource source = DYN_ENTITY_SOURCE_NONE;
  char separator = '\0';
  gboolean changed;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->attributes->len; i++)
    {
      AttributeStats *stats = self->attributes->pdata[i];

      if ((chosen == NULL || stats->rank < chosen->rank) && attribute_accepted (self, stats))
        chosen = stats;
    }
  if (chosen != NULL)
    source = DYN_ENTITY_SOURCE_ATTRIBUTE;
  else
    {
      guint sk_distinct = 0, pk_distinct = 0;
      int sk = key_rule (&self->keys[1], &sk_distinct);
      int pk = key_rule (&self->keys[0], &pk_distinct);

      /* An inverted index: every sort key names the same thing (the
       * collection the item belongs to), the partition keys tell the
       * items apart. */
      if (sk >= 0 && !(sk_distinct == 1 && pk >= 0 && pk_distinct >= 2))
        {
          source = DYN_ENTITY_SOURCE_SORT_KEY;
          separator = separators[sk];
        }
      else if (pk >= 0)
        {
          source = DYN_ENTITY_SOURCE_PARTITION_KEY;
          separator = separators[pk];
        }
    }

  changed = source != self->source || separator != self->separator ||
            g_strcmp0 (chosen ? chosen->name : NULL, self->attribute) != 0;
  if (changed)
    {
      self->source = source;
      self->separator = separator;
      g_free (self->attribute);
      self->attribute = chosen ? g_strdup (chosen->name) : NULL;
      {
        g_autofree char *name = g_enum_to_string (DYN_TYPE_ENTITY_SOURCE, source);

        g_debug ("entity labels from %s %s %c", name, self->attribute ? self->attribute : "",
                 separator ? separator : ' ');
      }
    }
  return changed;
}

DynEntitySource
dyn_entity_detector_get_source (DynEntityDetector *self)
{
  g_return_val_if_fail (self != NULL, DYN_ENTITY_SOURCE_NONE);
  return self->source;
}

const char *
dyn_entity_detector_get_attribute (DynEntityDetector *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->attribute;
}

char
dyn_entity_detector_get_separator (DynEntityDetector *self)
{
  g_return_val_if_fail (self != NULL, '\0');
  return self->separator;
}

const char *
dyn_entity_key_label (const DynValue *key,
                      char            separator)
{
  const char *s;
  gsize len;
  int at[N_SEPARATORS];
  int k = -1;

  if (key == NULL || dyn_value_get_value_type (key) != DYN_VALUE_S)
    return NULL;
  for (guint i = 0; i < N_SEPARATORS; i++)
    if (separators[i] == separator)
      k = i;
  g_return_val_if_fail (k >= 0, NULL);

  s = dyn_value_get_string (key);
  len = dyn_value_get_string_length (key);
  find_separators (s, len, at);
  if (at[k] >= 0)
    return is_type_name (s, at[k]) ? intern_len (s, at[k]) : NULL;
  /* No separator in the first bytes: a word, or a long value. */
  return is_word (s, len) ? intern_len (s, len) : NULL;
}

const char *
dyn_entity_detector_label (DynEntityDetector *self,
                           const DynValue    *item,
                           const DynValue    *pk,
                           const DynValue    *sk)
{
  DynValue *v;

  g_return_val_if_fail (self != NULL, NULL);

  switch (self->source)
    {
    case DYN_ENTITY_SOURCE_ATTRIBUTE:
      v = item != NULL ? dyn_value_map_lookup (item, self->attribute) : NULL;
      if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_S ||
          !is_short_text (dyn_value_get_string (v), dyn_value_get_string_length (v)))
        return NULL;
      return intern_len (dyn_value_get_string (v), dyn_value_get_string_length (v));
    case DYN_ENTITY_SOURCE_SORT_KEY:
      return dyn_entity_key_label (sk, self->separator);
    case DYN_ENTITY_SOURCE_PARTITION_KEY:
      return dyn_entity_key_label (pk, self->separator);
    case DYN_ENTITY_SOURCE_NONE:
    default:
      return NULL;
    }
}
