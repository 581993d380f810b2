/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-design-examples"

#include "config.h"

#include <string.h>

#include "dyn-design.h"
#include "dyn-design-draft-private.h"

/*
 * Example items from the plan's templates and the attributes' types.
 *
 * Top-level entities get TOP_LEVEL items each, every 1:n child per_parent
 * items under each of its parent's examples, every n:m edge per_parent
 * edges from each example of its first side to examples of the second.
 * Values: the attribute's examples in turn, then values in their pattern
 * (ids continue the examples' last number, "2026-0043" → "2026-0044";
 * without examples "<prefix>-001"), enumerations in turn, dates increasing
 * (so that a time-ordered sort key sorts oldest first), names and titles
 * from small lists, numbers by what the name says (credits, budget,
 * price …). Everything that is not an id or an order comes from a GRand
 * seeded with @seed: one seed, one set of examples.
 */

#define TOP_LEVEL 3

static const char *const first_names[] = {
  "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Radia", "Tim",
};
static const char *const last_names[] = {
  "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra",
  "Perlman", "Berners-Lee",
};
static const char *const titles[] = {
  "Website relaunch", "Mobile app", "Data platform", "Billing migration", "Onboarding flow", "Search revamp",
  "Security audit", "Design system", "Analytics dashboard", "API gateway", "Support portal", "Release train",
};
static const char *const course_titles[] = {
  "Linear Algebra", "Classical Mechanics", "Modern History", "Organic Chemistry", "Microeconomics",
  "Data Structures", "World Literature", "Statistics", "Cell Biology", "Philosophy of Mind",
};
static const char *const cities[] = {
  "Berlin", "Istanbul", "Lisbon", "Osaka", "Toronto", "Nairobi", "Melbourne", "Bogotá",
};
static const char *const words[] = {
  "alpha", "bravo", "delta", "echo", "falcon", "harbor", "maple", "orbit", "quartz", "river", "summit", "tango",
};

typedef struct {
  const DynDesignPlan  *plan;
  const DynDesignModel *model;
  GRand                *rand;
  guint                 per_parent;
  guint32               seed;
  GHashTable           *counters;   /* entity name → items made */
  GPtrArray            *items;
  GPtrArray            *contexts;
  GHashTable           *made;       /* entity name → GPtrArray of contexts */
} Gen;

static gboolean
strv_has (char * const *strv,
          const char   *s)
{
  return strv != NULL && s != NULL && g_strv_contains ((const char * const *) strv, s);
}

static char *
lower (const char *s)
{
  return g_ascii_strdown (s, -1);
}

static gboolean
ends_with_word (const char *name,
                const char *word)   /* "At" matches "createdAt", "at" matches "at" */
{
  gsize n = strlen (name), w = strlen (word);

  if (n < w)
    return FALSE;
  if (n == w)
    return g_ascii_strcasecmp (name, word) == 0;
  return strcmp (name + n - w, word) == 0 ||
         ((name[n - w - 1] == '_' || name[n - w - 1] == '-') && g_ascii_strcasecmp (name + n - w, word) == 0);
}

static gboolean
contains_word (const char *name,
               const char *word)
{
  g_autofree char *l = lower (name);
  return strstr (l, word) != NULL;
}

typedef enum {
  DATE_NONE,
  DATE_DAY,
  DATE_TIME,
} DateKind;

static DateKind
date_kind (const char *name)
{
  if (ends_with_word (name, "At") || ends_with_word (name, "Time") || contains_word (name, "timestamp") ||
      g_ascii_strcasecmp (name, "created") == 0 || g_ascii_strcasecmp (name, "updated") == 0)
    return DATE_TIME;
  if (ends_with_word (name, "On") || ends_with_word (name, "Date") || g_ascii_strcasecmp (name, "date") == 0 ||
      ends_with_word (name, "Day"))
    return DATE_DAY;
  return DATE_NONE;
}

