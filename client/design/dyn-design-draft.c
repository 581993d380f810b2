/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-design-draft"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-design.h"
#include "dyn-design-draft-private.h"
#include "dyn-design-private.h"

/*
 * The draft: from entities, relationships and access patterns to a key plan.
 *
 * Placement (a table the model does not fix):
 *   top-level entity   PK "<P>#{id}"                 SK "META"
 *   1:n child          PK = its parent's identity    SK "<C>#{sort_by}#{id}" or "<C>#{id}"
 *                      (a top-level parent's identity is its PK; a child's
 *                      is its parent's identity + "#<C>#{id}", so a
 *                      grandchild gets the partition of its own parent)
 *   n:m edge E (A↔B)   PK = A's identity             SK "<E>#<B>#{B's id}"
 *                      GSIn (when a pattern reads from B's side):
 *                      GSInPK = B's identity         GSInSK = A's identity
 *   across parents     GSIn: GSInPK "<PARAM>#{param}" (one "NAME#{name}"
 *                      segment per parameter, a parent id as the parent's
 *                      identity), GSInSK = the entity's order "<P>#{sort_by
 *                      or id}"; an overloaded GSI reused by every pattern
 *                      with the same parameters
 *   hot collection     PK + "#{shard}", shards 2, 5, 10, 20, 50 …
 *
 * With a fixed table the entities' templates are the model's (an entity
 * attribute named like a key attribute is its own template, "{year}").
 *
 * Each pattern then goes to the first source (the table, then the indexes)
 * whose partition key template the parameters fill: a GetItem when they
 * fill the table's whole key, else a Query; a Scan when none does.
 */

#define ITEM_SIZE_DEFAULT   1024.0
#define COLLECTION_LIMIT    (10.0 * 1024 * 1024 * 1024)   /* 10 GB */
#define PARTITION_RCU       3000.0
#define PARTITION_WCU       1000.0
#define HOT_FRACTION        0.8     /* "near" a limit: 80 % of it */
#define QUERY_PAGE_BYTES    (1024.0 * 1024)

struct _DynDesignPlan
{
  DynDesignModel *model;       /* copy, with the edges the draft added */
  DynDesignTable *table;
  GPtrArray      *placements;  /* DynDesignPlacement */
  GPtrArray      *decisions;   /* DynDesignDecision */
  GPtrArray      *requests;    /* DynDesignRequest */
};

typedef enum {
  ROLE_TOP,
  ROLE_CHILD,
  ROLE_EDGE,
} Role;

typedef struct {
  DynDesignEntity       *entity;
  Role                   role;
  DynDesignEntity       *parent;      /* CHILD: the parent; EDGE: side A */
  DynDesignEntity       *other;       /* EDGE: side B */
  DynDesignRelationship *relationship;
  char                  *prefix;
  char                  *identity;    /* the template that names one item (unsharded) */
  DynDesignPlacement    *placement;
  gboolean               placing;
  char                  *inverted_index;  /* EDGE: the index that inverts it */
} Info;

typedef struct {
  DynDesignPlan *plan;
  GHashTable    *infos;       /* entity name → Info */
  GPtrArray     *order;       /* Info, in model order */
  GHashTable    *attribute_indexes;  /* "p1,p2" → index name */
  guint          next_index;
} Draft;

/* ------------------------------------------------------------------------ */
/* Small structures */

static void
placement_free (DynDesignPlacement *p)
{
  g_free (p->entity);
  g_clear_pointer (&p->keys, g_ptr_array_unref);
  g_free (p);
}

static void
decision_free (DynDesignDecision *d)
{
  g_free (d->subject);
  g_free (d->pattern);
  g_free (d->text);
  g_free (d);
}

static void
request_free (DynDesignRequest *r)
{
  g_free (r->pattern);
  g_free (r->index);
  g_clear_object (&r->request);
  g_clear_pointer (&r->parameters, g_hash_table_unref);
  g_free (r->reason);
  g_free (r);
}

static void
info_free (Info *info)
{
  g_free (info->prefix);
  g_free (info->identity);
  g_free (info->inverted_index);
  g_free (info);
}

static void
add_decision (DynDesignPlan *plan,
              const char    *subject,
              const char    *pattern,
              gboolean       warning,
              char          *text)   /* taken */
{
  DynDesignDecision *d = g_new0 (DynDesignDecision, 1);

  d->subject = g_strdup (subject);
  d->pattern = g_strdup (pattern);
  d->text = text;
  d->warning = warning;
  g_ptr_array_add (plan->decisions, d);
}

static const char *
placement_get_key (const DynDesignPlacement *p,
                   const char               *attribute)
{
  if (p == NULL || attribute == NULL)
    return NULL;
  for (guint i = 0; i < p->keys->len; i++)
    {
      DynDesignKey *k = p->keys->pdata[i];

      if (g_strcmp0 (k->attribute, attribute) == 0)
        return k->template;
    }
  return NULL;
}

static void
placement_set_key (DynDesignPlacement *p,
                   const char         *attribute,
                   const char         *template)
{
  DynDesignKey *k;

  for (guint i = 0; i < p->keys->len; i++)
    {
      k = p->keys->pdata[i];
      if (g_strcmp0 (k->attribute, attribute) == 0)
        {
          g_free (k->template);
          k->template = g_strdup (template);
          return;
        }
    }
  k = g_new0 (DynDesignKey, 1);
  k->attribute = g_strdup (attribute);
  k->template = g_strdup (template);
  g_ptr_array_add (p->keys, k);
}

static DynDesignPlacement *
placement_new (const char *entity)
{
  DynDesignPlacement *p = g_new0 (DynDesignPlacement, 1);

  p->entity = g_strdup (entity);
  p->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_key_free);
  p->shards = 1;
  return p;
}

static gboolean
strv_has (char * const *strv,
          const char   *s)
{
  return strv != NULL && s != NULL && g_strv_contains ((const char * const *) strv, s);
}

/* ------------------------------------------------------------------------ */
/* Prefixes */

static const struct {
  const char *word;
  const char *abbreviation;
} abbreviations[] = {
  { "workspace", "WS" }, { "project", "PROJ" }, { "student", "STU" }, { "course", "CRS" },
  { "enrollment", "ENROLL" }, { "enrolment", "ENROLL" }, { "customer", "CUST" },
  { "product", "PROD" }, { "account", "ACCT" }, { "organization", "ORG" },
  { "organisation", "ORG" }, { "invoice", "INV" }, { "message", "MSG" },
  { "employee", "EMP" }, { "department", "DEPT" }, { "address", "ADDR" },
  { "category", "CAT" }, { "comment", "CMT" }, { "payment", "PAY" },
  { "subscription", "SUB" }, { "transaction", "TXN" }, { "document", "DOC" },
  { "session", "SESS" }, { "membership", "MBR" }, { "member", "MBR" },
  { "tenant", "TENANT" }, { "warehouse", "WH" }, { "shipment", "SHIP" },
  { "reservation", "RES" }, { "appointment", "APPT" }, { "notification", "NOTIF" },
};

/* "Workspace" → "WS", "OrderLine" → "ORDERLINE", "shipping_address" →
 * "SHIPADDR": each word by the table above, else whole when it has at most
 * five letters, else its first four. */
static char *
abbreviate (const char *name)
{
  GString *out = g_string_new (NULL);
  GString *word = g_string_new (NULL);

  for (const char *p = name;; p++)
    {
      gboolean boundary = *p == '\0' || !g_ascii_isalnum (*p) ||
                          (g_ascii_isupper (*p) && word->len > 0 && !g_ascii_isupper (word->str[word->len - 1]));

      if (boundary && word->len > 0)
        {
          g_autofree char *lower = g_ascii_strdown (word->str, -1);
          const char *abbr = NULL;

          for (guint i = 0; i < G_N_ELEMENTS (abbreviations); i++)
            if (strcmp (abbreviations[i].word, lower) == 0)
              abbr = abbreviations[i].abbreviation;
          if (abbr != NULL)
            g_string_append (out, abbr);
          else
            {
              g_autofree char *upper = g_ascii_strup (word->str, word->len <= 5 ? -1 : 4);
              g_string_append (out, upper);
            }
          g_string_truncate (word, 0);
        }
      if (*p == '\0')
        break;
      if (g_ascii_isalnum (*p))
        g_string_append_c (word, *p);
    }
  g_string_free (word, TRUE);
  if (out->len == 0)
    g_string_append (out, "E");
  return g_string_free (out, FALSE);
}

static void
assign_prefixes (Draft *draft)
{
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < draft->order->len; i++)
    {
      Info *info = draft->order->pdata[i];
      g_autofree char *prefix = abbreviate (info->entity->name);

      if (g_hash_table_contains (used, prefix))
        {
          g_autofree char *whole = NULL;
          GString *s = g_string_new (NULL);

          for (const char *p = info->entity->name; *p; p++)
            if (g_ascii_isalnum (*p))
              g_string_append_c (s, g_ascii_toupper (*p));
          whole = g_string_free (s, FALSE);
          g_free (prefix);
          prefix = g_strdup (whole);
          for (guint n = 2; g_hash_table_contains (used, prefix); n++)
            {
              g_free (prefix);
              prefix = g_strdup_printf ("%s%u", whole, n);
            }
        }
      g_hash_table_add (used, g_strdup (prefix));
      info->prefix = g_steal_pointer (&prefix);
    }
}

