/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-change-plan"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-changes-private.h"

/* ------------------------------------------------------------------------ */
/* Plans */

void
_dyn_changes_action_free (DynChangesAction *a)
{
  g_clear_pointer (&a->request, dyn_request_free);
  g_free (a);
}

void
_dyn_changes_request_plan_free (DynChangesRequestPlan *r)
{
  g_free (r->operation);
  g_array_unref (r->changes);
  g_free (r);
}

void
_dyn_changes_plan_free (DynChangesPlan *plan)
{
  if (plan == NULL)
    return;
  g_ptr_array_unref (plan->actions);
  for (guint i = 0; i < plan->n_changes; i++)
    {
      g_free (plan->changes[i].guard_text);
      g_free (plan->changes[i].description);
    }
  g_free (plan->changes);
  g_ptr_array_unref (plan->requests);
  g_free (plan);
}

/* Planning one change ----------------------------------------------------- */

/* "a, b, c and 2 more". */
static char *
join_list (GPtrArray *items,
           guint      max)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < items->len && i < max; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) items->pdata[i]);
  if (items->len > max)
    {
      guint more = items->len - max;

      /* TRANSLATORS: a list of attributes or conditions, then how many were left out */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more", "%s and %u more", more),
                              s->str, more);
    }
  return g_strdup (s->str);
}

/* A value as the expression syntax writes it, cut short for a sentence. */
static char *
short_value (const DynValue *value)
{
  g_autofree char *text = dyn_expr_value_to_literal (value);
  const char *end;

  if (g_utf8_strlen (text, -1) <= 40)
    return g_steal_pointer (&text);
  end = g_utf8_offset_to_pointer (text, 39);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

static DynChangesAction *
action_new (guint              change,
            DynChangesBuilder *b)
{
  DynChangesAction *a = g_new0 (DynChangesAction, 1);

  a->change = change;
  a->request = g_steal_pointer (&b->request);
  return a;
}

static gboolean
check_length (const char  *what,
              const char  *expression,
              GError     **error)
{
  if (expression != NULL && strlen (expression) > DYN_EXPRESSION_MAX_LENGTH)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: %s is an expression field such as UpdateExpression */
                   _("the %s would be %zu bytes long; DynamoDB takes at most %d"),
                   what, strlen (expression), DYN_EXPRESSION_MAX_LENGTH);
      return FALSE;
    }
  return TRUE;
}

/* A create: PutItem guarded by attribute_not_exists(<partition key>). */
static DynChangesAction *
plan_put (DynChangeSet  *self,
          guint          index,
          DynValue      *before,
          DynValue      *after,
          GError       **error)
{
  g_auto(DynChangesBuilder) b = { 0 };
  g_autoptr(GString) guard = g_string_new (NULL);

  _dyn_changes_builder_init (&b, DYN_OP_PUT_ITEM, self->table);
  b.request->item = _dyn_changes_item_to_put (_dyn_changes_version_in_use (self), before, after, error);
  if (b.request->item == NULL)
    return NULL;
  _dyn_changes_guard_append (&b, guard, DYN_CHANGES_TERM_NOT_EXISTS, self->keys.partition_key, NULL);
  b.request->condition = g_strdup (guard->str);
  return action_new (index, &b);
}

/* The guard "the item as the user saw it": every attribute of @before equal
 * (attribute_exists on the partition key first, so an item of only key
 * attributes is guarded too), at most @max_terms attribute terms. */
static void
guard_seen_item (DynChangeSet      *self,
                 DynChangesBuilder *b,
                 GString           *guard,
                 DynValue          *before,
                 guint              max_terms)
{
  guint terms = 0;

  _dyn_changes_guard_append (b, guard, DYN_CHANGES_TERM_EXISTS, self->keys.partition_key, NULL);
  for (guint i = 0; i < dyn_value_get_length (before) && terms < max_terms; i++)
    {
      const char *name = dyn_value_map_get_name (before, i);

      if (_dyn_changes_is_key_attribute (&self->keys, name))
        continue;
      _dyn_changes_guard_append (b, guard, DYN_CHANGES_TERM_EQUAL, name, dyn_value_map_get_value (before, i));
      terms++;
    }
}