static gboolean
is_person (const DynDesignEntity *e)
{
  static const char *const people[] = {
    "student", "user", "customer", "employee", "person", "member", "author", "teacher", "patient", "player",
    "contact", "owner", "admin", "guest", "driver",
  };
  g_autofree char *l = lower (e->name);

  for (guint i = 0; i < G_N_ELEMENTS (people); i++)
    if (strstr (l, people[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* "2026-0043" + 1 → "2026-0044" (the trailing number, its width kept);
 * "initech" + 2 → "initech-2". */
static char *
continue_id (const char *last,
             guint       step)
{
  gsize n = strlen (last);
  gsize start = n;
  guint64 value;
  g_autofree char *head = NULL;

  while (start > 0 && g_ascii_isdigit (last[start - 1]))
    start--;
  if (start == n || n - start > 18)
    return g_strdup_printf ("%s-%u", last, step + 1);
  value = g_ascii_strtoull (last + start, NULL, 10);
  head = g_strndup (last, start);
  return g_strdup_printf ("%s%0*" G_GUINT64_FORMAT, head, (int) (n - start), value + step);
}

static char *
abbreviation_of (const DynDesignPlan   *plan,
                 const DynDesignEntity *e)
{
  const DynDesignPlacement *p = dyn_design_plan_find_placement (plan, e->name);
  const DynDesignTable *t = dyn_design_plan_get_table (plan);
  const char *sk = NULL;
  const char *hash;

  /* The entity's own prefix is in its sort key (a child's) or its
   * partition key (a top-level one's). */
  for (guint i = 0; p && i < p->keys->len; i++)
    {
      DynDesignKey *k = p->keys->pdata[i];

      if (g_strcmp0 (k->attribute, t->sort_key) == 0 && strchr (k->template, '{') != NULL)
        sk = k->template;
      else if (sk == NULL && g_strcmp0 (k->attribute, t->partition_key) == 0)
        sk = k->template;
    }
  if (sk != NULL && (hash = strchr (sk, '#')) != NULL && hash > sk && sk[0] != '{')
    return g_ascii_strdown (sk, hash - sk);
  return g_ascii_strdown (e->name, MIN (strlen (e->name), 4));
}

/* A value of @type for @attribute of @e, the @n-th of its entity (@k-th
 * within its parent). */
static DynValue *
generate_value (Gen                      *gen,
                const DynDesignEntity    *e,
                const DynDesignAttribute *a,
                guint                     n,
                guint                     k,
                const DynValue           *context)
{
  const char *type = a->type ? a->type : "S";
  gboolean is_id = strv_has (e->id, a->name);
  guint index = is_id ? k : n;
  DateKind date = date_kind (a->name);
  g_autofree char *text = NULL;

  if (a->examples != NULL && a->examples[0] != NULL)
    {
      guint count = g_strv_length (a->examples);

      if (index < count)
        text = g_strdup (a->examples[index]);
      else if (is_id)
        text = continue_id (a->examples[count - 1], index - count + 1);
      else
        text = g_strdup (a->examples[index % count]);
    }
  else if (a->values != NULL && a->values[0] != NULL)
    {
      guint count = g_strv_length (a->values);
      text = g_strdup (a->values[(index + gen->seed - 1) % count]);
    }

  if (strcmp (type, "N") == 0)
    {
      if (text != NULL)
        {
          DynValue *v = dyn_value_new_number (text, NULL);
          return v != NULL ? v : dyn_value_new_number ("0", NULL);
        }
      if (is_id)
        text = g_strdup_printf ("%u", index + 1);
      else if (date != DATE_NONE)   /* epoch seconds, increasing */
        text = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) 1767607200 + (gint64) n * 3 * 86400 +
                                g_rand_int_range (gen->rand, 0, 36000));
      else if (contains_word (a->name, "credit"))
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 1, 7));
      else if (contains_word (a->name, "budget") || contains_word (a->name, "amount") ||
               contains_word (a->name, "total") || contains_word (a->name, "cost") ||
               contains_word (a->name, "salary") || contains_word (a->name, "revenue"))
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 2, 100) * 500);
      else if (contains_word (a->name, "price"))
        text = g_strdup_printf ("%d.%02d", g_rand_int_range (gen->rand, 1, 500), g_rand_int_range (gen->rand, 0, 100));
      else if (contains_word (a->name, "year"))
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 1990, 2026));
      else if (contains_word (a->name, "age"))
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 18, 66));
      else if (contains_word (a->name, "rating") || contains_word (a->name, "score") ||
               contains_word (a->name, "stars"))
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 1, 6));
      else if (contains_word (a->name, "count") || contains_word (a->name, "quantity") ||
               contains_word (a->name, "qty"))
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 1, 21));
      else
        text = g_strdup_printf ("%d", g_rand_int_range (gen->rand, 1, 1001));
      return dyn_value_new_number (text, NULL);
    }
  if (strcmp (type, "BOOL") == 0)
    return dyn_value_new_bool (text ? g_ascii_strcasecmp (text, "true") == 0 : g_rand_boolean (gen->rand));
  if (strcmp (type, "NULL") == 0)
    return dyn_value_new_null ();
  if (strcmp (type, "B") == 0)
    {
      guchar bytes[8];

      for (guint i = 0; i < sizeof bytes; i++)
        bytes[i] = g_rand_int_range (gen->rand, 0, 256);
      return dyn_value_new_binary (g_bytes_new (bytes, sizeof bytes));
    }
  if (strcmp (type, "SS") == 0 || strcmp (type, "NS") == 0)
    {
      gboolean numbers = type[0] == 'N';
      guint first = g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (words) - 1);
      g_autofree char *one = numbers ? g_strdup_printf ("%u", first + 1) : g_strdup (words[first]);
      g_autofree char *two = numbers ? g_strdup_printf ("%u", first + 2) : g_strdup (words[first + 1]);
      const char *const strv[] = { one, two };

      return numbers ? dyn_value_new_number_set (strv, 2, NULL) : dyn_value_new_string_set (strv, 2, NULL);
    }
  if (strcmp (type, "BS") == 0)
    {
      GBytes *bytes[2] = { g_bytes_new ("\x01\x02", 2), g_bytes_new ("\x03\x04", 2) };
      DynValue *v = dyn_value_new_binary_set (bytes, 2, NULL);

      g_bytes_unref (bytes[0]);
      g_bytes_unref (bytes[1]);
      return v;
    }
  if (strcmp (type, "L") == 0)
    {
      DynValue *list = dyn_value_new_list ();

      dyn_value_list_take (list, dyn_value_new_string (words[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (words))]));
      dyn_value_list_take (list, dyn_value_new_string (words[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (words))]));
      return list;
    }
  if (strcmp (type, "M") == 0)
    {
      DynValue *map = dyn_value_new_map ();

      dyn_value_map_take (map, "city", dyn_value_new_string (cities[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (cities))]));
      dyn_value_map_take (map, "note", dyn_value_new_string (words[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (words))]));
      return map;
    }

  /* S */
  if (text != NULL)
    return dyn_value_new_string (text);
  if (is_id)
    {
      g_autofree char *abbr = abbreviation_of (gen->plan, e);
      text = g_strdup_printf ("%s-%03u", abbr, index + 1);
    }
  else if (date == DATE_TIME)
    {
      g_autoptr(GDateTime) base = g_date_time_new_utc (2026, 1, 5, 9, 0, 0);
      g_autoptr(GDateTime) t = g_date_time_add_seconds (base, (gdouble) n * 3 * 86400 +
                                                        g_rand_int_range (gen->rand, 0, 36000));
      text = g_date_time_format (t, "%Y-%m-%dT%H:%M:%SZ");
    }
  else if (date == DATE_DAY)
    {
      g_autoptr(GDateTime) base = g_date_time_new_utc (2026, 1, 5, 0, 0, 0);
      g_autoptr(GDateTime) t = g_date_time_add_days (base, n * 3);
      text = g_date_time_format (t, "%Y-%m-%d");
    }
  else if (g_ascii_strcasecmp (a->name, "email") == 0 || ends_with_word (a->name, "Email"))
    {
      DynValue *name = context ? dyn_value_map_lookup (context, "name") : NULL;
      g_autofree char *local = NULL;

      if (name != NULL && dyn_value_get_value_type (name) == DYN_VALUE_S)
        {
          local = g_ascii_strdown (dyn_value_get_string (name), -1);
          g_strdelimit (local, " ", '.');
        }
      else
        local = g_strdup_printf ("%s%u", words[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (words))], n + 1);
      text = g_strdup_printf ("%s@example.com", local);
    }
  else if (g_ascii_strcasecmp (a->name, "name") == 0 || ends_with_word (a->name, "Name"))
    {
      if (is_person (e))
        text = g_strdup_printf ("%s %s", first_names[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (first_names))],
                                last_names[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (last_names))]);
      else
        {
          /* The item's own id, capitalized: "acme" → "Acme". */
          DynValue *id = e->id && e->id[0] && context ? dyn_value_map_lookup (context, e->id[0]) : NULL;

          if (id != NULL && dyn_value_get_value_type (id) == DYN_VALUE_S && g_ascii_isalpha (dyn_value_get_string (id)[0]))
            {
              text = g_strdup (dyn_value_get_string (id));
              text[0] = g_ascii_toupper (text[0]);
            }
          else
            text = g_strdup_printf ("%s %u", e->name, n + 1);
        }
    }
  else if (g_ascii_strcasecmp (a->name, "title") == 0 || ends_with_word (a->name, "Title"))
    {
      g_autofree char *l = lower (e->name);
      gboolean course = strstr (l, "course") || strstr (l, "class") || strstr (l, "lesson");

      text = g_strdup (course ? course_titles[(n + gen->seed - 1) % G_N_ELEMENTS (course_titles)]
                              : titles[(n + gen->seed - 1) % G_N_ELEMENTS (titles)]);
    }
  else if (contains_word (a->name, "city"))
    text = g_strdup (cities[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (cities))]);
  else if (contains_word (a->name, "description") || contains_word (a->name, "note") ||
           contains_word (a->name, "comment"))
    {
      g_autofree char *name = g_ascii_strdown (e->name, -1);

      text = g_strdup_printf ("Example %s %u", name, n + 1);
    }
  else
    text = g_strdup_printf ("%s-%s", words[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (words))],
                            a->name);
  return dyn_value_new_string (text);
}

