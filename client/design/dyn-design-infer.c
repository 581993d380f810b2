/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-design"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyn-design.h"
#include "dyn-entity.h"
#include "dyn-pager.h"
#include "dyn-table.h"

/*
 * Inferring a model from DescribeTable and a sample of items.
 *
 * 1. Entities: DynEntityDetector decides where the labels come from (a
 *    discriminator attribute, a sort-key or a partition-key prefix). A sort
 *    key that is a whole word ("META", "PROFILE") labels nothing by itself:
 *    the item is the entity its partition key's prefix names ("WS#acme" /
 *    "META" is a Workspace). Without any label the table is one entity,
 *    named after the table in the singular ("Movies" → "Movie").
 * 2. Key templates, per entity and key attribute (the table's and each
 *    index's): the values split on their separator; a segment with one value
 *    that looks like a name ("PROJ", "META", "$app") stays literal, the others
 *    become fields. A field is named, in this order, after an attribute of
 *    the same items with the segment's value (workspaceId = "acme"), a field
 *    of another key of the same entity with the same values, the parent's
 *    field in a shared partition key, the name written into the segment
 *    ("tenant_" of ElectroDB's "tenant_acme"), the entity the literal before
 *    it names ("WS#…" → workspaceId, "CRS#…" → courseId: the prefix names an
 *    entity, its id is "<entity>Id"), the key attribute itself when it holds
 *    one entity's plain value (Movies' "{year}"), else "<entity>Id". Digit
 *    segments of one width with leading zeros are padded fields
 *    ("{orderId:08}", type N); a numeric or binary key is a whole-value field.
 * 3. Attributes with their most frequent type (the others are named in the
 *    entity's description), required when on every sampled item.
 * 4. Relationships: entities with the same partition-key template are 1:n,
 *    the parent being the one whose sort key is constant or repeats the
 *    partition key; a child whose sort key embeds another entity's partition
 *    key ("ENROLL#CRS#{courseId}") and that an index keys by it (GSI1PK =
 *    "CRS#{courseId}") is the edge of an n:m between the two.
 * 5. Access patterns as a start: a get per entity, a list per child in its
 *    parent's collection (or per entity in its own partition), a list per
 *    global secondary index an entity is in.
 */

#define MAX_EXAMPLES      3
#define MAX_ENUM_VALUES   8
#define SAMPLE_DEFAULT    1000

static const char separators[] = { '#', '|', ':' };

/* Prefixes single-table designs abbreviate, and the entity they name. */
static const struct { const char *prefix; const char *name; } abbreviations[] = {
  { "WS", "Workspace" }, { "PROJ", "Project" }, { "PRJ", "Project" },
  { "STU", "Student" }, { "CRS", "Course" }, { "ENROLL", "Enrollment" },
  { "USR", "User" }, { "CUST", "Customer" }, { "ORD", "Order" },
  { "ORG", "Organization" }, { "ACCT", "Account" }, { "ACC", "Account" },
  { "INV", "Invoice" }, { "PROD", "Product" }, { "EMP", "Employee" },
  { "DEPT", "Department" }, { "TKT", "Ticket" }, { "MSG", "Message" },
  { "EVT", "Event" }, { "CAT", "Category" }, { "ADDR", "Address" },
  { "TXN", "Transaction" }, { "PAY", "Payment" }, { "SUB", "Subscription" },
};

/* Whole sort-key words that mark "the entity of this partition" itself. */
static const char * const marker_words[] = {
  "META", "METADATA", "PROFILE", "INFO", "DETAILS", "DETAIL", "ROOT", "A", "ITEM", "SELF",
};

/* ------------------------------------------------------------------------ */
/* Text helpers */