/* "P#{a}#{b}" */
static char *
prefixed_fields (const char   *prefix,
                 char * const *fields)
{
  GString *s = g_string_new (prefix);

  for (guint i = 0; fields != NULL && fields[i] != NULL; i++)
    g_string_append_printf (s, "#{%s}", fields[i]);
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Templates */

static DynDesignTemplate *
parse_template (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynDesignTemplate *t;

  if (text == NULL)
    return NULL;
  t = dyn_design_template_parse (text, &error);
  if (t == NULL)
    g_debug ("template “%s”: %s", text, error->message);
  return t;
}

/* Whether every field of @text is in @given (the shard is not a field). */
static gboolean
template_fields_given (const char   *text,
                       char * const *given,
                       GPtrArray    *used)
{
  g_autoptr(DynDesignTemplate) t = parse_template (text);
  g_auto(GStrv) fields = NULL;

  if (t == NULL)
    return FALSE;
  fields = dyn_design_template_get_fields (t);
  for (guint i = 0; fields[i] != NULL; i++)
    if (!strv_has (given, fields[i]))
      return FALSE;
  for (guint i = 0; used != NULL && fields[i] != NULL; i++)
    g_ptr_array_add (used, g_strdup (fields[i]));
  return TRUE;
}

static gboolean
template_has_shard (const char *text)
{
  g_autoptr(DynDesignTemplate) t = parse_template (text);

  return t != NULL && dyn_design_template_has_shard (t);
}

/* The literal text before the first field, cut after its first '#': the
 * part that tells the entity's items apart in a shared partition
 * ("ENROLL#" of "ENROLL#CRS#{courseId}", as the seed narrows it). */
static char *
entity_prefix_of (const char *text)
{
  g_autoptr(DynDesignTemplate) t = parse_template (text);
  const char *prefix;
  const char *hash;

  if (t == NULL || dyn_design_template_is_constant (t))
    return NULL;
  prefix = dyn_design_template_get_prefix (t);
  if (prefix == NULL || prefix[0] == '\0')
    return NULL;
  hash = strchr (prefix, '#');
  return hash ? g_strndup (prefix, hash - prefix + 1) : g_strdup (prefix);
}

/* ------------------------------------------------------------------------ */
/* Placement */

static Info *
info_of (Draft      *draft,
         const char *entity)
{
  return entity ? g_hash_table_lookup (draft->infos, entity) : NULL;
}

static const char *
table_sort_key (const DynDesignPlan *plan)
{
  return plan->table->sort_key;
}

/* The hot-partition estimate of an entity's collection within one parent:
 * the ratio of its load to the nearest limit, with its figures. */
typedef struct {
  double bytes;
  double rcu;
  double wcu;
  double ratio;
} Load;

static Load
collection_load (Draft *draft,
                 Info  *info)
{
  DynDesignEntity *e = info->entity;
  double size = e->item_size > 0 ? e->item_size : ITEM_SIZE_DEFAULT;
  double items = info->relationship ? (double) info->relationship->items_per_parent : 0;
  double pattern_rcu = 0;
  Load load = { 0 };

  load.bytes = items * size;
  /* The model's rates are taken as the peak of one collection (the
   * hottest parent's): a hot partition is about one key. */
  load.rcu = e->reads_per_second * ceil (size / 4096.0);
  for (guint i = 0; i < draft->plan->model->patterns->len; i++)
    {
      DynDesignPattern *p = draft->plan->model->patterns->pdata[i];

      if (g_strcmp0 (p->entity, e->name) != 0 || p->reads_per_second <= 0 || p->across_parents)
        continue;
      if (p->operation == DYN_DESIGN_GET)
        pattern_rcu += p->reads_per_second * ceil (size / 4096.0) * 0.5;
      else   /* a Query page, eventually consistent */
        pattern_rcu += p->reads_per_second * MAX (1.0, ceil (MIN (load.bytes, QUERY_PAGE_BYTES) / 4096.0) * 0.5);
    }
  load.rcu = MAX (load.rcu, pattern_rcu);
  load.wcu = e->writes_per_second * ceil (size / 1024.0);
  load.ratio = MAX (load.bytes / COLLECTION_LIMIT, MAX (load.rcu / PARTITION_RCU, load.wcu / PARTITION_WCU));
  return load;
}

/* ceil(ratio / 80 %) rounded up to 2, 5, 10, 20, 50, 100 … */
static guint
shards_for (double ratio)
{
  double needed = ceil (ratio / HOT_FRACTION);
  guint n = 2;

  for (guint base = 1; base < 100000; base *= 10)
    {
      if (needed <= 2 * base)
        return MAX (n, 2 * base);
      if (needed <= 5 * base)
        return 5 * base;
      if (needed <= 10 * base)
        return 10 * base;
    }
  return 10000;
}

static char *
format_bytes (double bytes)
{
  return g_format_size ((guint64) bytes);
}

static void place (Draft *draft, Info *info);

static const char *
first_pattern_of (Draft      *draft,
                  const char *entity)
{
  for (guint i = 0; i < draft->plan->model->patterns->len; i++)
    {
      DynDesignPattern *p = draft->plan->model->patterns->pdata[i];

      if (g_strcmp0 (p->entity, entity) == 0)
        return p->name;
    }
  return NULL;
}

static void
shard_if_hot (Draft *draft,
              Info  *info)
{
  DynDesignPlan *plan = draft->plan;
  const char *pk = plan->table->partition_key;
  Load load = collection_load (draft, info);
  g_autofree char *sharded = NULL;
  g_autofree char *size = NULL;
  g_autofree char *ids = NULL;

  if (load.ratio <= HOT_FRACTION)
    return;
  info->placement->shards = shards_for (load.ratio);
  sharded = g_strdup_printf ("%s#{shard}", placement_get_key (info->placement, pk));
  placement_set_key (info->placement, pk, sharded);
  size = format_bytes (load.bytes);
  ids = info->entity->id && info->entity->id[0] ? g_strjoinv (", ", info->entity->id) : g_strdup (info->entity->name);
  add_decision (plan, info->entity->name, first_pattern_of (draft, info->entity->name), TRUE,
                /* Translators: a hot partition. The first %s is an entity, the
                 * second a size ("20 GB"), the %.0f are read and write capacity
                 * units per second, %u the number of shards, the next %s the
                 * sharded partition key ("WS#{workspaceId}#01..10"), the last
                 * the id attributes */
                g_strdup_printf (_("%s is a hot partition candidate (%s per collection, %.0f RCU and %.0f WCU at peak; "
                                   "one partition takes 3000 RCU, 1000 WCU and, with a local index, 10 GB): its partition key "
                                   "is sharded into %u keys (%s), each item's shard a hash of %s, and its collection reads fan out "
                                   "over every shard."),
                                 info->entity->name, size, load.rcu, load.wcu, info->placement->shards,
                                 sharded, ids));
}

static void
place_drafted (Draft *draft,
               Info  *info)
{
  DynDesignPlan *plan = draft->plan;
  DynDesignEntity *e = info->entity;
  const char *pk = plan->table->partition_key;
  const char *sk = table_sort_key (plan);
  g_autofree char *pk_template = NULL;
  g_autofree char *sk_template = NULL;
  const char *given_pk = dyn_design_entity_get_key (e, pk);
  const char *given_sk = sk ? dyn_design_entity_get_key (e, sk) : NULL;

  switch (info->role)
    {
    case ROLE_TOP:
      pk_template = prefixed_fields (info->prefix, e->id);
      sk_template = g_strdup ("META");
      info->identity = g_strdup (pk_template);
      break;
    case ROLE_CHILD:
      {
        Info *parent = info_of (draft, info->parent->name);
        g_autofree char *own = prefixed_fields (info->prefix, e->id);
        GStrv order = NULL;
        g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

        place (draft, parent);
        pk_template = g_strdup (parent->identity);
        if (e->sort_by != NULL && !strv_has (e->id, e->sort_by))
          g_strv_builder_add (b, e->sort_by);
        g_strv_builder_addv (b, (const char **) e->id);
        order = g_strv_builder_end (b);
        sk_template = prefixed_fields (info->prefix, order);
        g_strfreev (order);
        info->identity = g_strdup_printf ("%s#%s", parent->identity, own);
        break;
      }
    case ROLE_EDGE:
      {
        Info *a = info_of (draft, info->parent->name);
        Info *b = info_of (draft, info->other->name);
        g_autofree char *other = NULL;

        place (draft, a);
        place (draft, b);
        other = prefixed_fields (b->prefix, info->other->id);
        pk_template = g_strdup (a->identity);
        sk_template = g_strdup_printf ("%s#%s", info->prefix, other);
        info->identity = g_strdup_printf ("%s#%s", pk_template, sk_template);
        break;
      }
    }

  /* Templates the model gives for the table's keys win. */
  if (given_pk != NULL)
    {
      g_free (pk_template);
      pk_template = g_strdup (given_pk);
    }
  if (given_sk != NULL)
    {
      g_free (sk_template);
      sk_template = g_strdup (given_sk);
    }
  placement_set_key (info->placement, pk, pk_template);
  if (sk != NULL)
    placement_set_key (info->placement, sk, sk_template);
  for (guint i = 0; i < e->keys->len; i++)
    {
      DynDesignKey *k = e->keys->pdata[i];

      if (placement_get_key (info->placement, k->attribute) == NULL)
        placement_set_key (info->placement, k->attribute, k->template);
    }

  switch (info->role)
    {
    case ROLE_TOP:
      add_decision (plan, e->name, first_pattern_of (draft, e->name), FALSE,
                    /* Translators: %s: an entity, its partition key template, its sort key template */
                    g_strdup_printf (_("%s is a top-level entity: partition key %s and sort key %s, so that one item is one "
                                       "GetItem and the items that belong to it can share its partition."),
                                     e->name, pk_template, sk ? sk_template : "-"));
      break;
    case ROLE_CHILD:
      add_decision (plan, e->name, first_pattern_of (draft, e->name), FALSE,
                    /* Translators: %s: the child entity, the parent entity, the
                     * partition key template, the sort key template */
                    g_strdup_printf (_("%s lives in its %s's partition (partition key %s, sort key %s), so that the "
                                       "parent and its children are one item collection that one Query reads."),
                                     e->name, info->parent->name, pk_template, sk ? sk_template : "-"));
      shard_if_hot (draft, info);
      break;
    case ROLE_EDGE:
      add_decision (plan, e->name, first_pattern_of (draft, e->name), FALSE,
                    /* Translators: %s: the edge entity, the two sides, the side it is
                     * keyed by, the partition key template, the sort key template */
                    g_strdup_printf (_("%s is the edge of %s ↔ %s, keyed by the %s (partition key %s, sort key %s), so "
                                       "that one Query lists its edges."),
                                     e->name, info->parent->name, info->other->name, info->parent->name,
                                     pk_template, sk ? sk_template : "-"));
      shard_if_hot (draft, info);
      break;
    }
}

/* A fixed table: the model's templates, and an attribute named like a key
 * attribute as its own template. */
static void
place_fixed (Draft *draft,
             Info  *info)
{
  DynDesignPlan *plan = draft->plan;
  DynDesignEntity *e = info->entity;
  g_autoptr(GPtrArray) attributes = g_ptr_array_new ();

  g_ptr_array_add (attributes, plan->table->partition_key);
  if (plan->table->sort_key)
    g_ptr_array_add (attributes, plan->table->sort_key);
  for (guint i = 0; i < plan->table->indexes->len; i++)
    {
      DynDesignIndex *index = plan->table->indexes->pdata[i];

      g_ptr_array_add (attributes, index->partition_key);
      if (index->sort_key)
        g_ptr_array_add (attributes, index->sort_key);
    }
  for (guint i = 0; i < attributes->len; i++)
    {
      const char *name = attributes->pdata[i];
      const char *given = dyn_design_entity_get_key (e, name);

      if (placement_get_key (info->placement, name) != NULL)
        continue;
      if (given != NULL)
        placement_set_key (info->placement, name, given);
      else if (dyn_design_entity_find_attribute (e, name) != NULL)
        {
          g_autofree char *whole = g_strdup_printf ("{%s}", name);
          placement_set_key (info->placement, name, whole);
        }
    }
  if (template_has_shard (placement_get_key (info->placement, plan->table->partition_key)))
    {
      Load load = collection_load (draft, info);
      /* The model does not say into how many; the load does, else the seeds' 10. */
      info->placement->shards = load.ratio > HOT_FRACTION ? shards_for (load.ratio) : 10;
    }
  if (placement_get_key (info->placement, plan->table->partition_key) == NULL)
    add_decision (plan, e->name, first_pattern_of (draft, e->name), TRUE,
                  /* Translators: %s: an entity, a key attribute */
                  g_strdup_printf (_("%s has no template for the table's partition key %s: no pattern on it can be a "
                                     "GetItem or Query of the table."),
                                   e->name, plan->table->partition_key));
}

static void
place (Draft *draft,
       Info  *info)
{
  if (info == NULL || info->placement != NULL || info->placing)
    return;
  info->placing = TRUE;
  info->placement = placement_new (info->entity->name);
  if (draft->plan->table->fixed)
    place_fixed (draft, info);
  else
    place_drafted (draft, info);
  if (info->identity == NULL)
    info->identity = g_strdup (placement_get_key (info->placement, draft->plan->table->partition_key));
}

/* ------------------------------------------------------------------------ */
/* Matching a pattern to a source */

typedef enum {
  SORT_NONE,         /* partition key only */
  SORT_BEGINS,       /* begins_with the entity's prefix */
  SORT_EQUAL,        /* the whole sort key */
  SORT_RANGE,        /* the pattern's range condition */
} SortMode;

typedef struct {
  const char *index;     /* NULL: the table */
  const char *pk;
  const char *pk_template;
  const char *sk;        /* NULL: no sort key */
  const char *sk_template;
  SortMode    sort;
  char       *sort_prefix;
  gboolean    get_item;
  GPtrArray  *filter;    /* parameters no key holds */
} Match;

static void
match_clear (Match *m)
{
  g_clear_pointer (&m->sort_prefix, g_free);
  g_clear_pointer (&m->filter, g_ptr_array_unref);
  memset (m, 0, sizeof *m);
}

static gboolean
ptr_array_has_string (GPtrArray  *a,
                      const char *s)
{
  for (guint i = 0; i < a->len; i++)
    if (g_strcmp0 (a->pdata[i], s) == 0)
      return TRUE;
  return FALSE;
}

/* Whether the range attribute comes right after the sort key's literal
 * prefix (its first field). */
static gboolean
range_fits (const char *sk_template,
            const char *attribute)
{
  g_autoptr(DynDesignTemplate) t = parse_template (sk_template);
  g_auto(GStrv) fields = NULL;

  if (t == NULL)
    return FALSE;
  fields = dyn_design_template_get_fields (t);
  return fields[0] != NULL && strcmp (fields[0], attribute) == 0;
}

static gboolean
match_source (Draft                    *draft,
              const DynDesignPattern   *pattern,
              const DynDesignPlacement *placement,
              const char               *index,
              const char               *pk,
              const char               *sk,
              Match                    *m)
{
  const char *pk_template = placement_get_key (placement, pk);
  const char *sk_template = sk ? placement_get_key (placement, sk) : NULL;
  g_autoptr(GPtrArray) used = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rest = g_ptr_array_new_with_free_func (g_free);

  memset (m, 0, sizeof *m);
  if (pk_template == NULL || (sk != NULL && sk_template == NULL))
    return FALSE;   /* not in this source (a sparse index leaves it out) */
  if (!template_fields_given (pk_template, pattern->parameters, used))
    return FALSE;
  for (guint i = 0; pattern->parameters && pattern->parameters[i]; i++)
    if (!ptr_array_has_string (used, pattern->parameters[i]) &&
        g_strcmp0 (pattern->parameters[i], pattern->range_attribute) != 0)
      g_ptr_array_add (rest, g_strdup (pattern->parameters[i]));

  m->index = index;
  m->pk = pk;
  m->pk_template = pk_template;
  m->sk = sk;
  m->sk_template = sk_template;
  m->filter = g_ptr_array_new_with_free_func (g_free);

  if (pattern->operation == DYN_DESIGN_GET)
    {
      g_autoptr(GPtrArray) sk_used = g_ptr_array_new_with_free_func (g_free);

      /* The sort key may repeat a field of the partition key (a customer
       * keyed PK = SK = {customerId}): any parameter fills it. */
      if (sk_template != NULL && !template_fields_given (sk_template, pattern->parameters, sk_used))
        {
          match_clear (m);
          return FALSE;
        }
      for (guint i = 0; i < rest->len; i++)
        if (!ptr_array_has_string (sk_used, rest->pdata[i]))
          g_ptr_array_add (m->filter, g_strdup (rest->pdata[i]));
      m->get_item = index == NULL && m->filter->len == 0;
      m->sort = sk_template ? SORT_EQUAL : SORT_NONE;
      return TRUE;
    }

  if (pattern->range_attribute != NULL)
    {
      if (sk_template == NULL || !range_fits (sk_template, pattern->range_attribute))
        {
          match_clear (m);
          return FALSE;
        }
      m->sort = SORT_RANGE;
      {
        g_autoptr(DynDesignTemplate) t = parse_template (sk_template);
        m->sort_prefix = g_strdup (t ? dyn_design_template_get_prefix (t) : "");
      }
    }
  else if (sk_template != NULL)
    {
      g_autoptr(DynDesignTemplate) t = parse_template (sk_template);

      /* A list by the entity's own identity reads its item collection
       * (the student and her enrolments). */
      if (t != NULL && dyn_design_template_is_constant (t))
        m->sort = SORT_NONE;
      else if ((m->sort_prefix = entity_prefix_of (sk_template)) != NULL)
        m->sort = SORT_BEGINS;
      else
        m->sort = SORT_NONE;
    }
  for (guint i = 0; i < rest->len; i++)
    g_ptr_array_add (m->filter, g_strdup (rest->pdata[i]));
  return TRUE;
}

/* The best source for @pattern: one without a filter first, the table
 * before the indexes. */
static gboolean
match_pattern (Draft                  *draft,
               const DynDesignPattern *pattern,
               const char             *only_index,
               Match                  *best)
{
  DynDesignPlan *plan = draft->plan;
  Info *info = info_of (draft, pattern->entity);
  gboolean found = FALSE;

  memset (best, 0, sizeof *best);
  if (info == NULL || info->placement == NULL)
    return FALSE;
  for (guint i = 0; i <= plan->table->indexes->len; i++)
    {
      DynDesignIndex *index = i == 0 ? NULL : plan->table->indexes->pdata[i - 1];
      Match m;

      if (only_index != NULL && (index == NULL || g_strcmp0 (index->name, only_index) != 0))
        continue;
      if (!match_source (draft, pattern, info->placement,
                         index ? index->name : NULL,
                         index ? index->partition_key : plan->table->partition_key,
                         index ? index->sort_key : plan->table->sort_key, &m))
        continue;
      if (!found || (best->filter->len > 0 && m.filter->len == 0) ||
          (pattern->operation == DYN_DESIGN_GET && !best->get_item && m.get_item))
        {
          if (found)
            match_clear (best);
          *best = m;
          found = TRUE;
        }
      else
        match_clear (&m);
    }
  return found;
}

/* ------------------------------------------------------------------------ */
/* Indexes the patterns need */

static char *
new_index (Draft      *draft,
           char      **pk_out,
           char      **sk_out)
{
  DynDesignTable *table = draft->plan->table;
  DynDesignIndex *index;
  char *name = NULL;

  for (;;)
    {
      gboolean taken = FALSE;

      g_free (name);
      name = g_strdup_printf ("GSI%u", ++draft->next_index);
      for (guint i = 0; i < table->indexes->len; i++)
        taken |= g_strcmp0 (((DynDesignIndex *) table->indexes->pdata[i])->name, name) == 0;
      if (!taken)
        break;
    }
  index = g_new0 (DynDesignIndex, 1);
  index->name = g_strdup (name);
  index->partition_key = g_strdup_printf ("%sPK", name);
  index->partition_type = g_strdup ("S");
  index->sort_key = g_strdup_printf ("%sSK", name);
  index->sort_type = g_strdup ("S");
  index->projection = g_strdup ("ALL");
  g_ptr_array_add (table->indexes, index);
  *pk_out = index->partition_key;
  *sk_out = index->sort_key;
  return name;
}

static DynDesignIndex *
find_index (DynDesignTable *table,
            const char     *name)
{
  for (guint i = 0; i < table->indexes->len; i++)
    if (g_strcmp0 (((DynDesignIndex *) table->indexes->pdata[i])->name, name) == 0)
      return table->indexes->pdata[i];
  return NULL;
}

/* The entity's order among its siblings: "<P>#{sort_by}#{id}". */
static char *
order_template (Info *info)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) order = NULL;

  if (info->entity->sort_by != NULL && !strv_has (info->entity->id, info->entity->sort_by))
    g_strv_builder_add (b, info->entity->sort_by);
  g_strv_builder_addv (b, (const char **) info->entity->id);
  order = g_strv_builder_end (b);
  return prefixed_fields (info->prefix, order);
}