static guint
count_non_key (DynChangeSet *self,
               DynValue     *item)
{
  guint n = 0;

  for (guint i = 0; i < dyn_value_get_length (item); i++)
    if (!_dyn_changes_is_key_attribute (&self->keys, dyn_value_map_get_name (item, i)))
      n++;
  return n;
}

static char *
whole_item_text (guint n)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Guarded by the whole item as loaded (%u attribute)",
                                       "Guarded by the whole item as loaded (%u attributes)", n), n);
}

static DynChangesAction *
plan_delete (DynChangeSet  *self,
             guint          index,
             DynValue      *before,
             const char   **guard_kind,
             char         **guard_text,
             GError       **error)
{
  g_auto(DynChangesBuilder) b = { 0 };
  g_autoptr(GString) guard = g_string_new (NULL);
  DynValue *version = _dyn_changes_version_of (_dyn_changes_version_in_use (self), before);
  guint n = count_non_key (self, before);

  _dyn_changes_builder_init (&b, DYN_OP_DELETE_ITEM, self->table);
  b.request->key = _dyn_changes_key_of (&self->keys, before);

  if (version != NULL)
    {
      _dyn_changes_guard_append (&b, guard, DYN_CHANGES_TERM_EQUAL, self->version_attribute, version);
      *guard_kind = "version";
      /* TRANSLATORS: "Guarded by version: version is still 3"; the first %s is the attribute's name */
      *guard_text = g_strdup_printf (_("Guarded by version: %s is still %s"), self->version_attribute,
                                     dyn_value_get_number (version));
    }
  else
    {
      /* A delete changes every attribute: in any mode it is guarded by the
       * whole item. */
      guard_seen_item (self, &b, guard, before, G_MAXUINT);
      *guard_kind = "values";
      *guard_text = whole_item_text (n);
      if (guard->len > DYN_EXPRESSION_MAX_LENGTH)
        {
          /* Placeholders are handed out in the same order on a rebuild, so
           * the terms that fit keep their lengths: count the attribute terms
           * (after attribute_exists) that end inside the limit. Term k ends
           * where separator k starts. */
          const char *p = guard->str;
          guint fit = 0;

          while ((p = strstr (p, " AND ")) != NULL &&
                 (gsize) (p - guard->str) <= DYN_EXPRESSION_MAX_LENGTH)
            {
              p += 5;
              fit++;
            }
          fit = fit > 0 ? fit - 1 : 0;
          for (;;)
            {
              _dyn_changes_builder_clear (&b);
              _dyn_changes_builder_init (&b, DYN_OP_DELETE_ITEM, self->table);
              b.request->key = _dyn_changes_key_of (&self->keys, before);
              g_string_truncate (guard, 0);
              guard_seen_item (self, &b, guard, before, fit);
              if (guard->len <= DYN_EXPRESSION_MAX_LENGTH || fit == 0)
                break;
              fit--;
            }
          *guard_kind = "partial";
          g_free (*guard_text);
          *guard_text = g_strdup_printf (_("Guarded by the first %u of the item’s %u attributes as loaded "
                                           "(a guard on the whole item would exceed DynamoDB’s 4 KB "
                                           "expression limit)"), fit, n);
        }
    }
  b.request->condition = g_strdup (guard->str);
  if (!check_length ("condition", b.request->condition, error))
    return NULL;
  return action_new (index, &b);
}

/* Whether another path of @touched that is checked by its value goes
 * through @parent: its guard then holds only while @parent is a map. */
static gboolean
parent_checked (GPtrArray         *touched,
                const DynExprPath *parent)
{
  guint n = dyn_expr_path_get_length (parent);

  for (guint i = 0; i < touched->len; i++)
    {
      DynDiffEntry *entry = touched->pdata[i];

      if (entry->kind != DYN_DIFF_ADDED && dyn_expr_path_get_length (entry->path) > n &&
          dyn_path_overlaps (entry->path, parent))
        return TRUE;
    }
  return FALSE;
}