static gboolean
is_type_name (const char *s)
{
  if (s == NULL || s[0] == '\0' || strlen (s) > 32)
    return FALSE;
  if (!g_ascii_isalpha (s[0]) && s[0] != '_')
    return FALSE;
  for (const char *p = s + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-' && *p != '.')
      return FALSE;
  return TRUE;
}

static gboolean
is_word (const char *s)
{
  if (s == NULL || s[0] == '\0' || strlen (s) > 24)
    return FALSE;
  if (!g_ascii_isalpha (s[0]) && s[0] != '_')
    return FALSE;
  for (const char *p = s + 1; *p != '\0'; p++)
    if (!g_ascii_isalpha (*p) && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

/* "CRS", "ACTIVE", "V2": a constant in the middle of a key. */
static gboolean
is_upper_word (const char *s)
{
  if (s == NULL || !g_ascii_isupper (s[0]))
    return FALSE;
  for (const char *p = s + 1; *p != '\0'; p++)
    if (!g_ascii_isupper (*p) && !g_ascii_isdigit (*p) && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

static gboolean
is_marker_word (const char *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (marker_words); i++)
    if (g_ascii_strcasecmp (s, marker_words[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_digits (const char *s)
{
  if (s == NULL || s[0] == '\0')
    return FALSE;
  for (const char *p = s; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* "ORDER_LINE" → "OrderLine", "users" → "Users", "userProfile" →
 * "UserProfile", "WS" → "Workspace" (a known abbreviation). */
static char *
label_to_name (const char *label)
{
  GString *out = g_string_new (NULL);
  gboolean has_upper = FALSE, has_lower = FALSE, start = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (abbreviations); i++)
    if (g_ascii_strcasecmp (label, abbreviations[i].prefix) == 0)
      {
        g_string_free (out, TRUE);
        return g_strdup (abbreviations[i].name);
      }
  for (const char *p = label; *p != '\0'; p++)
    {
      has_upper |= g_ascii_isupper (*p);
      has_lower |= g_ascii_islower (*p);
    }
  for (const char *p = label; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p))
        {
          start = TRUE;
          continue;
        }
      if (start)
        g_string_append_c (out, g_ascii_toupper (*p));
      else if (has_upper && has_lower)
        g_string_append_c (out, *p);
      else
        g_string_append_c (out, g_ascii_tolower (*p));
      start = FALSE;
    }
  if (out->len == 0)
    g_string_append (out, "Item");
  else if (g_ascii_isdigit (out->str[0]))
    g_string_prepend (out, "E");
  return g_string_free (out, FALSE);
}

/* "Workspace" → "workspace", "SKU" → "sku". */
static char *
lower_camel (const char *name)
{
  char *out = g_strdup (name);
  gboolean all_upper = TRUE;

  for (char *p = out; *p != '\0'; p++)
    if (g_ascii_islower (*p))
      all_upper = FALSE;
  if (all_upper)
    {
      g_free (out);
      return g_ascii_strdown (name, -1);
    }
  out[0] = g_ascii_tolower (out[0]);
  return out;
}

/* "Movies" → "Movie", "Addresses" → "Address", "Categories" → "Category". */
static char *
singular (const char *name)
{
  gsize len = strlen (name);

  /* "Movies", "Cookies": the y-rule does not apply after v, k, b. */
  if (len > 4 && g_str_has_suffix (name, "ies") && strchr ("vkbVKB", name[len - 4]) == NULL)
    return g_strdup_printf ("%.*sy", (int) (len - 3), name);
  if (len > 3 && (g_str_has_suffix (name, "sses") || g_str_has_suffix (name, "xes") ||
                  g_str_has_suffix (name, "ches") || g_str_has_suffix (name, "shes")))
    return g_strndup (name, len - 2);
  if (len > 1 && name[len - 1] == 's' && name[len - 2] != 's')
    return g_strndup (name, len - 1);
  return g_strdup (name);
}

/* The entity of a table without labels: "Movies" → "Movie",
 * "prod-order_items" → "ProdOrderItem", "Movies-2024-1" → "Movie". */
static char *
table_entity_name (const char *table)
{
  g_auto(GStrv) words = g_regex_split_simple ("[^A-Za-z0-9]+", table, 0, 0);
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autofree char *camel = NULL;

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && !is_digits (words[i]))
      {
        if (joined->len > 0)
          g_string_append_c (joined, '_');
        g_string_append (joined, words[i]);
      }
  if (joined->len == 0)
    return g_strdup ("Item");
  camel = label_to_name (joined->str);
  return singular (camel);
}

static char *
template_escape (const char *literal)
{
  GString *out = g_string_new (NULL);

  for (const char *p = literal; *p != '\0'; p++)
    {
      if (*p == '{' || *p == '}')
        g_string_append_c (out, *p);
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* The text a field of a key can equal: a string, or a number's text. */
static const char *
value_text (const DynValue *v)
{
  if (v == NULL)
    return NULL;
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_S:
      return dyn_value_get_string (v);
    case DYN_VALUE_N:
      return dyn_value_get_number (v);
    default:
      return NULL;
    }
}

/* ------------------------------------------------------------------------ */
/* Working structures */

typedef struct {
  gboolean  literal;
  char     *text;      /* literal: the segment; varying: NULL */
  char     *inner;     /* varying: literal start written into it ("tenant_") */
  guint     pad;       /* zero-padded to this width, 0 not */
  gboolean  number;    /* a whole-value N key */
  char    **values;    /* per item of the group: the field's text, or NULL */
  char     *field;
} Segment;

typedef struct {
  char         *attribute;
  DynValueType  type;
  char          separator;   /* '\0': a whole value */
  GPtrArray    *segments;    /* Segment* */
  guint         n_present;
  guint         shards;      /* some values end in a shard number up to this */
} Shape;

typedef struct {
  char    *name;
  char    *type;
  char   **values;   /* per item, owned strings (NULL where absent) */
} Field;

typedef struct {
  char       *key;
  char       *name;
  char       *pk_label;       /* the partition key's label, if any */
  char       *sk_word;        /* the whole-word sort key, if any */
  char       *sk_prefix;      /* the sort key's prefix label, if any */
  char       *disc_attribute;
  char       *disc_value;
  GPtrArray  *items;          /* borrowed DynValue */
  GPtrArray  *shapes;         /* Shape* or NULL, in key-attribute order */
  GPtrArray  *fields;         /* Field*: derived from keys */
  GHashTable *real_fields;    /* real attribute names used as fields */
  int         parent;         /* group index, -1 */
  gboolean    edge;           /* the edge of an n:m */
} Group;

typedef struct {
  char         *name;
  DynValueType  type;
  gboolean      table_key;
  gboolean      partition;    /* a partition key (of the table or an index) */
  const char   *index;        /* NULL: the table */
} KeyAttr;

typedef struct {
  JsonObject     *describe;
  DynDesignTable *table;
  GPtrArray      *key_attrs;   /* KeyAttr* */
  GHashTable     *key_names;   /* every key attribute name */
  GPtrArray      *groups;      /* Group* */
  GHashTable     *prefix_fields;  /* "WS" → "workspaceId" */
  guint           n_items;
  DynEntitySource source;
  char           *disc_attribute;
} Infer;

static void
segment_free (gpointer data)
{
  Segment *s = data;

  g_free (s->text);
  g_free (s->inner);
  g_strfreev (s->values);
  g_free (s->field);
  g_free (s);
}

static void
shape_free (gpointer data)
{
  Shape *s = data;

  if (s == NULL)
    return;
  g_free (s->attribute);
  g_ptr_array_unref (s->segments);
  g_free (s);
}

static void
field_free (gpointer data)
{
  Field *f = data;

  g_free (f->name);
  g_free (f->type);
  g_strfreev (f->values);
  g_free (f);
}

static void
group_free (gpointer data)
{
  Group *g = data;

  g_free (g->key);
  g_free (g->name);
  g_free (g->pk_label);
  g_free (g->sk_word);
  g_free (g->sk_prefix);
  g_free (g->disc_attribute);
  g_free (g->disc_value);
  g_ptr_array_unref (g->items);
  g_ptr_array_unref (g->shapes);
  g_ptr_array_unref (g->fields);
  g_hash_table_unref (g->real_fields);
  g_free (g);
}

static void
key_attr_free (gpointer data)
{
  KeyAttr *k = data;

  g_free (k->name);
  g_free (k);
}

static void
infer_clear (Infer *self)
{
  g_clear_pointer (&self->table, dyn_design_table_free);
  g_clear_pointer (&self->key_attrs, g_ptr_array_unref);
  g_clear_pointer (&self->key_names, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->prefix_fields, g_hash_table_unref);
  g_clear_pointer (&self->disc_attribute, g_free);
}

/* ------------------------------------------------------------------------ */
/* The table */

static const char *
type_tag (DynValueType type)
{
  return dyn_value_type_to_string (type);
}

static const char *
projection_name (DynProjectionType p)
{
  switch (p)
    {
    case DYN_PROJECTION_KEYS_ONLY:
      return "KEYS_ONLY";
    case DYN_PROJECTION_INCLUDE:
      return "INCLUDE";
    case DYN_PROJECTION_ALL:
    default:
      return "ALL";
    }
}

static void
add_key_attr (Infer        *self,
              const char   *name,
              DynValueType  type,
              gboolean      table_key,
              gboolean      partition,
              const char   *index)
{
  KeyAttr *k;

  if (name == NULL || g_hash_table_contains (self->key_names, name))
    return;
  k = g_new0 (KeyAttr, 1);
  k->name = g_strdup (name);
  k->type = type;
  k->table_key = table_key;
  k->partition = partition;
  k->index = index;
  g_ptr_array_add (self->key_attrs, k);
  g_hash_table_add (self->key_names, k->name);
}

static gboolean
read_table (Infer       *self,
            JsonObject  *describe,
            GError     **error)
{
  g_autoptr(DynTableKeys) keys = dyn_table_keys_from_description (describe, error);
  DynDesignTable *table;
  const char *name;

  if (keys == NULL)
    return FALSE;
  name = keys->table.name != NULL ? keys->table.name : json_object_get_string_member_with_default (describe, "TableName", "table");
  table = self->table = dyn_design_table_new (name);
  g_free (table->partition_key);
  table->partition_key = g_strdup (keys->table.keys.partition_key);
  g_free (table->partition_type);
  table->partition_type = g_strdup (type_tag (keys->table.keys.partition_type));
  g_free (table->sort_key);
  table->sort_key = g_strdup (keys->table.keys.sort_key);
  g_free (table->sort_type);
  table->sort_type = keys->table.keys.sort_key ? g_strdup (type_tag (keys->table.keys.sort_type)) : NULL;
  table->fixed = TRUE;

  add_key_attr (self, table->partition_key, keys->table.keys.partition_type, TRUE, TRUE, NULL);
  add_key_attr (self, table->sort_key, keys->table.keys.sort_type, TRUE, FALSE, NULL);

  for (guint i = 0; i < keys->indexes->len; i++)
    {
      const DynIndexInfo *info = keys->indexes->pdata[i];
      DynDesignIndex *index = g_new0 (DynDesignIndex, 1);

      index->name = g_strdup (info->name);
      index->local = info->kind == DYN_INDEX_LOCAL;
      index->partition_key = g_strdup (info->keys.partition_key);
      index->partition_type = g_strdup (type_tag (info->keys.partition_type));
      index->sort_key = g_strdup (info->keys.sort_key);
      index->sort_type = info->keys.sort_key ? g_strdup (type_tag (info->keys.sort_type)) : NULL;
      index->projection = g_strdup (projection_name (info->projection));
      index->non_key_attributes = g_strdupv (info->non_key_attributes);
      g_ptr_array_add (table->indexes, index);
    }
  /* Index keys after the table's, so that fields are named from the table
   * keys first. */
  for (guint i = 0; i < table->indexes->len; i++)
    {
      DynDesignIndex *index = table->indexes->pdata[i];
      const DynIndexInfo *info = keys->indexes->pdata[i];

      add_key_attr (self, index->partition_key, info->keys.partition_type, FALSE, TRUE, index->name);
      add_key_attr (self, index->sort_key, info->keys.sort_type, FALSE, FALSE, index->name);
    }

  if (json_object_has_member (describe, "BillingModeSummary"))
    {
      JsonObject *summary = json_object_get_object_member (describe, "BillingModeSummary");

      g_free (table->billing_mode);
      table->billing_mode = g_strdup (json_object_get_string_member_with_default (summary, "BillingMode", "PROVISIONED"));
    }
  else
    {
      g_free (table->billing_mode);
      table->billing_mode = g_strdup ("PROVISIONED");
    }
  if (g_strcmp0 (table->billing_mode, "PROVISIONED") == 0 &&
      json_object_has_member (describe, "ProvisionedThroughput"))
    {
      JsonObject *pt = json_object_get_object_member (describe, "ProvisionedThroughput");

      table->read_capacity = json_object_get_int_member_with_default (pt, "ReadCapacityUnits", 0);
      table->write_capacity = json_object_get_int_member_with_default (pt, "WriteCapacityUnits", 0);
    }
  return TRUE;
}

static const KeyAttr *
table_pk (Infer *self)
{
  return self->key_attrs->len > 0 ? self->key_attrs->pdata[0] : NULL;
}

static const KeyAttr *
table_sk (Infer *self)
{
  if (self->key_attrs->len > 1 && ((KeyAttr *) self->key_attrs->pdata[1])->table_key)
    return self->key_attrs->pdata[1];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Entities */

static Group *
group_for (Infer      *self,
           const char *key)
{
  Group *g;

  for (guint i = 0; i < self->groups->len; i++)
    {
      g = self->groups->pdata[i];
      if (strcmp (g->key, key) == 0)
        return g;
    }
  g = g_new0 (Group, 1);
  g->key = g_strdup (key);
  g->items = g_ptr_array_new ();
  g->shapes = g_ptr_array_new_with_free_func (shape_free);
  g->fields = g_ptr_array_new_with_free_func (field_free);
  g->real_fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g->parent = -1;
  g_ptr_array_add (self->groups, g);
  return g;
}

/* A key's label under any separator, the detector's first. */
static const char *
key_label (const DynValue *key,
           char            preferred)
{
  const char *label;

  if (key == NULL || dyn_value_get_value_type (key) != DYN_VALUE_S)
    return NULL;
  if (preferred != '\0')
    {
      label = dyn_entity_key_label (key, preferred);
      if (label != NULL)
        return label;
    }
  for (guint i = 0; i < G_N_ELEMENTS (separators); i++)
    {
      const char *s = dyn_value_get_string (key);

      if (strchr (s, separators[i]) == NULL)
        continue;
      label = dyn_entity_key_label (key, separators[i]);
      if (label != NULL)
        return label;
    }
  return NULL;
}

static gboolean
key_is_word (const DynValue *key)
{
  return key != NULL && dyn_value_get_value_type (key) == DYN_VALUE_S && is_word (dyn_value_get_string (key));
}

static void
classify (Infer     *self,
          GPtrArray *items)
{
  g_autoptr(DynEntityDetector) detector = dyn_entity_detector_new ();
  const KeyAttr *pk = table_pk (self), *sk = table_sk (self);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  char separator;

  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];

      for (guint a = 0; a < dyn_value_get_length (item); a++)
        {
          const char *name = dyn_value_map_get_name (item, a);

          if (g_hash_table_contains (seen, name) || g_hash_table_contains (self->key_names, name))
            continue;
          g_hash_table_add (seen, (gpointer) name);
          dyn_entity_detector_note_attribute (detector, name);
        }
    }
  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];

      dyn_entity_detector_observe (detector, item,
                                   pk ? dyn_value_map_lookup (item, pk->name) : NULL,
                                   sk ? dyn_value_map_lookup (item, sk->name) : NULL);
    }
  dyn_entity_detector_update (detector);
  self->source = dyn_entity_detector_get_source (detector);
  self->disc_attribute = g_strdup (dyn_entity_detector_get_attribute (detector));
  separator = dyn_entity_detector_get_separator (detector);

  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      DynValue *pkv = pk ? dyn_value_map_lookup (item, pk->name) : NULL;
      DynValue *skv = sk ? dyn_value_map_lookup (item, sk->name) : NULL;
      const char *pk_label = key_label (pkv, separator);
      const char *sk_label = NULL;
      const char *disc = NULL;
      g_autofree char *key = NULL;
      Group *g;

      if (self->source == DYN_ENTITY_SOURCE_ATTRIBUTE)
        {
          DynValue *v = dyn_value_map_lookup (item, self->disc_attribute);

          if (v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_S)
            disc = dyn_value_get_string (v);
        }
      if (self->source == DYN_ENTITY_SOURCE_SORT_KEY || (self->source == DYN_ENTITY_SOURCE_ATTRIBUTE && disc == NULL))
        sk_label = key_label (skv, separator);

      if (disc != NULL)
        key = g_strdup_printf ("attr:%s", disc);
      else if (sk_label != NULL && key_is_word (skv))
        key = g_strdup_printf ("pk:%s/sk:%s", pk_label ? pk_label : "", sk_label);
      else if (sk_label != NULL)
        key = g_strdup_printf ("sk:%s", sk_label);
      else if (self->source != DYN_ENTITY_SOURCE_NONE && pk_label != NULL)
        key = g_strdup_printf ("pk:%s", pk_label);
      else
        key = g_strdup ("table");

      g = group_for (self, key);
      if (g->items->len == 0)
        {
          if (disc != NULL)
            {
              g->disc_attribute = g_strdup (self->disc_attribute);
              g->disc_value = g_strdup (disc);
            }
          else if (sk_label != NULL && key_is_word (skv))
            g->sk_word = g_strdup (sk_label);
          else if (sk_label != NULL)
            g->sk_prefix = g_strdup (sk_label);
          if (pk_label != NULL && (disc != NULL || self->source != DYN_ENTITY_SOURCE_NONE))
            g->pk_label = g_strdup (pk_label);
        }
      g_ptr_array_add (g->items, item);
    }
}

static gboolean
name_taken (Infer      *self,
            const char *name,
            Group      *except)
{
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];

      if (g != except && g->name != NULL && strcmp (g->name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
name_groups (Infer *self)
{
  /* First the names each label gives, then the collisions: a whole-word
   * sort key that is no marker ("SETTINGS") adds its word. */
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];

      if (g->disc_value != NULL)
        g->name = label_to_name (g->disc_value);
      else if (g->sk_prefix != NULL)
        g->name = label_to_name (g->sk_prefix);
      else if (g->sk_word != NULL && g->pk_label != NULL)
        g->name = label_to_name (g->pk_label);
      else if (g->sk_word != NULL)
        g->name = label_to_name (g->sk_word);
      else if (g->pk_label != NULL)
        g->name = label_to_name (g->pk_label);
      else
        g->name = table_entity_name (self->table->name);
    }
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];

      if (name_taken (self, g->name, g) && g->sk_word != NULL && g->pk_label != NULL &&
          !is_marker_word (g->sk_word))
        {
          g_autofree char *word = label_to_name (g->sk_word);
          char *name = g_strconcat (g->name, word, NULL);

          g_free (g->name);
          g->name = name;
        }
    }
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];

      for (guint n = 2; name_taken (self, g->name, g); n++)
        {
          char *base = g_strdup (g->name);
          char *name;

          while (strlen (base) > 0 && g_ascii_isdigit (base[strlen (base) - 1]))
            base[strlen (base) - 1] = '\0';
          name = g_strdup_printf ("%s%u", base, n);
          g_free (base);
          g_free (g->name);
          g->name = name;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Key shapes */

static char
choose_separator (GPtrArray *texts)
{
  for (guint s = 0; s < G_N_ELEMENTS (separators); s++)
    {
      guint n = 0;

      for (guint i = 0; i < texts->len; i++)
        {
          const char *t = texts->pdata[i];
          const char *at;

          if (t == NULL || (at = strchr (t, separators[s])) == NULL)
            continue;
          /* A colon splits "USER:42", not "2026-09-14T10:00:00Z". */
          if (separators[s] == ':')
            {
              g_autofree char *head = g_strndup (t, at - t);

              if (!is_type_name (head))
                continue;
            }
          n++;
        }
      if (n > 0 && n * 2 >= texts->len)
        return separators[s];
    }
  return '\0';
}

/* The literal text written at the start of every value of a varying
 * segment, up to its last '_' or '-' ("tenant_" of "tenant_acme"), when
 * that is a name. */
static char *
inner_prefix (GPtrArray *parts)
{
  g_autofree char *common = NULL;
  char *cut;

  for (guint i = 0; i < parts->len; i++)
    {
      const char *p = parts->pdata[i];
      gsize n = 0;

      if (p == NULL)
        continue;
      if (common == NULL)
        {
          common = g_strdup (p);
          continue;
        }
      while (common[n] != '\0' && common[n] == p[n])
        n++;
      common[n] = '\0';
    }
  if (common == NULL)
    return NULL;
  cut = strrchr (common, '_');
  if (cut == NULL)
    return NULL;
  cut[1] = '\0';
  {
    g_autofree char *name = g_strndup (common, cut - common);

    if (!is_type_name (name) || strchr (name, '-') != NULL || strchr (name, '.') != NULL)
      return NULL;
  }
  /* Every value has more after it. */
  for (guint i = 0; i < parts->len; i++)
    {
      const char *p = parts->pdata[i];

      if (p != NULL && strlen (p) <= strlen (common))
        return NULL;
    }
  return g_steal_pointer (&common);
}

static Shape *
analyze_shape (Group         *g,
               const KeyAttr *attr)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  Shape *shape;
  guint n_present = 0, n_strings = 0;

  for (guint i = 0; i < g->items->len; i++)
    {
      DynValue *v = dyn_value_map_lookup (g->items->pdata[i], attr->name);

      if (v != NULL)
        n_present++;
      if (v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_S)
        n_strings++;
      g_ptr_array_add (texts, v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_S ? (gpointer) dyn_value_get_string (v) : NULL);
    }
  if (n_present == 0)
    return NULL;

  shape = g_new0 (Shape, 1);
  shape->attribute = g_strdup (attr->name);
  shape->type = attr->type;
  shape->n_present = n_present;
  shape->segments = g_ptr_array_new_with_free_func (segment_free);

  if (attr->type != DYN_VALUE_S || n_strings == 0)
    {
      /* A number or binary key: the key is the attribute's value. */
      Segment *seg = g_new0 (Segment, 1);

      seg->number = attr->type == DYN_VALUE_N;
      seg->values = g_new0 (char *, g->items->len + 1);
      for (guint i = 0; i < g->items->len; i++)
        seg->values[i] = g_strdup (value_text (dyn_value_map_lookup (g->items->pdata[i], attr->name)));
      g_ptr_array_add (shape->segments, seg);
      return shape;
    }

  shape->separator = choose_separator (texts);
  {
    g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
    g_autoptr(GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
    guint mode = 1, mode_count = 0;
    char sep[2] = { shape->separator, '\0' };

    for (guint i = 0; i < texts->len; i++)
      {
        const char *t = texts->pdata[i];
        char **parts = NULL;

        if (t != NULL)
          {
            guint n;

            parts = shape->separator ? g_strsplit (t, sep, -1) : g_strdupv ((char *[]) { (char *) t, NULL });
            n = g_strv_length (parts);
            g_hash_table_insert (counts, GUINT_TO_POINTER (n),
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (n))) + 1));
            if (GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (n))) > mode_count ||
                (GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (n))) == mode_count && n < mode))
              {
                mode = n;
                mode_count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (n)));
              }
          }
        g_ptr_array_add (splits, parts);
      }
    if (mode == 1)
      shape->separator = '\0';

    /* A sharded partition ("WS#bigco#01".."10" beside "WS#acme"): the
     * longer values end in a shard number and repeat without it. */
    if (shape->separator != '\0' &&
        g_hash_table_contains (counts, GUINT_TO_POINTER (mode - 1)) != g_hash_table_contains (counts, GUINT_TO_POINTER (mode + 1)))
      {
        guint m = g_hash_table_contains (counts, GUINT_TO_POINTER (mode + 1)) ? mode : mode - 1;
        g_autoptr(GHashTable) whole = g_hash_table_new (g_str_hash, g_str_equal);
        g_autoptr(GHashTable) unsharded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
        gboolean shards = m >= 1;
        guint max_shard = 0;

        for (guint i = 0; i < splits->len && shards; i++)
          {
            char **parts = splits->pdata[i];
            const char *last;

            if (parts == NULL || g_strv_length (parts) != m + 1)
              continue;
            last = parts[m];
            if (!is_digits (last) || strlen (last) > 3)
              shards = FALSE;
            else
              {
                char *head;

                max_shard = MAX (max_shard, (guint) g_ascii_strtoull (last, NULL, 10));
                g_hash_table_add (whole, (gpointer) texts->pdata[i]);
                head = g_strndup (texts->pdata[i], strlen (texts->pdata[i]) - strlen (last) - 1);
                g_hash_table_add (unsharded, head);
              }
          }
        if (shards && g_hash_table_size (unsharded) * 2 <= g_hash_table_size (whole))
          {
            for (guint i = 0; i < splits->len; i++)
              {
                char **parts = splits->pdata[i];

                if (parts != NULL && g_strv_length (parts) == m + 1)
                  g_clear_pointer (&parts[m], g_free);
              }
            shape->shards = max_shard;
            mode = m;
          }
      }

    for (guint p = 0; p < mode; p++)
      {
        g_autoptr(GPtrArray) parts = g_ptr_array_new ();
        Segment *seg = g_new0 (Segment, 1);
        const char *first = NULL;
        gboolean identical = TRUE;

        for (guint i = 0; i < splits->len; i++)
          {
            char **s = splits->pdata[i];
            const char *part = s != NULL && g_strv_length (s) == mode ? s[p] : NULL;

            g_ptr_array_add (parts, (gpointer) part);
            if (part == NULL)
              continue;
            if (first == NULL)
              first = part;
            else if (strcmp (first, part) != 0)
              identical = FALSE;
          }
        if (first != NULL && identical)
          {
            if (mode == 1)
              seg->literal = is_word (first);
            else if (p == 0)
              seg->literal = is_type_name (first) || first[0] == '$' || first[0] == '\0';
            else
              seg->literal = is_upper_word (first) || first[0] == '$' || first[0] == '\0';
          }
        if (seg->literal)
          seg->text = g_strdup (first);
        else
          {
            guint width = 0;
            gboolean padded = FALSE, digits = TRUE;

            if (mode > 1)
              seg->inner = inner_prefix (parts);
            seg->values = g_new0 (char *, g->items->len + 1);
            for (guint i = 0; i < parts->len; i++)
              {
                const char *part = parts->pdata[i];

                if (part == NULL)
                  continue;
                part += seg->inner ? strlen (seg->inner) : 0;
                seg->values[i] = g_strdup (part);
                if (!is_digits (part) || (width != 0 && strlen (part) != width))
                  digits = FALSE;
                width = strlen (part);
                if (part[0] == '0' && part[1] != '\0')
                  padded = TRUE;
              }
            if (digits && padded && width >= 2)
              {
                seg->pad = width;
                for (guint i = 0; i < parts->len; i++)
                  if (seg->values[i] != NULL)
                    {
                      const char *v = seg->values[i];
                      char *stripped;

                      while (v[0] == '0' && v[1] != '\0')
                        v++;
                      stripped = g_strdup (v);
                      g_free (seg->values[i]);
                      seg->values[i] = stripped;
                    }
              }
          }
        g_ptr_array_add (shape->segments, seg);
      }
  }
  return shape;
}