/* The id attributes of @info's ancestors, each with its ancestor. */
static Info *
ancestor_with_id (Draft      *draft,
                  Info       *info,
                  const char *attribute)
{
  for (Info *a = info->role == ROLE_CHILD ? info_of (draft, info->parent->name) : NULL; a != NULL;
       a = a->role == ROLE_CHILD ? info_of (draft, a->parent->name) : NULL)
    if (strv_has (a->entity->id, attribute))
      return a;
  return NULL;
}

static gboolean
add_inverted_index (Draft                  *draft,
                    const DynDesignPattern *pattern,
                    Info                   *edge)
{
  DynDesignPlan *plan = draft->plan;
  Info *a = info_of (draft, edge->parent->name);
  Info *b = info_of (draft, edge->other->name);
  DynDesignIndex *index;

  if (edge->inverted_index == NULL)
    {
      char *pk, *sk;

      edge->inverted_index = new_index (draft, &pk, &sk);
      placement_set_key (edge->placement, pk, b->identity);
      placement_set_key (edge->placement, sk, a->identity);
      add_decision (plan, edge->inverted_index, pattern->name, FALSE,
                    /* Translators: %s: an index, the edge entity, the partition key
                     * template, the sort key template, an access pattern, the other
                     * side's entity */
                    g_strdup_printf (_("Index %s inverts the edge %s (partition key %s, sort key %s), so that “%s” is "
                                       "one Query from the %s's side; a global secondary index is eventually consistent."),
                                     edge->inverted_index, edge->entity->name, b->identity, a->identity,
                                     pattern->name, b->entity->name));
    }
  index = find_index (plan->table, edge->inverted_index);
  /* B listed with its edges: B's own item joins the index. */
  if (g_strcmp0 (pattern->entity, b->entity->name) == 0 && index != NULL)
    {
      placement_set_key (b->placement, index->partition_key, b->identity);
      placement_set_key (b->placement, index->sort_key, "META");
    }
  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
add_attribute_index (Draft                  *draft,
                     const DynDesignPattern *pattern,
                     Info                   *info)
{
  DynDesignPlan *plan = draft->plan;
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autofree char *key = NULL;
  g_autofree char *order = order_template (info);
  GString *pk_template = g_string_new (NULL);
  const char *name;
  DynDesignIndex *index;
  g_autofree char *params = g_strjoinv (", ", pattern->parameters);

  for (guint i = 0; pattern->parameters[i]; i++)
    {
      Info *ancestor = ancestor_with_id (draft, info, pattern->parameters[i]);

      if (pk_template->len > 0)
        g_string_append_c (pk_template, '#');
      if (ancestor != NULL && ancestor->role == ROLE_TOP)
        g_string_append (pk_template, ancestor->identity);
      else
        {
          g_autofree char *upper = g_ascii_strup (pattern->parameters[i], -1);
          g_string_append_printf (pk_template, "%s#{%s}", upper, pattern->parameters[i]);
        }
      g_ptr_array_add (sorted, pattern->parameters[i]);
    }
  g_ptr_array_sort (sorted, compare_strings);
  g_ptr_array_add (sorted, NULL);
  key = g_strjoinv (",", (char **) sorted->pdata);

  name = g_hash_table_lookup (draft->attribute_indexes, key);
  if (name != NULL)
    {
      index = find_index (plan->table, name);
      add_decision (plan, name, pattern->name, FALSE,
                    /* Translators: %s: an access pattern, an index, an entity, the parameters */
                    g_strdup_printf (_("“%s” reuses index %s, which is keyed by %s: %s gets its templates there too."),
                                     pattern->name, name, params, info->entity->name));
    }
  else
    {
      char *pk, *sk;
      char *made = new_index (draft, &pk, &sk);

      g_hash_table_insert (draft->attribute_indexes, g_strdup (key), made);
      name = made;
      index = find_index (plan->table, name);
      add_decision (plan, name, pattern->name, FALSE,
                    /* Translators: %s: an index, an entity, the parameters, the
                     * partition key template, the sort key template, an access pattern */
                    g_strdup_printf (_("Index %s keys %s by %s (partition key %s, sort key %s), so that “%s” is one "
                                       "Query instead of a Scan over every partition; the partition key is the "
                                       "parameters' names and values, so other entities can share the index."),
                                     name, info->entity->name, params, pk_template->str, order, pattern->name));
    }
  placement_set_key (info->placement, index->partition_key, pk_template->str);
  placement_set_key (info->placement, index->sort_key, order);
  g_string_free (pk_template, TRUE);
}

/* ------------------------------------------------------------------------ */
/* Requests */

/* The example context of the first example item of @pattern's entity that
 * holds every parameter (a sparse index leaves its keys off some items),
 * else of its first example item. */
static const DynValue *
example_context (GPtrArray              *items,
                 GPtrArray              *contexts,
                 const DynDesignPlan    *plan,
                 const DynDesignPattern *pattern)
{
  const DynValue *first = NULL;

  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (dyn_design_plan_classify (plan, items->pdata[i]), pattern->entity) == 0)
      {
        const DynValue *context = contexts->pdata[i];
        gboolean complete = TRUE;

        for (guint k = 0; pattern->parameters && pattern->parameters[k] && complete; k++)
          complete = dyn_value_map_lookup (context, pattern->parameters[k]) != NULL;
        if (complete)
          return context;
        if (first == NULL)
          first = context;
      }
  return first;
}