/* The guard on what the update depends on: the item exists; each path it
 * changes or removes holds the value loaded; each path it adds is absent and
 * its parent is still a map (else the SET would be refused); each list it
 * writes elements of has the length loaded (so the positions still name the
 * same elements). With @said, the same in words, one per path or list. */
static void
guard_changes (DynChangeSet      *self,
               DynChangesBuilder *b,
               GString           *guard,
               DynValue          *before,
               GPtrArray         *touched,
               GPtrArray         *said)
{
  g_autoptr(GHashTable) done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  _dyn_changes_guard_append (b, guard, DYN_CHANGES_TERM_EXISTS, self->keys.partition_key, NULL);
  for (guint i = 0; i < touched->len; i++)
    {
      DynDiffEntry *entry = touched->pdata[i];

      if (entry->kind == DYN_DIFF_ADDED)
        {
          _dyn_changes_guard_append_path (b, guard, DYN_CHANGES_TERM_NOT_EXISTS, entry->path, NULL);
          if (said != NULL)
            /* TRANSLATORS: a guard condition: the path (info.rating) was absent when loaded and must still be */
            g_ptr_array_add (said, g_strdup_printf (_("%s is still absent"), entry->name));
        }
      else
        {
          _dyn_changes_guard_append_path (b, guard, DYN_CHANGES_TERM_EQUAL, entry->path, entry->before);
          if (said != NULL)
            {
              g_autofree char *value = short_value (entry->before);
              /* TRANSLATORS: a guard condition: "info.rating is still 8.7" */
              g_ptr_array_add (said, g_strdup_printf (_("%s is still %s"), entry->name, value));
            }
        }
    }
  for (guint i = 0; i < touched->len; i++)
    {
      DynDiffEntry *entry = touched->pdata[i];
      guint n = dyn_expr_path_get_length (entry->path);

      for (guint k = 1; k < n; k++)
        {
          g_autoptr(DynExprPath) list_path = NULL;
          g_autoptr(DynValue) size = NULL;
          g_autofree char *number = NULL;
          DynValue *list;
          char *key;

          if (!dyn_expr_path_is_index (entry->path, k))
            continue;
          list_path = _dyn_changes_path_prefix (entry->path, k);
          key = dyn_path_to_display (list_path);
          if (!g_hash_table_add (done, key))
            continue;
          list = dyn_path_lookup (before, list_path);
          number = g_strdup_printf ("%u", dyn_value_get_length (list));
          size = dyn_value_new_number (number, NULL);
          _dyn_changes_guard_append_path (b, guard, DYN_CHANGES_TERM_SIZE, list_path, size);
          if (said != NULL)
            g_ptr_array_add (said, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s still has %u element",
                                                                 "%s still has %u elements",
                                                                 dyn_value_get_length (list)),
                                                    key, dyn_value_get_length (list)));
        }
      if (entry->kind == DYN_DIFF_ADDED && n > 1)
        {
          g_autoptr(DynExprPath) parent = _dyn_changes_path_prefix (entry->path, n - 1);
          g_autofree char *display = dyn_path_to_display (parent);

          if (!parent_checked (touched, parent) &&
              g_hash_table_add (done, g_strconcat ("\x1fmap ", display, NULL)))
            _dyn_changes_guard_append_path (b, guard, DYN_CHANGES_TERM_IS_MAP, parent, NULL);
        }
    }
}

typedef enum {
  GUARD_ITEM,
  GUARD_CHANGES,
} GuardScope;

/* The update of @before into @after: the paths it writes go to @touched
 * (DynDiffEntry*, the version attribute left out), the words of a
 * GUARD_CHANGES guard to @said. */