static char *
shape_template (const Shape *shape)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < shape->segments->len; i++)
    {
      const Segment *seg = shape->segments->pdata[i];

      if (i > 0)
        g_string_append_c (out, shape->separator);
      if (seg->literal)
        {
          g_autofree char *text = template_escape (seg->text);

          g_string_append (out, text);
          continue;
        }
      if (seg->inner != NULL)
        {
          g_autofree char *text = template_escape (seg->inner);

          g_string_append (out, text);
        }
      if (seg->pad > 0)
        g_string_append_printf (out, "{%s:%02u}", seg->field, seg->pad);
      else
        g_string_append_printf (out, "{%s}", seg->field);
    }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Field names */

static gboolean
values_equal (char       **a,
              char       **b,
              guint        n,
              gboolean     numeric)
{
  guint compared = 0;

  for (guint i = 0; i < n; i++)
    {
      if (a[i] == NULL)
        continue;
      if (b[i] == NULL)
        return FALSE;
      if (numeric ? dyn_number_compare (a[i], b[i]) != 0 : strcmp (a[i], b[i]) != 0)
        return FALSE;
      compared++;
    }
  return compared > 0;
}

/* A real attribute (no key attribute) of every item with @values, equal to
 * them. */
static const char *
match_attribute (Infer   *self,
                 Group   *g,
                 char   **values,
                 gboolean numeric)
{
  DynValue *first = NULL;

  for (guint i = 0; i < g->items->len && first == NULL; i++)
    if (values[i] != NULL)
      first = g->items->pdata[i];
  if (first == NULL)
    return NULL;
  for (guint a = 0; a < dyn_value_get_length (first); a++)
    {
      const char *name = dyn_value_map_get_name (first, a);
      gboolean ok = TRUE;

      if (g_hash_table_contains (self->key_names, name) || g_strcmp0 (name, g->disc_attribute) == 0)
        continue;
      for (guint i = 0; i < g->items->len && ok; i++)
        {
          const char *text;
          DynValue *v;

          if (values[i] == NULL)
            continue;
          v = dyn_value_map_lookup (g->items->pdata[i], name);
          text = value_text (v);
          if (text == NULL)
            ok = FALSE;
          else if (numeric || dyn_value_get_value_type (v) == DYN_VALUE_N)
            ok = is_digits (values[i]) || dyn_number_validate (values[i], NULL)
                   ? dyn_value_get_value_type (v) == DYN_VALUE_N && dyn_number_compare (text, values[i]) == 0
                   : FALSE;
          else
            ok = strcmp (text, values[i]) == 0;
        }
      if (ok)
        return name;
    }
  return NULL;
}