static DynValue *
render (const char     *text,
        const DynValue *context,
        guint           shard,
        guint           n_shards,
        GError        **error)
{
  g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (text, error);

  if (t == NULL)
    return NULL;
  return dyn_design_template_render (t, context, dyn_design_template_has_shard (t) ? shard : 0,
                                     n_shards, error);
}

/* "WS#acme#01..10": the partition key value of a sharded read. */
static DynValue *
render_shard_range (const char     *text,
                    const DynValue *context,
                    guint           n_shards,
                    GError        **error)
{
  g_autoptr(DynValue) lo = render (text, context, 1, n_shards, error);
  g_autoptr(DynValue) hi = lo ? render (text, context, n_shards, n_shards, error) : NULL;
  const char *l, *h;
  gsize ll, hl, common = 0;

  if (hi == NULL)
    return NULL;
  l = dyn_value_get_string (lo);
  h = dyn_value_get_string (hi);
  ll = strlen (l);
  hl = strlen (h);
  while (common < ll && common < hl && l[common] == h[common])
    common++;
  while (common > 0 && g_ascii_isdigit (l[common - 1]))
    common--;
  if (ll != hl || strspn (l + common, "0123456789") != ll - common)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is a key template */
                   _("The shard of %s must end the partition key for a fan-out read"), text);
      return NULL;
    }
  {
    g_autofree char *range = g_strdup_printf ("%s..%s", l, h + common);
    return dyn_value_new_string (range);
  }
}