guint
_dyn_design_shard_of (const DynDesignEntity *entity,
                      const DynValue        *context,
                      guint                  n_shards)
{
  guint32 hash = 2166136261u;   /* FNV-1a */

  if (n_shards <= 1)
    return n_shards;
  for (guint i = 0; entity->id && entity->id[i]; i++)
    {
      DynValue *v = context ? dyn_value_map_lookup (context, entity->id[i]) : NULL;
      const char *s = v == NULL ? "" :
                      dyn_value_get_value_type (v) == DYN_VALUE_S ? dyn_value_get_string (v) :
                      dyn_value_get_value_type (v) == DYN_VALUE_N ? dyn_value_get_number (v) : "";

      for (const char *p = s; *p; p++)
        hash = (hash ^ (guchar) *p) * 16777619u;
      hash = (hash ^ '#') * 16777619u;
    }
  if (entity->id == NULL || entity->id[0] == NULL)
    {
      /* No id (an edge): every string or number the item holds. */
      for (guint i = 0; context && i < dyn_value_get_length (context); i++)
        {
          DynValue *v = dyn_value_map_get_value (context, i);
          const char *s = dyn_value_get_value_type (v) == DYN_VALUE_S ? dyn_value_get_string (v) :
                          dyn_value_get_value_type (v) == DYN_VALUE_N ? dyn_value_get_number (v) : "";

          for (const char *p = s; *p; p++)
            hash = (hash ^ (guchar) *p) * 16777619u;
        }
    }
  return hash % n_shards + 1;
}