static Field *
find_field (Group      *g,
            const char *name)
{
  for (guint i = 0; i < g->fields->len; i++)
    {
      Field *f = g->fields->pdata[i];

      if (strcmp (f->name, name) == 0)
        return f;
    }
  return NULL;
}

static gboolean
attribute_on_group (Group      *g,
                    const char *name)
{
  for (guint i = 0; i < g->items->len; i++)
    if (dyn_value_map_lookup (g->items->pdata[i], name) != NULL)
      return TRUE;
  return FALSE;
}

static guint
groups_with_attribute (Infer      *self,
                       const char *name)
{
  guint n = 0;

  for (guint i = 0; i < self->groups->len; i++)
    if (attribute_on_group (self->groups->pdata[i], name))
      n++;
  return n;
}

/* PK, SK, GSI1PK, gsi2_sk, LSI1SK, hk, rk: names that say nothing. */
static gboolean
is_generic_key_name (const char *name)
{
  g_autofree char *down = g_ascii_strdown (name, -1);
  const char *p = down;

  if (strcmp (p, "pk") == 0 || strcmp (p, "sk") == 0 || strcmp (p, "hk") == 0 || strcmp (p, "rk") == 0 ||
      strcmp (p, "id") == 0)
    return TRUE;
  if (g_str_has_prefix (p, "gsi") || g_str_has_prefix (p, "lsi"))
    {
      p += 3;
      while (g_ascii_isdigit (*p))
        p++;
      if (*p == '_' || *p == '-')
        p++;
      return *p == '\0' || strcmp (p, "pk") == 0 || strcmp (p, "sk") == 0;
    }
  return FALSE;
}