static gboolean
build_update (DynChangeSet      *self,
              DynChangesBuilder *b,
              DynValue          *before,
              DynValue          *after,
              GuardScope         scope,
              GPtrArray         *touched,
              GPtrArray         *said,
              GError           **error)
{
  const char *version_attribute = _dyn_changes_version_in_use (self);
  DynValue *version = _dyn_changes_version_of (version_attribute, before);
  g_autoptr(GPtrArray) diff = dyn_diff_items (before, after, &self->keys, FALSE);
  g_autoptr(GString) guard = g_string_new (NULL);
  DynChangesClauses c = {
    g_string_new (NULL), g_string_new (NULL), g_string_new (NULL),
    g_ptr_array_new_with_free_func ((GDestroyNotify) _dyn_changes_remove_free),
  };
  g_autoptr(DynValue) next = NULL;
  gboolean ok = TRUE;

  _dyn_changes_builder_init (b, DYN_OP_UPDATE_ITEM, self->table);
  b->request->key = _dyn_changes_key_of (&self->keys, before);
  g_ptr_array_set_size (touched, 0);
  if (said != NULL)
    g_ptr_array_set_size (said, 0);

  for (guint i = 0; i < diff->len; i++)
    {
      DynDiffEntry *entry = diff->pdata[i];

      /* Keys are the item's identity (a changed key is no update); the
       * version is written below. */
      if (entry->is_key ||
          (version != NULL && strcmp (dyn_expr_path_get_name (entry->path, 0, NULL), version_attribute) == 0))
        continue;
      _dyn_changes_write_entry (b, &c, entry);
      g_ptr_array_add (touched, g_steal_pointer (&diff->pdata[i]));
    }

  if (version != NULL)
    {
      next = _dyn_changes_next_version (version_attribute, before, error);
      if (next == NULL)
        {
          ok = FALSE;
          goto out;
        }
      if (touched->len > 0)
        {
          g_autofree char *p = _dyn_changes_add_value (b, "", version_attribute, next);
          g_autofree char *text = g_strdup_printf ("%s = %s", _dyn_changes_alias_name (b, version_attribute), p);
          _dyn_changes_clause_append (c.set, text);
        }
      _dyn_changes_guard_append (b, guard, DYN_CHANGES_TERM_EQUAL, version_attribute, version);
    }
  else if (scope == GUARD_ITEM)
    {
      guard_seen_item (self, b, guard, before, G_MAXUINT);
      for (guint i = 0; i < dyn_value_get_length (after); i++)
        {
          const char *name = dyn_value_map_get_name (after, i);
          if (dyn_value_map_lookup (before, name) == NULL)
            _dyn_changes_guard_append (b, guard, DYN_CHANGES_TERM_NOT_EXISTS, name, NULL);
        }
    }
  else
    guard_changes (self, b, guard, before, touched, said);

  /* The diff's paths are disjoint by construction; DynamoDB refuses an
   * update whose paths overlap, so make sure. */
  for (guint i = 0; i < touched->len; i++)
    for (guint j = i + 1; j < touched->len; j++)
      if (dyn_path_overlaps (((DynDiffEntry *) touched->pdata[i])->path, ((DynDiffEntry *) touched->pdata[j])->path))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_FAILED, /* Translators: %s are document paths such as info.rating */
                       _("two paths of one update overlap: %s and %s"),
                       ((DynDiffEntry *) touched->pdata[i])->name, ((DynDiffEntry *) touched->pdata[j])->name);
          ok = FALSE;
          goto out;
        }

  b->request->update = _dyn_changes_clauses_to_expression (&c);
  b->request->condition = g_strdup (guard->str);

out:
  g_string_free (c.set, TRUE);
  g_string_free (c.add, TRUE);
  g_string_free (c.del, TRUE);
  g_ptr_array_unref (c.removes);
  return ok;
}

static char *
changes_text (GPtrArray *said)
{
  g_autofree char *list = join_list (said, 4);

  /* TRANSLATORS: the list says per path what must still hold: "info.rating is still 8.7, info.tagline is still absent" */
  return g_strdup_printf (_("Guarded by the values it changes: %s"), list);
}