void
_dyn_design_render_keys (const DynDesignEntity    *entity,
                         const DynDesignPlacement *placement,
                         const DynValue           *context,
                         DynValue                 *item)
{
  guint shard = _dyn_design_shard_of (entity, context, placement->shards);

  for (guint i = 0; i < placement->keys->len; i++)
    {
      DynDesignKey *key = placement->keys->pdata[i];
      g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (key->template, NULL);
      g_autoptr(DynValue) v = NULL;

      if (t == NULL)
        continue;
      v = dyn_design_template_render (t, context, dyn_design_template_has_shard (t) ? shard : 0,
                                      placement->shards, NULL);
      if (v != NULL)
        dyn_value_map_set (item, key->attribute, v);
    }
}

static GPtrArray *
made_of (Gen        *gen,
         const char *entity)
{
  GPtrArray *a = g_hash_table_lookup (gen->made, entity);

  if (a == NULL)
    {
      a = g_ptr_array_new ();
      g_hash_table_insert (gen->made, (gpointer) entity, a);
    }
  return a;
}

/* One item of @e: its context is @inherited (the parents' ids) plus its
 * own attributes. */
static DynValue *
make_item (Gen                   *gen,
           const DynDesignEntity *e,
           const DynValue        *inherited,
           guint                  k)
{
  const DynDesignPlacement *placement = dyn_design_plan_find_placement (gen->plan, e->name);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (gen->counters, e->name));
  DynValue *context = dyn_value_new_map ();
  g_autoptr(DynValue) item = dyn_value_new_map ();

  g_hash_table_insert (gen->counters, e->name, GUINT_TO_POINTER (n + 1));
  for (guint i = 0; inherited && i < dyn_value_get_length (inherited); i++)
    dyn_value_map_set (context, dyn_value_map_get_name (inherited, i), dyn_value_map_get_value (inherited, i));
  /* Ids first, so that names and emails can follow them. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < e->attributes->len; i++)
      {
        DynDesignAttribute *a = e->attributes->pdata[i];
        gboolean first = strv_has (e->id, a->name) || date_kind (a->name) != DATE_NONE ||
                         g_ascii_strcasecmp (a->name, "name") == 0;
        DynValue *existing = dyn_value_map_lookup (context, a->name);
        g_autoptr(DynValue) v = NULL;

        if ((pass == 0) != first)
          continue;
        if (existing != NULL && inherited != NULL && dyn_value_map_lookup (inherited, a->name) != NULL)
          v = dyn_value_ref (existing);   /* a parent's id the child repeats */
        else
          v = generate_value (gen, e, a, n, k, context);
        dyn_value_map_set (context, a->name, v);
        dyn_value_map_set (item, a->name, v);
      }
  /* An edge copies both sides' ids it names. */
  if (placement != NULL)
    _dyn_design_render_keys (e, placement, context, item);
  {
    const char *eq = e->discriminator ? strchr (e->discriminator, '=') : NULL;

    if (eq != NULL)
      {
        g_autofree char *attribute = g_strndup (e->discriminator, eq - e->discriminator);
        dyn_value_map_take (item, attribute, dyn_value_new_string (eq + 1));
      }
  }
  g_ptr_array_add (gen->items, dyn_value_ref (item));
  g_ptr_array_add (gen->contexts, context);
  g_ptr_array_add (made_of (gen, e->name), context);
  return context;
}