static char *
field_from_prefix (Infer      *self,
                   const char *literal)
{
  const char *known = g_hash_table_lookup (self->prefix_fields, literal);
  g_autofree char *entity = NULL;
  g_autofree char *lower = NULL;

  if (known != NULL)
    return g_strdup (known);
  entity = label_to_name (literal);
  lower = lower_camel (entity);
  return g_strconcat (lower, "Id", NULL);
}

/* A name not yet taken in @g by other values. */
static char *
unique_field (Group       *g,
              const char  *base,
              char       **values)
{
  for (guint n = 1; ; n++)
    {
      g_autofree char *name = n == 1 ? g_strdup (base) : g_strdup_printf ("%s%u", base, n);
      Field *f = find_field (g, name);

      if ((f == NULL || values_equal (values, f->values, g->items->len, FALSE)) &&
          (!attribute_on_group (g, name) || g_hash_table_contains (g->real_fields, name)))
        return g_steal_pointer (&name);
    }
}

static void
name_segment (Infer         *self,
              Group         *g,
              Shape         *shape,
              guint          position,
              const KeyAttr *attr)
{
  Segment *seg = shape->segments->pdata[position];
  gboolean numeric = seg->number || seg->pad > 0;
  const char *real;
  g_autofree char *name = NULL;

  /* An attribute of the same items with the segment's value. */
  real = match_attribute (self, g, seg->values, numeric);
  if (real != NULL)
    {
      seg->field = g_strdup (real);
      g_hash_table_add (g->real_fields, g_strdup (real));
      return;
    }
  /* A field of another key of the entity with the same values. */
  for (guint i = 0; i < g->fields->len; i++)
    {
      Field *f = g->fields->pdata[i];

      if (values_equal (seg->values, f->values, g->items->len, numeric))
        {
          seg->field = g_strdup (f->name);
          return;
        }
    }
  /* The parent's field in a partition key shared with it. */
  if (attr->table_key && attr->partition)
    for (guint i = 0; i < self->groups->len && name == NULL; i++)
      {
        Group *other = self->groups->pdata[i];
        Shape *os = other->shapes->len > 0 ? other->shapes->pdata[0] : NULL;
        Segment *oseg;

        if (other == g || os == NULL || os->segments->len != shape->segments->len ||
            os->separator != shape->separator)
          continue;
        oseg = os->segments->pdata[position];
        if (oseg->literal || oseg->field == NULL)
          continue;
        for (guint a = 0; a < g->items->len && name == NULL; a++)
          for (guint b = 0; b < other->items->len && name == NULL; b++)
            if (seg->values[a] != NULL && oseg->values[b] != NULL && strcmp (seg->values[a], oseg->values[b]) == 0)
              name = g_strdup (oseg->field);
      }
  /* The name written into the segment, ElectroDB's "tenant_acme". */
  if (name == NULL && seg->inner != NULL)
    name = g_strndup (seg->inner, strlen (seg->inner) - 1);
  /* The entity the literal before it names. */
  if (name == NULL && position > 0)
    {
      Segment *before = shape->segments->pdata[position - 1];

      if (before->literal && is_type_name (before->text))
        {
          name = field_from_prefix (self, before->text);
          if (attr->table_key && attr->partition && !g_hash_table_contains (self->prefix_fields, before->text))
            g_hash_table_insert (self->prefix_fields, g_strdup (before->text), g_strdup (name));
        }
    }
  /* A key attribute that holds one entity's plain value is that value. */
  if (name == NULL && shape->segments->len == 1 &&
      (groups_with_attribute (self, attr->name) == 1 || (!attr->table_key && !is_generic_key_name (attr->name))))
    {
      seg->field = g_strdup (attr->name);
      g_hash_table_add (g->real_fields, g_strdup (attr->name));
      return;
    }
  if (name == NULL)
    {
      g_autofree char *lower = lower_camel (g->name);

      name = g_strconcat (lower, "Id", NULL);
    }

  seg->field = unique_field (g, name, seg->values);
  if (find_field (g, seg->field) == NULL)
    {
      Field *f = g_new0 (Field, 1);

      f->name = g_strdup (seg->field);
      f->type = g_strdup (numeric ? "N" : "S");
      f->values = g_strdupv (seg->values);
      g_ptr_array_add (g->fields, f);
    }
}

static void
name_shape (Infer         *self,
            Group         *g,
            Shape         *shape,
            const KeyAttr *attr)
{
  if (shape == NULL)
    return;
  for (guint p = 0; p < shape->segments->len; p++)
    if (!((Segment *) shape->segments->pdata[p])->literal)
      name_segment (self, g, shape, p, attr);
}

/* A parent-like entity: its sort key is a constant or repeats its
 * partition key; their partition keys are named first. */
static gboolean
parent_like (Infer *self,
             Group *g)
{
  const KeyAttr *pk = table_pk (self), *sk = table_sk (self);

  if (sk == NULL)
    return TRUE;
  if (g->sk_word != NULL)
    return TRUE;
  for (guint i = 0; i < g->items->len; i++)
    {
      DynValue *a = dyn_value_map_lookup (g->items->pdata[i], pk->name);
      DynValue *b = dyn_value_map_lookup (g->items->pdata[i], sk->name);

      if (a == NULL || b == NULL || !dyn_value_equal (a, b))
        return FALSE;
    }
  return TRUE;
}

static void
infer_keys (Infer *self)
{
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];

      for (guint k = 0; k < self->key_attrs->len; k++)
        g_ptr_array_add (g->shapes, analyze_shape (g, self->key_attrs->pdata[k]));
    }
  /* Partition keys first, parents before children, then every other key. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->groups->len; i++)
      {
        Group *g = self->groups->pdata[i];

        if (parent_like (self, g) == (pass == 0))
          name_shape (self, g, g->shapes->pdata[0], self->key_attrs->pdata[0]);
      }
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];

      for (guint k = 1; k < self->key_attrs->len; k++)
        name_shape (self, g, g->shapes->pdata[k], self->key_attrs->pdata[k]);
    }
}

/* ------------------------------------------------------------------------ */
/* Building the model */

static char *
group_template (Group *g,
                guint  k)
{
  Shape *shape = k < g->shapes->len ? g->shapes->pdata[k] : NULL;

  return shape != NULL ? shape_template (shape) : NULL;
}

/* The fields of a shape, in order, each once, appended to @out. */
static void
shape_fields (Shape     *shape,
              GPtrArray *out)
{
  if (shape == NULL)
    return;
  for (guint i = 0; i < shape->segments->len; i++)
    {
      Segment *seg = shape->segments->pdata[i];
      gboolean have = FALSE;

      if (seg->literal)
        continue;
      for (guint j = 0; j < out->len; j++)
        have |= strcmp (out->pdata[j], seg->field) == 0;
      if (!have)
        g_ptr_array_add (out, seg->field);
    }
}

static GStrv
strv_from_array (GPtrArray *a)
{
  GStrv v = g_new0 (char *, a->len + 1);

  for (guint i = 0; i < a->len; i++)
    v[i] = g_strdup (a->pdata[i]);
  return v;
}