static DynChangesAction *
plan_update (DynChangeSet  *self,
             guint          index,
             DynValue      *before,
             DynValue      *after,
             const char   **guard_kind,
             char         **guard_text,
             GPtrArray     *touched,
             GError       **error)
{
  g_auto(DynChangesBuilder) b = { 0 };
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  const char *version_attribute = _dyn_changes_version_in_use (self);
  DynValue *version = _dyn_changes_version_of (version_attribute, before);
  GuardScope scope = self->guard_mode == DYN_GUARD_ITEM ? GUARD_ITEM : GUARD_CHANGES;

  if (!build_update (self, &b, before, after, scope, touched, said, error))
    return NULL;
  if (touched->len == 0)
    return NULL;   /* only the version differed: nothing to send */

  if (version != NULL)
    {
      g_autoptr(DynValue) next = _dyn_changes_next_version (version_attribute, before, NULL);

      *guard_kind = "version";
      /* TRANSLATORS: "Guarded by version: version is still 3, set to 4"; the first %s is the attribute's name */
      *guard_text = g_strdup_printf (_("Guarded by version: %s is still %s, set to %s"), version_attribute,
                                     dyn_value_get_number (version), dyn_value_get_number (next));
    }
  else if (scope == GUARD_ITEM && strlen (b.request->condition) <= DYN_EXPRESSION_MAX_LENGTH)
    {
      *guard_kind = "values";
      *guard_text = whole_item_text (count_non_key (self, before));
    }
  else if (scope == GUARD_ITEM)
    {
      g_autofree char *text = NULL;

      _dyn_changes_builder_clear (&b);
      if (!build_update (self, &b, before, after, GUARD_CHANGES, touched, said, error))
        return NULL;
      *guard_kind = "changed-attributes";
      text = changes_text (said);
      *guard_text = g_strdup_printf (_("%s (a guard on the whole item would exceed DynamoDB’s 4 KB "
                                       "expression limit)"), text);
    }
  else
    {
      *guard_kind = "changed-attributes";
      *guard_text = changes_text (said);
      if (self->guard_mode == DYN_GUARD_VERSION)
        {
          g_autofree char *text = g_steal_pointer (guard_text);

          if (version_attribute == NULL)
            *guard_text = g_strdup_printf (_("%s (no version attribute is set)"), text);
          else
            /* TRANSLATORS: the %s in parentheses is the version attribute's name */
            *guard_text = g_strdup_printf (_("%s (the item has no version number in %s)"), text, version_attribute);
        }
    }

  if (!check_length ("update expression", b.request->update, error) ||
      !check_length ("condition", b.request->condition, error))
    return NULL;
  return action_new (index, &b);
}