static DynValue *
context_value (const DynValue *context,
               const char     *attribute)
{
  DynValue *v = context ? dyn_value_map_lookup (context, attribute) : NULL;

  return v ? dyn_value_ref (v) : dyn_value_new_string (attribute);
}

/* The fields of @text, joined: the parameters a key value stands for. */
static char *
fields_text (const char *text)
{
  g_autoptr(DynDesignTemplate) t = parse_template (text);
  g_auto(GStrv) fields = t ? dyn_design_template_get_fields (t) : NULL;

  return fields && fields[0] ? g_strjoinv (", ", fields) : NULL;
}

typedef struct {
  DynValue *value;
  char     *parameters;
} Given;

static void
given_free (Given *g)
{
  dyn_value_unref (g->value);
  g_free (g->parameters);
  g_free (g);
}

static void
give (GPtrArray  *given,
      DynValue   *value,
      const char *parameters)
{
  Given *g;

  if (parameters == NULL)
    return;
  g = g_new0 (Given, 1);
  g->value = dyn_value_ref (value);
  g->parameters = g_strdup (parameters);
  g_ptr_array_add (given, g);
}

static DynExprNode *
and_of (DynExprNode *a,
        DynExprNode *b)
{
  if (a == NULL)
    return b;
  if (b == NULL)
    return a;
  return dyn_expr_node_new_binary (DYN_EXPR_AND, a, b);
}

static DynExprNode *
compare (DynExprCompareOp op,
         const char      *attribute,
         DynValue        *value)
{
  return dyn_expr_node_new_compare (op, dyn_expr_node_new_name (attribute), dyn_expr_node_new_value (value));
}

static DynValue *
string_value (const char *prefix,
              DynValue   *v)
{
  g_autofree char *s = NULL;

  if (prefix == NULL || prefix[0] == '\0')
    return dyn_value_ref (v);
  s = g_strconcat (prefix,
                   dyn_value_get_value_type (v) == DYN_VALUE_N ? dyn_value_get_number (v) :
                   dyn_value_get_value_type (v) == DYN_VALUE_S ? dyn_value_get_string (v) : "",
                   NULL);
  return dyn_value_new_string (s);
}

/* The sort key condition of the pattern's range. */
static DynExprNode *
range_condition (const DynDesignPattern *pattern,
                 const Match            *m,
                 const DynValue         *context,
                 GPtrArray              *given)
{
  g_autoptr(DynValue) v = context_value (context, pattern->range_attribute);
  g_autoptr(DynValue) value = string_value (m->sort_prefix, v);
  const char *op = pattern->range_op ? pattern->range_op : "=";
  gboolean prefixed = m->sort_prefix != NULL && m->sort_prefix[0] != '\0';

  give (given, value, pattern->range_attribute);
  if (strcmp (op, "begins_with") == 0)
    return dyn_expr_node_new_binary (DYN_EXPR_BEGINS_WITH, dyn_expr_node_new_name (m->sk), dyn_expr_node_new_value (value));
  if (strcmp (op, "between") == 0)
    {
      /* The example range: from the value to the prefix's end. */
      g_autofree char *end = g_strconcat (prefixed ? m->sort_prefix : dyn_value_get_string (value), "\xef\xbf\xbf", NULL);
      g_autoptr(DynValue) hi = dyn_value_get_value_type (value) == DYN_VALUE_S ? dyn_value_new_string (end) :
                               dyn_value_ref (value);
      return dyn_expr_node_new_between (dyn_expr_node_new_name (m->sk), dyn_expr_node_new_value (value),
                                        dyn_expr_node_new_value (hi));
    }
  if (prefixed && (strcmp (op, "<") == 0 || strcmp (op, "<=") == 0))
    {
      /* Bounded below by the prefix, so that no other entity's items in the
       * partition come back. */
      g_autoptr(DynValue) lo = dyn_value_new_string (m->sort_prefix);
      return dyn_expr_node_new_between (dyn_expr_node_new_name (m->sk), dyn_expr_node_new_value (lo),
                                        dyn_expr_node_new_value (value));
    }
  if (prefixed && (strcmp (op, ">") == 0 || strcmp (op, ">=") == 0))
    {
      g_autofree char *end = g_strconcat (m->sort_prefix, "\xef\xbf\xbf", NULL);
      g_autoptr(DynValue) hi = dyn_value_new_string (end);
      return dyn_expr_node_new_between (dyn_expr_node_new_name (m->sk), dyn_expr_node_new_value (value),
                                        dyn_expr_node_new_value (hi));
    }
  if (strcmp (op, "<") == 0)
    return compare (DYN_EXPR_OP_LT, m->sk, value);
  if (strcmp (op, "<=") == 0)
    return compare (DYN_EXPR_OP_LE, m->sk, value);
  if (strcmp (op, ">") == 0)
    return compare (DYN_EXPR_OP_GT, m->sk, value);
  if (strcmp (op, ">=") == 0)
    return compare (DYN_EXPR_OP_GE, m->sk, value);
  return compare (DYN_EXPR_OP_EQ, m->sk, value);
}

static GHashTable *
map_parameters (DynReadRequest *request,
                GPtrArray      *given)
{
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  DynExprContext *ctx = dyn_read_request_is_valid (request) ? dyn_read_request_get_context (request) : NULL;

  for (guint i = 0; ctx != NULL && i < dyn_expr_context_get_n_values (ctx); i++)
    {
      DynValue *v = NULL;
      const char *placeholder = dyn_expr_context_get_value (ctx, i, &v);

      for (guint g = 0; g < given->len; g++)
        {
          Given *gv = given->pdata[g];

          if (v != NULL && dyn_value_equal (v, gv->value))
            {
              g_hash_table_insert (map, g_strdup (placeholder), g_strdup (gv->parameters));
              break;
            }
        }
    }
  return map;
}

static char *
describe_key (const char *pk,
              const char *pk_template,
              const char *sk,
              const char *sk_template)
{
  if (sk == NULL || sk_template == NULL)
    return g_strdup_printf ("%s = %s", pk, pk_template);
  return g_strdup_printf ("%s = %s, %s = %s", pk, pk_template, sk, sk_template);
}

static DynDesignRequest *
scan_request (Draft                  *draft,
              const DynDesignPattern *pattern,
              const DynValue         *context,
              const DynTableKeys     *keys)
{
  DynDesignPlan *plan = draft->plan;
  DynDesignRequest *r = g_new0 (DynDesignRequest, 1);
  g_autoptr(DynExprNode) filter = NULL;
  g_autoptr(GPtrArray) given = g_ptr_array_new_with_free_func ((GDestroyNotify) given_free);
  DynReadSpec spec = { 0 };

  r->pattern = g_strdup (pattern->name);
  r->operation = DYN_OP_SCAN;
  r->shards = 1;
  for (guint i = 0; pattern->parameters && pattern->parameters[i]; i++)
    {
      g_autoptr(DynValue) v = context_value (context, pattern->parameters[i]);

      give (given, v, pattern->parameters[i]);
      filter = and_of (g_steal_pointer (&filter), compare (DYN_EXPR_OP_EQ, pattern->parameters[i], v));
    }
  if (pattern->parameters && pattern->parameters[0])
    {
      g_autofree char *params = g_strjoinv (", ", pattern->parameters);
      /* Translators: %s: an access pattern, its parameters */
      r->reason = g_strdup_printf (_("“%s” can only be a Scan: no key or index has %s as its partition key."),
                                   pattern->name, params);
    }
  else
    /* Translators: %s is an access pattern */
    r->reason = g_strdup_printf (_("“%s” can only be a Scan: it gives no value for any partition key."), pattern->name);
  spec.table = plan->table->name;
  spec.mode = DYN_READ_EXPLICIT;
  spec.filter_node = filter;
  spec.count_only = pattern->operation == DYN_DESIGN_COUNT;
  r->request = dyn_read_request_new (keys, &spec);
  r->parameters = map_parameters (r->request, given);
  add_decision (plan, pattern->name, pattern->name, TRUE, g_strdup (r->reason));
  return r;
}

/* Whether @text (NULL: no sort key) is a template without fields. */
static gboolean
sort_key_is_constant (const char *text)
{
  g_autoptr(DynDesignTemplate) t = text ? parse_template (text) : NULL;

  return t != NULL && dyn_design_template_is_constant (t);
}