static gboolean
strv_contains_all (GPtrArray *a,
                   GPtrArray *b)
{
  for (guint i = 0; i < b->len; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < a->len; j++)
        found |= strcmp (a->pdata[j], b->pdata[i]) == 0;
      if (!found)
        return FALSE;
    }
  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

typedef struct {
  guint    n_items;
  guint    n_types[DYN_VALUE_BS + 1];
  GPtrArray *examples;     /* char* */
  GHashTable *distinct;    /* S value → count */
  gboolean overflow;
} AttrStats;

static void
attr_stats_free (gpointer data)
{
  AttrStats *s = data;

  g_ptr_array_unref (s->examples);
  g_hash_table_unref (s->distinct);
  g_free (s);
}

static void
add_attributes (Infer           *self,
                Group           *g,
                DynDesignEntity *entity)
{
  g_autoptr(GHashTable) stats = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, attr_stats_free);
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) mixed = g_string_new (NULL);

  /* The fields derived from keys, then the real attributes in the order they
   * were first seen. */
  for (guint i = 0; i < g->fields->len; i++)
    {
      Field *f = g->fields->pdata[i];
      Group *parent = g->parent >= 0 && !g->edge ? self->groups->pdata[g->parent] : NULL;
      DynDesignAttribute *a;

      /* A child's partition key holds its parent's id: the parent's
       * attribute, not the child's. */
      if (parent != NULL && (find_field (parent, f->name) != NULL || g_hash_table_contains (parent->real_fields, f->name)))
        continue;
      a = dyn_design_attribute_new (f->name, f->type);
      g_autoptr(GPtrArray) examples = g_ptr_array_new ();
      gboolean required = TRUE;

      for (guint j = 0; j < g->items->len; j++)
        {
          gboolean dup = FALSE;

          if (f->values[j] == NULL)
            {
              required = FALSE;
              continue;
            }
          for (guint e = 0; e < examples->len; e++)
            dup |= strcmp (examples->pdata[e], f->values[j]) == 0;
          if (!dup && examples->len < MAX_EXAMPLES)
            g_ptr_array_add (examples, f->values[j]);
        }
      a->required = required;
      g_strfreev (a->examples);
      a->examples = strv_from_array (examples);
      g_ptr_array_add (entity->attributes, a);
    }

  for (guint i = 0; i < g->items->len; i++)
    {
      DynValue *item = g->items->pdata[i];

      for (guint m = 0; m < dyn_value_get_length (item); m++)
        {
          const char *name = dyn_value_map_get_name (item, m);
          DynValue *v = dyn_value_map_get_value (item, m);
          AttrStats *s;
          const char *text;

          if (g_strcmp0 (name, g->disc_attribute) == 0 || find_field (g, name) != NULL)
            continue;
          if (g_hash_table_contains (self->key_names, name) && !g_hash_table_contains (g->real_fields, name))
            continue;
          s = g_hash_table_lookup (stats, name);
          if (s == NULL)
            {
              s = g_new0 (AttrStats, 1);
              s->examples = g_ptr_array_new_with_free_func (g_free);
              s->distinct = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
              g_hash_table_insert (stats, g_strdup (name), s);
              g_ptr_array_add (order, g_strdup (name));
            }
          s->n_items++;
          s->n_types[dyn_value_get_value_type (v)]++;
          text = value_text (v);
          if (text != NULL && strlen (text) <= 40)
            {
              gboolean dup = FALSE;

              for (guint e = 0; e < s->examples->len; e++)
                dup |= strcmp (s->examples->pdata[e], text) == 0;
              if (!dup && s->examples->len < MAX_EXAMPLES)
                g_ptr_array_add (s->examples, g_strdup (text));
            }
          if (dyn_value_get_value_type (v) == DYN_VALUE_S && !s->overflow)
            {
              guint n = GPOINTER_TO_UINT (g_hash_table_lookup (s->distinct, dyn_value_get_string (v)));

              if (n == 0 && g_hash_table_size (s->distinct) >= MAX_ENUM_VALUES)
                s->overflow = TRUE;
              else
                g_hash_table_insert (s->distinct, g_strdup (dyn_value_get_string (v)), GUINT_TO_POINTER (n + 1));
            }
        }
    }

  for (guint i = 0; i < order->len; i++)
    {
      const char *name = order->pdata[i];
      AttrStats *s = g_hash_table_lookup (stats, name);
      DynValueType best = DYN_VALUE_S;
      guint best_n = 0, n_kinds = 0;
      DynDesignAttribute *a;

      for (guint t = 0; t <= DYN_VALUE_BS; t++)
        {
          if (s->n_types[t] > 0)
            n_kinds++;
          if (s->n_types[t] > best_n)
            {
              best = t;
              best_n = s->n_types[t];
            }
        }
      a = dyn_design_attribute_new (name, dyn_value_type_to_string (best));
      a->required = s->n_items == g->items->len;
      if (s->examples->len > 0 && (best == DYN_VALUE_S || best == DYN_VALUE_N))
        {
          g_strfreev (a->examples);
          a->examples = strv_from_array (s->examples);
        }
      /* A few values that repeat: an enumeration. */
      if (best == DYN_VALUE_S && n_kinds == 1 && !s->overflow && s->n_items >= 4 &&
          g_hash_table_size (s->distinct) >= 2 && g_hash_table_size (s->distinct) * 2 <= s->n_items)
        {
          g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
          GHashTableIter iter;
          gpointer key;

          g_hash_table_iter_init (&iter, s->distinct);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            g_ptr_array_add (sorted, key);
          g_ptr_array_sort (sorted, compare_strings);
          g_strfreev (a->values);
          a->values = strv_from_array (sorted);
        }
      if (n_kinds > 1)
        {
          g_autoptr(GString) kinds = g_string_new (NULL);

          for (guint t = 0; t <= DYN_VALUE_BS; t++)
            if (s->n_types[t] > 0)
              g_string_append_printf (kinds, "%s%s %u", kinds->len ? ", " : "", dyn_value_type_to_string (t), s->n_types[t]);
          if (mixed->len > 0)
            g_string_append (mixed, " ");
          /* TRANSLATORS: an attribute with values of several types: "Grade: S 8, N 2; the model says S." */
          g_string_append_printf (mixed, _("%s has values of several types (%s); the model says %s."),
                                  name, kinds->str, dyn_value_type_to_string (best));
        }
      g_ptr_array_add (entity->attributes, a);
    }
  if (mixed->len > 0)
    {
      char *description = entity->description != NULL
                             ? g_strconcat (entity->description, " ", mixed->str, NULL)
                             : g_strdup (mixed->str);

      g_free (entity->description);
      entity->description = description;
    }
}

static char *
group_description (Infer *self,
                   Group *g)
{
  if (g->disc_value != NULL)
    /* TRANSLATORS: how an inferred entity was found: "Items with EntityType = “order” (12 in the sample)." */
    return g_strdup_printf (_("Items with %s = “%s” (%u in the sample)."),
                            g->disc_attribute, g->disc_value, g->items->len);
  if (g->sk_prefix != NULL)
    return g_strdup_printf (_("Items whose sort key starts with “%s” (%u in the sample)."),
                            g->sk_prefix, g->items->len);
  if (g->sk_word != NULL)
    return g_strdup_printf (_("Items whose sort key is “%s” (%u in the sample)."),
                            g->sk_word, g->items->len);
  if (g->pk_label != NULL)
    return g_strdup_printf (_("Items whose partition key starts with “%s” (%u in the sample)."),
                            g->pk_label, g->items->len);
  return g_strdup_printf (_("Every item of the table: no discriminator attribute or key prefix tells entities apart (%u in the sample)."),
                          g->items->len);
}

static guint
distinct_values (Group *g,
                 Shape *shape)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (shape == NULL)
    return 0;
  for (guint i = 0; i < g->items->len; i++)
    {
      DynValue *v = dyn_value_map_lookup (g->items->pdata[i], shape->attribute);

      if (v != NULL)
        g_hash_table_add (seen, dyn_value_to_ddb_json_string (v));
    }
  return g_hash_table_size (seen);
}

static guint64
per_parent (guint items,
            guint parents)
{
  return parents == 0 ? 0 : (items + parents - 1) / parents;
}

/* Whether two entities share partitions: the same literals in the same
 * places of their partition keys, and values in common. */