gboolean
_dyn_changes_plan_change (DynChangeSet   *self,
                          DynChangesPlan *plan,
                          guint           index,
                          GError        **error)
{
  DynChange *change = self->changes->pdata[index];
  DynChangesChangePlan *cp = &plan->changes[index];
  g_autofree char *where = NULL;
  DynChangesAction *a = NULL;

  cp->kind = dyn_change_get_kind (change, &self->keys);
  cp->first_action = plan->actions->len;
  cp->request = -1;
  where = _dyn_changes_key_display (&self->keys, change->after ? change->after : change->before);

  switch (cp->kind)
    {
    case DYN_CHANGE_KIND_NONE:
      cp->guard_text = g_strdup (_("Not guarded: nothing to send"));
      /* TRANSLATORS: %s is the item's key */
      cp->description = g_strdup_printf (_("%s: unchanged, nothing to send"), where);
      return TRUE;

    case DYN_CHANGE_KIND_CREATE:
      a = plan_put (self, index, NULL, change->after, error);
      if (a == NULL)
        return FALSE;
      g_ptr_array_add (plan->actions, a);
      cp->guard = "not-exists";
      cp->guard_text = g_strdup (_("Guarded: no item with this key may exist"));
      /* TRANSLATORS: the item's key, then the guard sentence */
      cp->description = g_strdup_printf (_("Create %s. %s"), where, cp->guard_text);
      break;

    case DYN_CHANGE_KIND_DELETE:
      a = plan_delete (self, index, change->before, &cp->guard, &cp->guard_text, error);
      if (a == NULL)
        return FALSE;
      g_ptr_array_add (plan->actions, a);
      /* TRANSLATORS: the item's key, then the guard sentence */
      cp->description = g_strdup_printf (_("Delete %s. %s"), where, cp->guard_text);
      break;

    case DYN_CHANGE_KIND_UPDATE:
      {
        g_autoptr(GPtrArray) touched = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_diff_entry_free);
        g_autoptr(GPtrArray) names = g_ptr_array_new ();
        g_autofree char *list = NULL;

        a = plan_update (self, index, change->before, change->after, &cp->guard, &cp->guard_text, touched, error);
        if (a == NULL)
          {
            if (error != NULL && *error != NULL)
              return FALSE;
            cp->kind = DYN_CHANGE_KIND_NONE;
            cp->guard_text = g_strdup (_("Not guarded: nothing to send"));
            cp->description = g_strdup_printf (_("%s: only the version attribute differs, nothing to send"), where);
            return TRUE;
          }
        g_ptr_array_add (plan->actions, a);
        for (guint i = 0; i < touched->len; i++)
          g_ptr_array_add (names, ((DynDiffEntry *) touched->pdata[i])->name);
        list = join_list (names, 8);
        /* TRANSLATORS: the item's key, the paths it changes, then the guard sentence */
        cp->description = g_strdup_printf (_("Update %s: %s. %s"), where, list, cp->guard_text);
      }
      break;

    case DYN_CHANGE_KIND_KEY_CHANGE:
      {
        g_autofree char *old_where = _dyn_changes_key_display (&self->keys, change->before);
        g_autofree char *delete_text = NULL;

        a = plan_delete (self, index, change->before, &cp->guard, &delete_text, error);
        if (a == NULL)
          return FALSE;
        g_ptr_array_add (plan->actions, a);
        a = plan_put (self, index, change->before, change->after, error);
        if (a == NULL)
          return FALSE;
        g_ptr_array_add (plan->actions, a);
        /* TRANSLATORS: the old item's guard sentence, then what guards the new key */
        cp->guard_text = g_strdup_printf (_("%s; no item with the new key may exist"), delete_text);
        /* TRANSLATORS: the old key, the new key, then the guard sentence */
        cp->description = g_strdup_printf (_("Key change %s → %s in one transaction. %s"),
                                           old_where, where, cp->guard_text);
      }
      break;
    }
  cp->n_actions = plan->actions->len - cp->first_action;
  return TRUE;
}

/* The body of a planned request ------------------------------------------ */

static const char *
transact_member (DynOperation op)
{
  switch (op)
    {
    case DYN_OP_PUT_ITEM:
      return "Put";
    case DYN_OP_UPDATE_ITEM:
      return "Update";
    case DYN_OP_DELETE_ITEM:
      return "Delete";
    default:
      g_return_val_if_reached (NULL);
    }
}

JsonNode *
_dyn_changes_request_params (DynChangesPlan        *plan,
                             DynChangesRequestPlan *r)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  JsonNode *node;

  if (r->token == NULL)
    {
      DynChangesAction *a = plan->actions->pdata[r->first_action];
      g_autoptr(DynRequest) copy = dyn_request_copy (a->request);

      copy->return_consumed_capacity = TRUE;
      return dyn_request_to_json (copy);
    }

  {
    JsonArray *items = json_array_new ();

    for (guint i = r->first_action; i < r->first_action + r->n_actions; i++)
      {
        DynChangesAction *a = plan->actions->pdata[i];
        JsonObject *wrapper = json_object_new ();
        JsonNode *body = dyn_request_to_json (a->request);

        json_object_set_member (wrapper, transact_member (a->request->op), body);
        json_array_add_object_element (items, wrapper);
      }
    json_object_set_array_member (obj, "TransactItems", items);
  }
  json_object_set_string_member (obj, "ClientRequestToken", r->token);
  json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, obj);
  return node;
}