static DynDesignRequest *
build_request (Draft                  *draft,
               const DynDesignPattern *pattern,
               const Match            *m,
               const DynValue         *context,
               const DynTableKeys     *keys)
{
  DynDesignPlan *plan = draft->plan;
  const DynDesignPlacement *placement = dyn_design_plan_find_placement (plan, pattern->entity);
  DynDesignRequest *r = g_new0 (DynDesignRequest, 1);
  g_autoptr(GPtrArray) given = g_ptr_array_new_with_free_func ((GDestroyNotify) given_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *pk_fields = fields_text (m->pk_template);
  g_autofree char *sk_fields = m->sk_template ? fields_text (m->sk_template) : NULL;
  g_autofree char *where = NULL;
  g_autofree char *discriminator = NULL;
  DynDesignEntity *entity = dyn_design_model_find_entity (plan->model, pattern->entity);
  gboolean sharded = placement->shards > 1 && template_has_shard (m->pk_template);
  guint shard = sharded ? _dyn_design_shard_of (entity, context, placement->shards) : 0;
  DynReadSpec spec = { 0 };

  r->pattern = g_strdup (pattern->name);
  r->index = g_strdup (m->index);
  r->shards = 1;
  spec.table = plan->table->name;
  spec.index = m->index;

  if (m->get_item)
    {
      g_autoptr(DynValue) key = dyn_value_new_map ();
      g_autoptr(DynValue) pk = render (m->pk_template, context, shard, placement->shards, &error);
      g_autoptr(DynValue) sk = pk && m->sk ? render (m->sk_template, context, shard, placement->shards, &error) : NULL;
      g_autofree char *text = NULL;

      r->operation = DYN_OP_GET_ITEM;
      if (pk == NULL || (m->sk != NULL && sk == NULL))
        {
          r->reason = g_strdup (error->message);
          return r;
        }
      dyn_value_map_set (key, m->pk, pk);
      if (sk != NULL)
        dyn_value_map_set (key, m->sk, sk);
      spec.mode = DYN_READ_GET_ITEM;
      spec.key = key;
      r->request = dyn_read_request_new (keys, &spec);
      r->parameters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      if (pk_fields)
        g_hash_table_insert (r->parameters, g_strdup (m->pk), g_strdup (pk_fields));
      if (sk_fields)
        g_hash_table_insert (r->parameters, g_strdup (m->sk), g_strdup (sk_fields));
      text = describe_key (m->pk, m->pk_template, m->sk, m->sk_template);
      add_decision (plan, pattern->name, pattern->name, FALSE,
                    /* Translators: %s: an access pattern, its key ("PK = WS#{id}, SK = META") */
                    g_strdup_printf (_("“%s” is a GetItem of %s: its parameters give the item's whole primary key."),
                                     pattern->name, text));
      if (sharded)
        add_decision (plan, pattern->name, pattern->name, FALSE,
                      /* Translators: %s: an access pattern, the entity */
                      g_strdup_printf (_("“%s” finds the shard from the %s's id, so it stays one GetItem."),
                                       pattern->name, pattern->entity));
      return r;
    }

  /* A Query. */
  {
    g_autoptr(DynExprNode) condition = NULL;
    g_autoptr(DynExprNode) filter = NULL;
    g_autoptr(DynValue) pk = NULL;

    r->operation = DYN_OP_QUERY;
    if (sharded && pattern->operation != DYN_DESIGN_GET)
      {
        g_autoptr(DynValue) first = render (m->pk_template, context, 1, placement->shards, NULL);

        pk = render_shard_range (m->pk_template, context, placement->shards, &error);
        if (first != NULL)
          give (given, first, pk_fields);
        r->shards = placement->shards;
      }
    else
      pk = render (m->pk_template, context, shard, placement->shards, &error);
    if (pk == NULL)
      {
        r->reason = g_strdup (error->message);
        return r;
      }
    give (given, pk, pk_fields);
    condition = compare (DYN_EXPR_OP_EQ, m->pk, pk);
    switch (m->sort)
      {
      case SORT_NONE:
        break;
      case SORT_BEGINS:
        {
          g_autoptr(DynValue) prefix = dyn_value_new_string (m->sort_prefix);
          condition = and_of (g_steal_pointer (&condition),
                              dyn_expr_node_new_binary (DYN_EXPR_BEGINS_WITH, dyn_expr_node_new_name (m->sk),
                                                        dyn_expr_node_new_value (prefix)));
          break;
        }
      case SORT_EQUAL:
        {
          g_autoptr(DynValue) sk = render (m->sk_template, context, shard, placement->shards, &error);

          if (sk == NULL)
            {
              r->reason = g_strdup (error->message);
              return r;
            }
          give (given, sk, sk_fields);
          condition = and_of (g_steal_pointer (&condition), compare (DYN_EXPR_OP_EQ, m->sk, sk));
          break;
        }
      case SORT_RANGE:
        condition = and_of (g_steal_pointer (&condition), range_condition (pattern, m, context, given));
        break;
      }
    for (guint i = 0; i < m->filter->len; i++)
      {
        g_autoptr(DynValue) v = context_value (context, m->filter->pdata[i]);

        give (given, v, m->filter->pdata[i]);
        filter = and_of (g_steal_pointer (&filter), compare (DYN_EXPR_OP_EQ, m->filter->pdata[i], v));
      }
    if (m->sort == SORT_NONE && entity != NULL && entity->discriminator != NULL &&
        strchr (entity->discriminator, '=') != NULL && !sort_key_is_constant (m->sk_template))
      {
        /* The sort key cannot tell the entity apart (Shop: a customer's
         * orders "o5001" beside the customer "c1001"): its discriminator
         * attribute does, as a filter. */
        g_auto(GStrv) kv = g_strsplit (entity->discriminator, "=", 2);
        g_autoptr(DynValue) v = dyn_value_new_string (kv[1]);

        filter = and_of (g_steal_pointer (&filter), compare (DYN_EXPR_OP_EQ, kv[0], v));
        discriminator = g_strdup (kv[0]);
      }
    spec.mode = DYN_READ_EXPLICIT;
    spec.key_condition_node = condition;
    spec.filter_node = filter;
    spec.descending = pattern->operation == DYN_DESIGN_LIST_NEWEST_FIRST;
    spec.count_only = pattern->operation == DYN_DESIGN_COUNT;
    r->request = dyn_read_request_new (keys, &spec);
    r->parameters = map_parameters (r->request, given);
    where = dyn_expr_node_to_string (condition);
  }

  if (m->index == NULL)
    add_decision (plan, pattern->name, pattern->name, FALSE,
                  /* Translators: %s: an access pattern, its key condition */
                  g_strdup_printf (_("“%s” is one Query on the table: %s."), pattern->name, where));
  else
    add_decision (plan, pattern->name, pattern->name, FALSE,
                  /* Translators: %s: an access pattern, an index, its key condition */
                  g_strdup_printf (_("“%s” is one Query on index %s: %s."), pattern->name, m->index, where));
  if (pattern->operation == DYN_DESIGN_LIST_NEWEST_FIRST)
    add_decision (plan, pattern->name, pattern->name, FALSE,
                  /* Translators: %s: an access pattern, a sort key template */
                  g_strdup_printf (_("“%s” reads the sort key backwards (ScanIndexForward=false): %s sorts oldest "
                                     "first when its id or order attribute is time-ordered."),
                                   pattern->name, m->sk_template ? m->sk_template : "-"));
  if (r->shards > 1)
    add_decision (plan, pattern->name, pattern->name, FALSE,
                  /* Translators: %s: an access pattern, %u: the number of shards, %s: a key template */
                  g_strdup_printf (_("“%s” fans out over the %u shards of %s: one Query per shard, merged by the sort key."),
                                   pattern->name, r->shards, m->pk_template));
  if (discriminator != NULL)
    add_decision (plan, pattern->name, pattern->name, FALSE,
                  /* Translators: %s: an access pattern, an attribute name, an entity */
                  g_strdup_printf (_("“%s” filters on %s: the sort key does not tell %s apart from the other items "
                                     "of its collection, so they are read (and paid for) but not returned."),
                                   pattern->name, discriminator, pattern->entity));
  if (m->filter->len > 0)
    {
      g_autofree char *names = NULL;

      g_ptr_array_add (m->filter, NULL);
      names = g_strjoinv (", ", (char **) m->filter->pdata);
      g_ptr_array_remove_index (m->filter, m->filter->len - 1);
      add_decision (plan, pattern->name, pattern->name, TRUE,
                    /* Translators: %s: an access pattern, attribute names */
                    g_strdup_printf (_("“%s” filters on %s after reading: no key of the source it reads holds it, so "
                                       "the Query reads more items than it returns."),
                                     pattern->name, names));
    }
  return r;
}

/* ------------------------------------------------------------------------ */
/* The draft */

static void
setup_table (Draft                *draft,
             const DynDesignModel *model)
{
  DynDesignPlan *plan = draft->plan;
  DynDesignTable *t;

  if (model->table != NULL)
    t = dyn_design_table_copy (model->table);
  else
    {
      t = dyn_design_table_new (model->name ? model->name : "Design");
      g_free (t->partition_key);
      t->partition_key = g_strdup ("PK");
      g_free (t->sort_key);
      t->sort_key = g_strdup ("SK");
    }
  if (t->name == NULL)
    t->name = g_strdup (model->name ? model->name : "Design");
  if (t->partition_type == NULL)
    t->partition_type = g_strdup ("S");
  if (t->sort_key != NULL && t->sort_type == NULL)
    t->sort_type = g_strdup ("S");
  if (t->billing_mode == NULL)
    t->billing_mode = g_strdup ("PAY_PER_REQUEST");
  if (t->indexes == NULL)
    t->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_index_free);
  plan->table = t;

  if (t->fixed)
    {
      add_decision (plan, t->name, NULL, FALSE,
                    /* Translators: %s is a table */
                    g_strdup_printf (_("The table %s is kept as it is: each pattern goes to the table or the index "
                                       "that serves it."), t->name));
      return;
    }
  if (t->sort_key == NULL)
    {
      t->sort_key = g_strdup ("SK");
      t->sort_type = g_strdup ("S");
      add_decision (plan, t->name, NULL, FALSE,
                    /* Translators: %s is a key attribute */
                    g_strdup_printf (_("The table gets the sort key %s: without one a partition holds one item, and no "
                                       "item collection can be read with one Query."), t->sort_key));
    }
  if (model->table != NULL)
    add_decision (plan, t->name, NULL, FALSE,
                  /* Translators: %s, %s: the table's partition and sort key */
                  g_strdup_printf (_("The model names the table's keys %s and %s: the draft keeps the names and writes "
                                     "each entity's type into their values (overloaded keys)."),
                                   t->partition_key, t->sort_key));
  else
    add_decision (plan, t->name, NULL, FALSE,
                  /* Translators: %s, %s: the table's partition and sort key */
                  g_strdup_printf (_("The table's keys %s and %s are generic so that every entity can share them: "
                                     "each entity's type is written into their values (overloaded keys)."),
                                   t->partition_key, t->sort_key));
}