/* The ids of @context's entity, to pass on to its children. */
static DynValue *
inheritance (const DynDesignEntity *e,
             const DynValue        *context,
             const DynValue        *inherited)
{
  DynValue *ids = dyn_value_new_map ();

  for (guint i = 0; inherited && i < dyn_value_get_length (inherited); i++)
    dyn_value_map_set (ids, dyn_value_map_get_name (inherited, i), dyn_value_map_get_value (inherited, i));
  for (guint i = 0; e->id && e->id[i]; i++)
    {
      DynValue *v = dyn_value_map_lookup (context, e->id[i]);

      if (v != NULL)
        dyn_value_map_set (ids, e->id[i], v);
    }
  return ids;
}

static void
make_children (Gen                   *gen,
               const DynDesignEntity *parent,
               const DynValue        *context,
               const DynValue        *inherited)
{
  g_autoptr(DynValue) ids = inheritance (parent, context, inherited);

  for (guint r = 0; r < gen->model->relationships->len; r++)
    {
      DynDesignRelationship *rel = gen->model->relationships->pdata[r];
      const DynDesignEntity *child;

      if (rel->kind != DYN_DESIGN_ONE_TO_MANY || g_strcmp0 (rel->parent, parent->name) != 0)
        continue;
      child = dyn_design_model_find_entity (gen->model, rel->child);
      if (child == NULL || child == parent)
        continue;
      for (guint k = 0; k < gen->per_parent; k++)
        {
          DynValue *c = make_item (gen, child, ids, k);
          make_children (gen, child, c, ids);
        }
    }
}

static gboolean
is_contained (const DynDesignModel  *model,
              const DynDesignEntity *e)
{
  for (guint r = 0; r < model->relationships->len; r++)
    {
      DynDesignRelationship *rel = model->relationships->pdata[r];

      if ((rel->kind == DYN_DESIGN_ONE_TO_MANY && g_strcmp0 (rel->child, e->name) == 0 &&
           g_strcmp0 (rel->parent, e->name) != 0) ||
          (rel->kind == DYN_DESIGN_MANY_TO_MANY && g_strcmp0 (rel->edge, e->name) == 0))
        return TRUE;
    }
  return FALSE;
}