static gboolean
same_partitions (Group *a,
                 Group *b)
{
  Shape *sa = a->shapes->len > 0 ? a->shapes->pdata[0] : NULL;
  Shape *sb = b->shapes->len > 0 ? b->shapes->pdata[0] : NULL;
  gboolean varying = FALSE;

  if (sa == NULL || sb == NULL || sa->separator != sb->separator || sa->segments->len != sb->segments->len)
    return FALSE;
  for (guint p = 0; p < sa->segments->len; p++)
    {
      Segment *x = sa->segments->pdata[p], *y = sb->segments->pdata[p];

      if (x->literal != y->literal || (x->literal && strcmp (x->text, y->text) != 0) ||
          g_strcmp0 (x->inner, y->inner) != 0 || x->pad != y->pad)
        return FALSE;
      varying |= !x->literal;
    }
  if (!varying)
    return FALSE;
  for (guint i = 0; i < a->items->len; i++)
    {
      DynValue *va = dyn_value_map_lookup (a->items->pdata[i], sa->attribute);

      for (guint j = 0; va != NULL && j < b->items->len; j++)
        {
          DynValue *vb = dyn_value_map_lookup (b->items->pdata[j], sb->attribute);

          if (vb != NULL && dyn_value_equal (va, vb))
            return TRUE;
        }
    }
  return FALSE;
}

static void
infer_relationships (Infer          *self,
                     DynDesignModel *model)
{
  guint n = self->groups->len;
  g_autofree char **pk_templates = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    pk_templates[i] = group_template (self->groups->pdata[i], 0);

  /* 1:n: a shared partition-key template with a field; the parent has a
   * constant sort key or repeats its partition key, or its partition prefix
   * names it. */
  for (guint i = 0; i < n; i++)
    {
      Group *g = self->groups->pdata[i];
      int parent = -1, candidates = 0;

      if (pk_templates[i] == NULL || parent_like (self, g))
        continue;
      for (guint j = 0; j < n; j++)
        {
          Group *p = self->groups->pdata[j];

          if (j == i || !same_partitions (g, p))
            continue;
          if (parent_like (self, p))
            {
              parent = j;
              candidates++;
            }
        }
      if (candidates == 0)
        {
          /* Else the entity the partition prefix names. */
          for (guint j = 0; j < n; j++)
            {
              Group *p = self->groups->pdata[j];
              g_autofree char *named = p->pk_label ? label_to_name (p->pk_label) : NULL;

              if (j != i && same_partitions (g, p) &&
                  named != NULL && strcmp (named, p->name) == 0)
                {
                  parent = j;
                  candidates++;
                }
            }
        }
      if (candidates == 1)
        g->parent = parent;
    }

  for (guint i = 0; i < n; i++)
    {
      Group *g = self->groups->pdata[i];
      Group *p;
      DynDesignRelationship *rel;
      Shape *sk = table_sk (self) ? g->shapes->pdata[1] : NULL;
      int other = -1;

      if (g->parent < 0)
        continue;
      p = self->groups->pdata[g->parent];

      /* An edge: its sort key embeds another entity's partition key, and an
       * index is keyed by that. */
      if (sk != NULL && sk->separator != '\0')
        for (guint s = 1; s < sk->segments->len && other < 0; s++)
          {
            Segment *lit = sk->segments->pdata[s - 1], *seg = sk->segments->pdata[s];
            g_autofree char *embedded = NULL;

            if (!lit->literal || seg->literal || seg->inner != NULL || seg->pad > 0)
              continue;
            embedded = g_strdup_printf ("%s%c{%s}", lit->text, sk->separator, seg->field);
            for (guint j = 0; j < n && other < 0; j++)
              {
                if (j == i || (int) j == g->parent || g_strcmp0 (pk_templates[j], embedded) != 0)
                  continue;
                for (guint k = 0; k < self->key_attrs->len; k++)
                  {
                    KeyAttr *attr = self->key_attrs->pdata[k];
                    g_autofree char *t = NULL;

                    if (attr->table_key || !attr->partition)
                      continue;
                    t = group_template (g, k);
                    if (g_strcmp0 (t, embedded) == 0)
                      {
                        other = j;
                        break;
                      }
                  }
              }
          }

      rel = g_new0 (DynDesignRelationship, 1);
      rel->parent = g_strdup (p->name);
      if (other >= 0)
        {
          Group *q = self->groups->pdata[other];
          guint edges = g->items->len;
          guint64 a = per_parent (edges, distinct_values (g, g->shapes->pdata[0]));
          guint64 b = 0;

          for (guint k = 0; k < self->key_attrs->len; k++)
            {
              KeyAttr *attr = self->key_attrs->pdata[k];
              g_autofree char *t = NULL;

              if (attr->table_key || !attr->partition)
                continue;
              t = group_template (g, k);
              if (g_strcmp0 (t, pk_templates[other]) == 0)
                b = MAX (b, per_parent (edges, distinct_values (g, g->shapes->pdata[k])));
            }
          rel->kind = DYN_DESIGN_MANY_TO_MANY;
          rel->child = g_strdup (q->name);
          rel->edge = g_strdup (g->name);
          rel->items_per_parent = MAX (a, b);
          g->edge = TRUE;
        }
      else
        {
          rel->kind = DYN_DESIGN_ONE_TO_MANY;
          rel->child = g_strdup (g->name);
          rel->items_per_parent = per_parent (g->items->len, distinct_values (g, g->shapes->pdata[0]));
        }
      g_ptr_array_add (model->relationships, rel);
    }

  for (guint i = 0; i < n; i++)
    g_free (pk_templates[i]);
}

static void
add_pattern (DynDesignModel     *model,
             const char         *name,
             const char         *entity,
             DynDesignOperation  operation,
             GPtrArray          *parameters,
             gboolean            across_parents)
{
  DynDesignPattern *pattern;

  for (guint i = 0; i < model->patterns->len; i++)
    if (strcmp (((DynDesignPattern *) model->patterns->pdata[i])->name, name) == 0)
      return;
  pattern = dyn_design_pattern_new (name, entity, operation);
  g_strfreev (pattern->parameters);
  pattern->parameters = strv_from_array (parameters);
  pattern->across_parents = across_parents;
  g_ptr_array_add (model->patterns, pattern);
}

static char *
join_fields (GPtrArray *fields)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < fields->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append (out, fields->pdata[i]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
infer_patterns (Infer          *self,
                DynDesignModel *model)
{
  gboolean has_sk = table_sk (self) != NULL;

  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];
      g_autoptr(GPtrArray) pk_fields = g_ptr_array_new ();
      g_autoptr(GPtrArray) key_fields = g_ptr_array_new ();
      g_autofree char *get = NULL;

      shape_fields (g->shapes->pdata[0], pk_fields);
      shape_fields (g->shapes->pdata[0], key_fields);
      if (has_sk)
        shape_fields (g->shapes->pdata[1], key_fields);

      /* TRANSLATORS: an inferred access pattern: one item of an entity, "Get Project". */
      get = g_strdup_printf (C_("inferred access pattern", "Get %s"), g->name);
      add_pattern (model, get, g->name, DYN_DESIGN_GET, key_fields, FALSE);

      if (g->parent >= 0)
        {
          Group *p = self->groups->pdata[g->parent];
          /* TRANSLATORS: an inferred access pattern: the children in their parent's collection, "List Project by Workspace". */
          g_autofree char *list = g_strdup_printf (C_("inferred access pattern", "List %s by %s"), g->name, p->name);

          add_pattern (model, list, g->name, DYN_DESIGN_LIST, pk_fields, FALSE);
        }
      else if (has_sk && key_fields->len > pk_fields->len && pk_fields->len > 0)
        {
          g_autofree char *by = join_fields (pk_fields);
          g_autofree char *list = g_strdup_printf (C_("inferred access pattern", "List %s by %s"), g->name, by);

          add_pattern (model, list, g->name, DYN_DESIGN_LIST, pk_fields, FALSE);
        }

      for (guint k = 0; k < self->key_attrs->len; k++)
        {
          KeyAttr *attr = self->key_attrs->pdata[k];
          Shape *shape = g->shapes->pdata[k];
          DynDesignIndex *index = NULL;
          g_autoptr(GPtrArray) params = g_ptr_array_new ();
          g_autofree char *list = NULL;
          gboolean across = FALSE;

          if (attr->table_key || !attr->partition || shape == NULL || attr->index == NULL)
            continue;
          for (guint x = 0; x < self->table->indexes->len; x++)
            if (strcmp (((DynDesignIndex *) self->table->indexes->pdata[x])->name, attr->index) == 0)
              index = self->table->indexes->pdata[x];
          if (index == NULL || index->local)
            continue;
          shape_fields (shape, params);
          /* The parent's id is not given: the read spans every parent. */
          if (g->parent >= 0 && !g->edge)
            across = !strv_contains_all (params, pk_fields);
          /* TRANSLATORS: an inferred access pattern: the items of an entity in a global secondary index, "List Project on GSI1". */
          list = g_strdup_printf (C_("inferred access pattern", "List %s on %s"), g->name, index->name);
          add_pattern (model, list, g->name, DYN_DESIGN_LIST, params, across);
        }
    }
}