/* An n:m relationship that names no edge gets one, "<Parent><Child>", with
 * both sides' ids. */
static void
add_missing_edges (DynDesignModel *model)
{
  for (guint i = 0; i < model->relationships->len; i++)
    {
      DynDesignRelationship *rel = model->relationships->pdata[i];
      DynDesignEntity *a, *b, *edge;

      if (rel->kind != DYN_DESIGN_MANY_TO_MANY || rel->edge != NULL)
        continue;
      rel->edge = g_strconcat (rel->parent, rel->child, NULL);
      if (dyn_design_model_find_entity (model, rel->edge) != NULL)
        continue;
      a = dyn_design_model_find_entity (model, rel->parent);
      b = dyn_design_model_find_entity (model, rel->child);
      edge = dyn_design_entity_new (rel->edge);
      for (guint s = 0; s < 2; s++)
        {
          DynDesignEntity *side = s == 0 ? a : b;

          for (guint k = 0; side && side->id && side->id[k]; k++)
            {
              DynDesignAttribute *id = dyn_design_entity_find_attribute (side, side->id[k]);
              DynDesignAttribute *copy = dyn_design_attribute_new (side->id[k], id && id->type ? id->type : "S");

              copy->required = TRUE;
              g_ptr_array_add (edge->attributes, copy);
            }
        }
      g_ptr_array_add (model->entities, edge);
    }
}

static void
classify_roles (Draft *draft)
{
  DynDesignModel *model = draft->plan->model;

  for (guint i = 0; i < model->entities->len; i++)
    {
      Info *info = g_new0 (Info, 1);

      info->entity = model->entities->pdata[i];
      info->role = ROLE_TOP;
      g_hash_table_insert (draft->infos, info->entity->name, info);
      g_ptr_array_add (draft->order, info);
    }
  for (guint i = 0; i < model->relationships->len; i++)
    {
      DynDesignRelationship *rel = model->relationships->pdata[i];
      Info *info = info_of (draft, rel->kind == DYN_DESIGN_ONE_TO_MANY ? rel->child : rel->edge);

      if (info == NULL || info->role != ROLE_TOP)
        continue;
      info->relationship = rel;
      info->parent = dyn_design_model_find_entity (model, rel->parent);
      if (rel->kind == DYN_DESIGN_ONE_TO_MANY)
        info->role = ROLE_CHILD;
      else
        {
          info->role = ROLE_EDGE;
          info->other = dyn_design_model_find_entity (model, rel->child);
        }
      if (info->parent == NULL || (info->role == ROLE_EDGE && info->other == NULL) ||
          info->parent == info->entity)
        info->role = ROLE_TOP;
    }
}

static gboolean
covers (char * const *given,
        char * const *wanted)
{
  for (guint i = 0; wanted && wanted[i]; i++)
    if (!strv_has (given, wanted[i]))
      return FALSE;
  return wanted != NULL && wanted[0] != NULL;
}

/* A pattern nothing serves yet: the index it needs (a table the model
 * does not fix). FALSE: none can help, it stays a Scan. */
static gboolean
add_index_for (Draft                  *draft,
               const DynDesignPattern *pattern)
{
  Info *info = info_of (draft, pattern->entity);

  if (info == NULL || info->placement == NULL || pattern->parameters == NULL || pattern->parameters[0] == NULL)
    return FALSE;
  /* From the other side of an n:m: the edge, or B with its edges. */
  for (guint i = 0; i < draft->order->len; i++)
    {
      Info *edge = draft->order->pdata[i];

      if (edge->role != ROLE_EDGE)
        continue;
      if ((edge == info && covers (pattern->parameters, edge->other->id) &&
           !covers (pattern->parameters, edge->parent->id)) ||
          (edge->other == info->entity && pattern->operation != DYN_DESIGN_GET &&
           covers (pattern->parameters, info->entity->id)))
        return add_inverted_index (draft, pattern, edge);
    }
  add_attribute_index (draft, pattern, info);
  return TRUE;
}

/* A list of an n:m side by its own id: its item collection (B with its
 * edges) is on the inverted index. */
static gboolean
is_side_collection (Draft                  *draft,
                    const DynDesignPattern *pattern)
{
  Info *info = info_of (draft, pattern->entity);

  if (info == NULL || pattern->operation == DYN_DESIGN_GET || draft->plan->table->fixed)
    return FALSE;
  for (guint i = 0; i < draft->order->len; i++)
    {
      Info *edge = draft->order->pdata[i];

      if (edge->role == ROLE_EDGE && edge->other == info->entity &&
          covers (pattern->parameters, info->entity->id))
        return TRUE;
    }
  return FALSE;
}

/* The inverted index a side collection is read from, or NULL. */
static const char *
side_collection_index (Draft                  *draft,
                       const DynDesignPattern *pattern)
{
  Info *info = info_of (draft, pattern->entity);

  if (!is_side_collection (draft, pattern))
    return NULL;
  for (guint i = 0; i < draft->order->len; i++)
    {
      Info *edge = draft->order->pdata[i];

      if (edge->role == ROLE_EDGE && edge->other == info->entity && edge->inverted_index != NULL)
        return edge->inverted_index;
    }
  return NULL;
}

DynDesignPlan *
dyn_design_draft (const DynDesignModel *model,
                  GError              **error)
{
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GHashTable) infos = NULL;
  g_autoptr(GPtrArray) order = NULL;
  g_autoptr(GHashTable) attribute_indexes = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) contexts = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(GPtrArray) matches = NULL;
  Draft draft = { 0 };

  g_return_val_if_fail (model != NULL, NULL);

  if (!dyn_design_model_validate (model, error))
    return NULL;

  plan = g_new0 (DynDesignPlan, 1);
  plan->model = dyn_design_model_copy (model);
  plan->placements = g_ptr_array_new_with_free_func ((GDestroyNotify) placement_free);
  plan->decisions = g_ptr_array_new_with_free_func ((GDestroyNotify) decision_free);
  plan->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  infos = g_hash_table_new (g_str_hash, g_str_equal);
  order = g_ptr_array_new_with_free_func ((GDestroyNotify) info_free);
  attribute_indexes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  draft.plan = plan;
  draft.infos = infos;
  draft.order = order;
  draft.attribute_indexes = attribute_indexes;

  setup_table (&draft, model);
  if (!plan->table->fixed)
    add_missing_edges (plan->model);
  classify_roles (&draft);
  assign_prefixes (&draft);
  for (guint i = 0; i < order->len; i++)
    place (&draft, order->pdata[i]);
  for (guint i = 0; i < order->len; i++)
    g_ptr_array_add (plan->placements, ((Info *) order->pdata[i])->placement);

  /* Every pattern to its source; the indexes a pattern needs first. */
  matches = g_ptr_array_new ();
  for (guint i = 0; i < plan->model->patterns->len; i++)
    {
      DynDesignPattern *p = plan->model->patterns->pdata[i];
      Match m;
      gboolean found = FALSE;

      if (is_side_collection (&draft, p))
        found = FALSE;
      else if (match_pattern (&draft, p, NULL, &m))
        {
          found = plan->table->fixed || m.filter->len == 0 || p->parameters == NULL;
          match_clear (&m);
        }
      if (!found && !plan->table->fixed)
        add_index_for (&draft, p);
    }

  /* The requests, with the examples' values, on the final keys. */
  keys = dyn_design_table_to_keys (plan->table);
  items = _dyn_design_examples_generate (plan, model->examples_per_parent ? model->examples_per_parent : 3,
                                         1, &contexts);
  if (model->items != NULL && model->items->len > 0)
    {
      /* The model's own items: their contexts are their attributes and
       * what their key templates hold. */
      g_clear_pointer (&items, g_ptr_array_unref);
      g_clear_pointer (&contexts, g_ptr_array_unref);
      items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      contexts = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      for (guint i = 0; i < model->items->len; i++)
        {
          DynValue *item = model->items->pdata[i];
          const char *entity = dyn_design_plan_classify (plan, item);
          const DynDesignPlacement *placement = dyn_design_plan_find_placement (plan, entity);
          DynValue *context = dyn_value_new_map ();
          g_autoptr(GHashTable) fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                                (GDestroyNotify) dyn_value_unref);

          for (guint k = 0; placement && k < placement->keys->len; k++)
            {
              DynDesignKey *key = placement->keys->pdata[k];
              g_autoptr(DynDesignTemplate) t = parse_template (key->template);
              DynValue *v = dyn_value_map_lookup (item, key->attribute);

              if (t != NULL && v != NULL)
                dyn_design_template_match (t, v, fields);
            }
          {
            GHashTableIter iter;
            gpointer name, value;

            g_hash_table_iter_init (&iter, fields);
            while (g_hash_table_iter_next (&iter, &name, &value))
              dyn_value_map_set (context, name, value);
          }
          for (guint k = 0; k < dyn_value_get_length (item); k++)
            dyn_value_map_set (context, dyn_value_map_get_name (item, k), dyn_value_map_get_value (item, k));
          g_ptr_array_add (items, dyn_value_ref (item));
          g_ptr_array_add (contexts, context);
        }
    }

  for (guint i = 0; i < plan->model->patterns->len; i++)
    {
      DynDesignPattern *p = plan->model->patterns->pdata[i];
      const DynValue *context = example_context (items, contexts, plan, p);
      g_autoptr(DynValue) empty = context ? NULL : dyn_value_new_map ();
      const char *only = side_collection_index (&draft, p);
      Match m;

      if (context == NULL)
        context = empty;
      if (match_pattern (&draft, p, only, &m))
        {
          g_ptr_array_add (plan->requests, build_request (&draft, p, &m, context, keys));
          match_clear (&m);
        }
      else
        g_ptr_array_add (plan->requests, scan_request (&draft, p, context, keys));
    }
  return g_steal_pointer (&plan);
}