static int
compare_keys (gconstpointer pa,
              gconstpointer pb,
              gpointer      user_data)
{
  const DynDesignTable *t = user_data;
  const DynValue *a = *(DynValue * const *) pa;
  const DynValue *b = *(DynValue * const *) pb;
  const char *names[] = { t->partition_key, t->sort_key };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      DynValue *va, *vb;
      int r;

      if (names[i] == NULL)
        continue;
      va = dyn_value_map_lookup (a, names[i]);
      vb = dyn_value_map_lookup (b, names[i]);
      if (va == NULL || vb == NULL)
        {
          if (va != vb)
            return va == NULL ? 1 : -1;
          continue;
        }
      r = dyn_value_compare (va, vb);
      if (r != 0)
        return r;
    }
  return 0;
}

void
_dyn_design_sort_items (const DynDesignTable *table,
                        GPtrArray            *items)
{
  /* g_ptr_array_sort_with_data is a stable merge sort. */
  g_ptr_array_sort_with_data (items, compare_keys, (gpointer) table);
}

GPtrArray *
_dyn_design_examples_generate (const DynDesignPlan *plan,
                               guint                per_parent,
                               guint32              seed,
                               GPtrArray          **contexts)
{
  const DynDesignModel *model = _dyn_design_plan_get_model (plan);
  g_autoptr(GHashTable) counters = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) made = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                      (GDestroyNotify) g_ptr_array_unref);
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  GPtrArray *ctx = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  Gen gen = { 0 };

  gen.plan = plan;
  gen.model = model;
  gen.rand = g_rand_new_with_seed (seed);
  gen.per_parent = per_parent ? per_parent : 3;
  gen.seed = seed ? seed : 1;
  gen.counters = counters;
  gen.made = made;
  gen.items = items;
  gen.contexts = ctx;

  for (guint i = 0; i < model->entities->len; i++)
    {
      DynDesignEntity *e = model->entities->pdata[i];

      if (is_contained (model, e))
        continue;
      for (guint k = 0; k < TOP_LEVEL; k++)
        {
          DynValue *c = make_item (&gen, e, NULL, k);
          make_children (&gen, e, c, NULL);
        }
    }

  /* n:m edges: each example of the first side to per_parent examples of the
   * second, round the circle. */
  for (guint r = 0; r < model->relationships->len; r++)
    {
      DynDesignRelationship *rel = model->relationships->pdata[r];
      const DynDesignEntity *edge = rel->edge ? dyn_design_model_find_entity (model, rel->edge) : NULL;
      const DynDesignEntity *ea = dyn_design_model_find_entity (model, rel->parent);
      const DynDesignEntity *eb = dyn_design_model_find_entity (model, rel->child);
      g_autoptr(GPtrArray) sides_a = NULL;
      g_autoptr(GPtrArray) sides_b = NULL;

      if (rel->kind != DYN_DESIGN_MANY_TO_MANY || edge == NULL || ea == NULL || eb == NULL)
        continue;
      sides_a = g_ptr_array_copy (made_of (&gen, ea->name), NULL, NULL);
      sides_b = g_ptr_array_copy (made_of (&gen, eb->name), NULL, NULL);
      for (guint a = 0; a < sides_a->len; a++)
        for (guint j = 0; j < MIN (gen.per_parent, sides_b->len); j++)
          {
            const DynValue *ca = sides_a->pdata[a];
            const DynValue *cb = sides_b->pdata[(a + j) % sides_b->len];
            g_autoptr(DynValue) ids = inheritance (ea, ca, NULL);
            g_autoptr(DynValue) both = inheritance (eb, cb, ids);

            make_item (&gen, edge, both, j);
          }
    }

  g_rand_free (gen.rand);
  if (contexts != NULL)
    *contexts = ctx;
  else
    g_ptr_array_unref (ctx);
  return items;
}

GPtrArray *
dyn_design_examples (const DynDesignModel *model,
                     const DynDesignPlan  *plan,
                     guint                 per_parent,
                     guint32               seed)
{
  GPtrArray *items;

  g_return_val_if_fail (model != NULL && plan != NULL, NULL);

  if (model->items != NULL && model->items->len > 0)
    {
      items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      for (guint i = 0; i < model->items->len; i++)
        g_ptr_array_add (items, dyn_value_ref (model->items->pdata[i]));
    }
  else
    items = _dyn_design_examples_generate (plan, per_parent ? per_parent : model->examples_per_parent, seed, NULL);
  _dyn_design_sort_items (dyn_design_plan_get_table (plan), items);
  return items;
}