static void
build_entities (Infer          *self,
                DynDesignModel *model,
                JsonObject     *describe)
{
  gint64 item_count = json_object_get_int_member_with_default (describe, "ItemCount", 0);

  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *g = self->groups->pdata[i];
      DynDesignEntity *entity = dyn_design_entity_new (g->name);
      g_autoptr(GPtrArray) id = g_ptr_array_new ();
      g_autoptr(GPtrArray) parent_fields = g_ptr_array_new ();
      gsize size = 0;

      entity->description = group_description (self, g);
      if (g->disc_value != NULL)
        entity->discriminator = g_strdup_printf ("%s=%s", g->disc_attribute, g->disc_value);

      for (guint k = 0; k < self->key_attrs->len; k++)
        {
          KeyAttr *attr = self->key_attrs->pdata[k];
          g_autofree char *t = group_template (g, k);

          if (t != NULL)
            dyn_design_entity_set_key (entity, attr->name, t);
        }
      add_attributes (self, g, entity);
      for (guint k = 0; k < g->shapes->len; k++)
        {
          Shape *shape = g->shapes->pdata[k];
          g_autofree char *note = NULL;
          char *description;

          if (shape == NULL || shape->shards == 0)
            continue;
          /* TRANSLATORS: an inferred entity whose partition key is sharded on some items: "EntityRef ends in a shard number (up to 10) on some items; the template leaves it out." */
          note = g_strdup_printf (_("%s ends in a shard number (up to %u) on some items; the template leaves it out."),
                                  shape->attribute, shape->shards);
          description = g_strconcat (entity->description ? entity->description : "", " ", note, NULL);
          g_free (entity->description);
          entity->description = description;
        }

      if (g->parent >= 0)
        shape_fields (g->shapes->pdata[0], parent_fields);
      {
        g_autoptr(GPtrArray) fields = g_ptr_array_new ();

        shape_fields (g->shapes->pdata[0], fields);
        if (table_sk (self) != NULL)
          shape_fields (g->shapes->pdata[1], fields);
        for (guint f = 0; f < fields->len; f++)
          {
            gboolean parents = FALSE;

            for (guint p = 0; p < parent_fields->len; p++)
              parents |= strcmp (parent_fields->pdata[p], fields->pdata[f]) == 0;
            if (!parents)
              g_ptr_array_add (id, fields->pdata[f]);
          }
      }
      g_strfreev (entity->id);
      entity->id = strv_from_array (id);

      for (guint j = 0; j < g->items->len; j++)
        size += dyn_item_size (g->items->pdata[j]);
      entity->item_size = g->items->len ? size / g->items->len : 0;
      entity->count = self->n_items > 0 && (guint64) item_count > self->n_items
                        ? (guint64) ((double) g->items->len * item_count / self->n_items + 0.5)
                        : g->items->len;
      g_ptr_array_add (model->entities, entity);
    }
}

DynDesignModel *
dyn_design_infer (JsonObject *describe_table,
                  GPtrArray  *items,
                  GError    **error)
{
  Infer self = { 0 };
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(GPtrArray) none = NULL;
  const char *how;

  g_return_val_if_fail (describe_table != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (items == NULL)
    items = none = g_ptr_array_new ();

  self.key_attrs = g_ptr_array_new_with_free_func (key_attr_free);
  self.key_names = g_hash_table_new (g_str_hash, g_str_equal);
  self.groups = g_ptr_array_new_with_free_func (group_free);
  self.prefix_fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self.n_items = items->len;

  if (!read_table (&self, describe_table, error))
    {
      infer_clear (&self);
      return NULL;
    }
  for (guint i = 0; i < items->len; i++)
    if (items->pdata[i] == NULL || dyn_value_get_value_type (items->pdata[i]) != DYN_VALUE_M)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("Item %u of the sample is not an item (a map)."), i);
        infer_clear (&self);
        return NULL;
      }

  classify (&self, items);
  name_groups (&self);
  infer_keys (&self);

  model = dyn_design_model_new (self.table->name);
  switch (self.source)
    {
    case DYN_ENTITY_SOURCE_ATTRIBUTE:
      /* TRANSLATORS: how the entities of an inferred model were told apart; %s is an attribute name. */
      how = _("its attribute %s");
      break;
    case DYN_ENTITY_SOURCE_SORT_KEY:
      how = _("sort-key prefixes");
      break;
    case DYN_ENTITY_SOURCE_PARTITION_KEY:
      how = _("partition-key prefixes");
      break;
    case DYN_ENTITY_SOURCE_NONE:
    default:
      how = NULL;
      break;
    }
  {
    g_autofree char *source = how ? g_strdup_printf (how, self.disc_attribute) : NULL;

    g_free (model->description);
    if (source != NULL)
      /* TRANSLATORS: the description of an inferred model: "Inferred from 279 sampled items of table Workspaces; entities from sort-key prefixes." */
      model->description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "Inferred from %u sampled item of table %s; entities from %s.",
                                                          "Inferred from %u sampled items of table %s; entities from %s.",
                                                          items->len),
                                            items->len, self.table->name, source);
    else
      model->description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "Inferred from %u sampled item of table %s; one entity.",
                                                          "Inferred from %u sampled items of table %s; one entity.",
                                                          items->len),
                                            items->len, self.table->name);
  }

  infer_relationships (&self, model);
  build_entities (&self, model, describe_table);
  infer_patterns (&self, model);
  model->table = g_steal_pointer (&self.table);
  model->source_format = DYN_DESIGN_FORMAT_DYNOSCOPE;

  infer_clear (&self);
  return g_steal_pointer (&model);
}

/* ------------------------------------------------------------------------ */
/* From a live table */

typedef struct {
  char       *table;
  guint       max_items;
  JsonObject *describe;
  GPtrArray  *items;
  DynPager   *pager;
} InferData;

static void
infer_data_free (gpointer data)
{
  InferData *d = data;

  g_free (d->table);
  g_clear_pointer (&d->describe, json_object_unref);
  g_clear_pointer (&d->items, g_ptr_array_unref);
  g_clear_object (&d->pager);
  g_free (d);
}

static void
sample_page_cb (GPtrArray *items,
                gpointer   user_data)
{
  InferData *d = user_data;

  for (guint i = 0; i < items->len; i++)
    if (d->items->len < d->max_items)
      g_ptr_array_add (d->items, dyn_value_ref (items->pdata[i]));
}

static void
sample_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  InferData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  const DynReadStats *stats;

  if (!dyn_pager_run_finish (DYN_PAGER (source), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  model = dyn_design_infer (d->describe, d->items, &error);
  if (model == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  stats = dyn_pager_get_stats (d->pager);
  {
    /* TRANSLATORS: appended to an inferred model's description: what reading the sample cost. */
    g_autofree char *cost = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "The sample took %u Scan request, %.1f RCU.",
                                                          "The sample took %u Scan requests, %.1f RCU.",
                                                          stats->requests),
                                             stats->requests, stats->read_units);
    char *description = g_strconcat (model->description ? model->description : "", " ", cost, NULL);

    g_free (model->description);
    model->description = description;
  }
  g_task_return_pointer (task, g_steal_pointer (&model), (GDestroyNotify) dyn_design_model_free);
}

static void
describe_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  InferData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  JsonObject *describe;

  describe = dyn_client_describe_table_finish (DYN_CLIENT (source), result, NULL, &error);
  if (describe == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  d->describe = describe;
  request = dyn_request_new (DYN_OP_SCAN, d->table);
  d->pager = dyn_pager_new (DYN_CLIENT (source), request);
  dyn_pager_run_async (d->pager, 1, d->max_items, sample_page_cb, d,
                       g_task_get_cancellable (task), sample_done_cb, g_object_ref (task));
}

void
dyn_design_infer_async (DynClient           *client,
                        const char          *table,
                        guint                max_items,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  InferData *d;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (table != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_design_infer_async);
  d = g_new0 (InferData, 1);
  d->table = g_strdup (table);
  d->max_items = max_items > 0 ? max_items : SAMPLE_DEFAULT;
  d->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_task_set_task_data (task, d, infer_data_free);
  dyn_client_describe_table_async (client, table, cancellable, describe_cb, g_steal_pointer (&task));
}

DynDesignModel *
dyn_design_infer_finish (DynClient     *client,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_design_infer_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