void
dyn_design_plan_free (DynDesignPlan *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->model, dyn_design_model_free);
  g_clear_pointer (&self->table, dyn_design_table_free);
  g_clear_pointer (&self->placements, g_ptr_array_unref);
  g_clear_pointer (&self->decisions, g_ptr_array_unref);
  g_clear_pointer (&self->requests, g_ptr_array_unref);
  g_free (self);
}

const DynDesignTable *
dyn_design_plan_get_table (const DynDesignPlan *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->table;
}

GPtrArray *
dyn_design_plan_get_placements (const DynDesignPlan *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->placements;
}

GPtrArray *
dyn_design_plan_get_decisions (const DynDesignPlan *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->decisions;
}

GPtrArray *
dyn_design_plan_get_requests (const DynDesignPlan *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->requests;
}

const DynDesignModel *
_dyn_design_plan_get_model (const DynDesignPlan *plan)
{
  return plan->model;
}

const DynDesignPlacement *
dyn_design_plan_find_placement (const DynDesignPlan *self,
                                const char          *entity)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; entity != NULL && i < self->placements->len; i++)
    {
      DynDesignPlacement *p = self->placements->pdata[i];

      if (g_strcmp0 (p->entity, entity) == 0)
        return p;
    }
  return NULL;
}

/* The literal characters of a template: how specific it is. */
static gsize
literal_length (const char *text)
{
  g_autoptr(DynDesignTemplate) t = parse_template (text);
  g_auto(GStrv) fields = NULL;
  gssize n;

  if (t == NULL)
    return 0;
  fields = dyn_design_template_get_fields (t);
  n = strlen (text);
  for (guint i = 0; fields[i]; i++)
    n -= strlen (fields[i]) + 2;
  if (dyn_design_template_has_shard (t))
    n -= strlen ("{shard}");
  return MAX (n, 0);
}

const char *
dyn_design_plan_classify (const DynDesignPlan *self,
                          const DynValue      *item)
{
  const char *best = NULL;
  gssize best_score = -1;

  g_return_val_if_fail (self != NULL, NULL);
  if (item == NULL || dyn_value_get_value_type (item) != DYN_VALUE_M)
    return NULL;

  /* A discriminator names the entity outright. */
  for (guint i = 0; i < self->model->entities->len; i++)
    {
      DynDesignEntity *e = self->model->entities->pdata[i];
      const char *eq = e->discriminator ? strchr (e->discriminator, '=') : NULL;
      g_autofree char *attribute = NULL;
      DynValue *v;

      if (eq == NULL)
        continue;
      attribute = g_strndup (e->discriminator, eq - e->discriminator);
      v = dyn_value_map_lookup (item, attribute);
      if (v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_S && strcmp (dyn_value_get_string (v), eq + 1) == 0)
        return e->name;
    }

  /* Else the table keys' templates; the most specific one that matches. */
  for (guint i = 0; i < self->placements->len; i++)
    {
      DynDesignPlacement *p = self->placements->pdata[i];
      const char *attributes[] = { self->table->partition_key, self->table->sort_key };
      gboolean all = TRUE;
      gssize score = 0;

      for (guint a = 0; a < G_N_ELEMENTS (attributes) && all; a++)
        {
          const char *text = placement_get_key (p, attributes[a]);
          g_autoptr(DynDesignTemplate) t = NULL;
          DynValue *v;

          if (attributes[a] == NULL)
            continue;
          v = dyn_value_map_lookup (item, attributes[a]);
          t = parse_template (text);
          all = t != NULL && v != NULL && dyn_design_template_match (t, v, NULL);
          score += literal_length (text);
        }
      if (all && score > best_score)
        {
          best = p->entity;
          best_score = score;
        }
    }
  return best;
}

/* ------------------------------------------------------------------------ */
/* JSON */

void
_dyn_design_add_string_or_null (JsonBuilder *b,
                                const char  *name,
                                const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

void
_dyn_design_add_decisions (JsonBuilder *b,
                           const char  *name,
                           GPtrArray   *decisions)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < decisions->len; i++)
    {
      DynDesignDecision *d = decisions->pdata[i];

      json_builder_begin_object (b);
      _dyn_design_add_string_or_null (b, "subject", d->subject);
      _dyn_design_add_string_or_null (b, "pattern", d->pattern);
      _dyn_design_add_string_or_null (b, "text", d->text);
      json_builder_set_member_name (b, "warning");
      json_builder_add_boolean_value (b, d->warning);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

JsonNode *
dyn_design_plan_to_json (const DynDesignPlan *self,
                         GPtrArray           *examples)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "table");
  {
    /* The create-table input, as `design export --format create-table`. */
    g_autoptr(GError) error = NULL;
    JsonNode *table = _dyn_design_create_table_export (self->table, &error);

    if (table != NULL)
      json_builder_add_value (b, table);
    else
      json_builder_add_null_value (b);
  }

  json_builder_set_member_name (b, "placements");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->placements->len; i++)
    {
      DynDesignPlacement *p = self->placements->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "entity");
      json_builder_add_string_value (b, p->entity);
      json_builder_set_member_name (b, "keys");
      json_builder_begin_object (b);
      for (guint k = 0; k < p->keys->len; k++)
        {
          DynDesignKey *key = p->keys->pdata[k];

          json_builder_set_member_name (b, key->attribute);
          json_builder_add_string_value (b, key->template);
        }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "shards");
      json_builder_add_int_value (b, p->shards);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  _dyn_design_add_decisions (b, "decisions", self->decisions);

  json_builder_set_member_name (b, "patterns");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->requests->len; i++)
    {
      DynDesignRequest *r = self->requests->pdata[i];

      json_builder_begin_object (b);
      _dyn_design_add_string_or_null (b, "name", r->pattern);
      _dyn_design_add_string_or_null (b, "operation", dyn_operation_get_name (r->operation));
      _dyn_design_add_string_or_null (b, "index", r->index);
      json_builder_set_member_name (b, "request");
      if (r->request != NULL && dyn_read_request_is_valid (r->request))
        json_builder_add_value (b, dyn_read_request_dup_body (r->request));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "parameters");
      json_builder_begin_object (b);
      if (r->parameters != NULL)
        {
          g_autoptr(GList) names = g_list_sort (g_hash_table_get_keys (r->parameters), (GCompareFunc) strcmp);

          for (GList *l = names; l; l = l->next)
            {
              json_builder_set_member_name (b, l->data);
              json_builder_add_string_value (b, g_hash_table_lookup (r->parameters, l->data));
            }
        }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "shards");
      json_builder_add_int_value (b, r->shards);
      if (r->reason == NULL && r->request != NULL && !dyn_read_request_is_valid (r->request))
        _dyn_design_add_string_or_null (b, "reason", dyn_read_request_get_error (r->request)->message);
      else
        _dyn_design_add_string_or_null (b, "reason", r->reason);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "examples");
  json_builder_begin_array (b);
  for (guint i = 0; examples != NULL && i < examples->len; i++)
    json_builder_add_value (b, dyn_item_to_ddb_json (examples->pdata[i]));
  json_builder_end_array (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}
