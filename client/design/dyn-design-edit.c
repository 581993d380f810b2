/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Edits of a model that keep its references true (dyn-design-edit.h). */
#include "config.h"

#include <string.h>

#include "dyn-design-edit.h"

const char *
dyn_design_model_get_parent (const DynDesignModel *model,
                             const char           *entity)
{
  g_return_val_if_fail (model != NULL, NULL);

  for (guint i = 0; model->relationships && i < model->relationships->len; i++)
    {
      DynDesignRelationship *r = model->relationships->pdata[i];

      if (r->kind == DYN_DESIGN_ONE_TO_MANY && g_strcmp0 (r->child, entity) == 0)
        return r->parent;
    }
  return NULL;
}

void
dyn_design_model_set_parent (DynDesignModel *model,
                             const char     *entity,
                             const char     *parent)
{
  DynDesignRelationship *r;

  g_return_if_fail (model != NULL && entity != NULL);

  for (guint i = 0; model->relationships && i < model->relationships->len; i++)
    {
      r = model->relationships->pdata[i];
      if (r->kind != DYN_DESIGN_ONE_TO_MANY || g_strcmp0 (r->child, entity) != 0)
        continue;
      if (parent == NULL || *parent == '\0')
        g_ptr_array_remove_index (model->relationships, i);
      else
        {
          g_free (r->parent);
          r->parent = g_strdup (parent);
        }
      return;
    }
  if (parent == NULL || *parent == '\0')
    return;
  r = g_new0 (DynDesignRelationship, 1);
  r->kind = DYN_DESIGN_ONE_TO_MANY;
  r->parent = g_strdup (parent);
  r->child = g_strdup (entity);
  g_ptr_array_add (model->relationships, r);
}

static void
rename_string (char       **field,
               const char  *old_name,
               const char  *new_name)
{
  if (*field != NULL && g_strcmp0 (*field, old_name) == 0)
    {
      g_free (*field);
      *field = g_strdup (new_name);
    }
}

static void
rename_in_strv (GStrv       strv,
                const char *old_name,
                const char *new_name)
{
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    rename_string (&strv[i], old_name, new_name);
}

void
dyn_design_model_rename_entity (DynDesignModel *model,
                                const char     *old_name,
                                const char     *new_name)
{
  g_autofree char *old_copy = g_strdup (old_name);
  DynDesignEntity *entity;

  g_return_if_fail (model != NULL && old_name != NULL && new_name != NULL);

  entity = dyn_design_model_find_entity (model, old_copy);
  if (entity == NULL || g_strcmp0 (old_copy, new_name) == 0)
    return;
  rename_string (&entity->name, old_copy, new_name);
  for (guint i = 0; model->relationships && i < model->relationships->len; i++)
    {
      DynDesignRelationship *r = model->relationships->pdata[i];

      rename_string (&r->parent, old_copy, new_name);
      rename_string (&r->child, old_copy, new_name);
      rename_string (&r->edge, old_copy, new_name);
    }
  for (guint i = 0; model->patterns && i < model->patterns->len; i++)
    rename_string (&((DynDesignPattern *) model->patterns->pdata[i])->entity, old_copy, new_name);
}

/* "{old}" and "{old:08}" in a template's text become "{new}", "{new:08}". */
static char *
rename_in_template (const char *text,
                    const char *old_name,
                    const char *new_name)
{
  GString *s = g_string_new (NULL);
  gsize old_len = strlen (old_name);
  const char *p = text;

  while (*p != '\0')
    {
      if (p[0] == '{' && p[1] == '{')
        {
          g_string_append (s, "{{");
          p += 2;
        }
      else if (p[0] == '{' && strncmp (p + 1, old_name, old_len) == 0 &&
               (p[1 + old_len] == '}' || p[1 + old_len] == ':'))
        {
          g_string_append_c (s, '{');
          g_string_append (s, new_name);
          p += 1 + old_len;
        }
      else
        g_string_append_c (s, *p++);
    }
  return g_string_free (s, FALSE);
}

/* Whether @entity is @root or reaches it as a child or an edge. */
static gboolean
reads_under (const DynDesignModel *model,
             const char           *entity,
             const char           *root,
             guint                 depth)
{
  if (g_strcmp0 (entity, root) == 0)
    return TRUE;
  if (depth > 16)
    return FALSE;
  for (guint i = 0; model->relationships && i < model->relationships->len; i++)
    {
      DynDesignRelationship *r = model->relationships->pdata[i];

      if (r->kind == DYN_DESIGN_ONE_TO_MANY && g_strcmp0 (r->child, entity) == 0 &&
          reads_under (model, r->parent, root, depth + 1))
        return TRUE;
      if (r->kind == DYN_DESIGN_MANY_TO_MANY && r->edge != NULL && g_strcmp0 (r->edge, entity) == 0 &&
          (g_strcmp0 (r->parent, root) == 0 || g_strcmp0 (r->child, root) == 0))
        return TRUE;
    }
  return FALSE;
}

void
dyn_design_model_rename_attribute (DynDesignModel  *model,
                                   DynDesignEntity *entity,
                                   const char      *old_name,
                                   const char      *new_name)
{
  g_autofree char *old_copy = g_strdup (old_name);
  DynDesignAttribute *attribute;

  g_return_if_fail (model != NULL && entity != NULL && old_name != NULL && new_name != NULL);

  attribute = dyn_design_entity_find_attribute (entity, old_copy);
  if (attribute == NULL || g_strcmp0 (old_copy, new_name) == 0)
    return;
  rename_string (&attribute->name, old_copy, new_name);
  rename_in_strv (entity->id, old_copy, new_name);
  rename_string (&entity->sort_by, old_copy, new_name);
  for (guint i = 0; entity->keys && i < entity->keys->len; i++)
    {
      DynDesignKey *key = entity->keys->pdata[i];
      char *text = rename_in_template (key->template, old_copy, new_name);

      g_free (key->template);
      key->template = text;
    }
  if (entity->discriminator != NULL)
    {
      const char *eq = strchr (entity->discriminator, '=');

      if (eq != NULL && (gsize) (eq - entity->discriminator) == strlen (old_copy) &&
          strncmp (entity->discriminator, old_copy, eq - entity->discriminator) == 0)
        {
          char *text = g_strconcat (new_name, eq, NULL);

          g_free (entity->discriminator);
          entity->discriminator = text;
        }
    }
  for (guint i = 0; model->patterns && i < model->patterns->len; i++)
    {
      DynDesignPattern *pattern = model->patterns->pdata[i];
      DynDesignEntity *read;

      if (!reads_under (model, pattern->entity, entity->name, 0))
        continue;
      /* A child with an attribute of the same name of its own keeps it. */
      read = dyn_design_model_find_entity (model, pattern->entity);
      if (read != entity && read != NULL && dyn_design_entity_find_attribute (read, old_copy) != NULL)
        continue;
      rename_in_strv (pattern->parameters, old_copy, new_name);
      rename_string (&pattern->range_attribute, old_copy, new_name);
    }
}

void
dyn_design_model_remove_entity (DynDesignModel *model,
                                const char     *name)
{
  g_autofree char *copy = g_strdup (name);

  g_return_if_fail (model != NULL && name != NULL);

  for (guint i = model->relationships ? model->relationships->len : 0; i > 0; i--)
    {
      DynDesignRelationship *r = model->relationships->pdata[i - 1];

      if (g_strcmp0 (r->parent, copy) == 0 || g_strcmp0 (r->child, copy) == 0 || g_strcmp0 (r->edge, copy) == 0)
        g_ptr_array_remove_index (model->relationships, i - 1);
    }
  for (guint i = model->patterns ? model->patterns->len : 0; i > 0; i--)
    if (g_strcmp0 (((DynDesignPattern *) model->patterns->pdata[i - 1])->entity, copy) == 0)
      g_ptr_array_remove_index (model->patterns, i - 1);
  for (guint i = 0; i < model->entities->len; i++)
    if (g_strcmp0 (((DynDesignEntity *) model->entities->pdata[i])->name, copy) == 0)
      {
        g_ptr_array_remove_index (model->entities, i);
        break;
      }
}

char *
dyn_design_model_new_entity_name (const DynDesignModel *model,
                                  const char           *base)
{
  g_return_val_if_fail (model != NULL && base != NULL, NULL);

  if (dyn_design_model_find_entity (model, base) == NULL)
    return g_strdup (base);
  for (guint n = 2;; n++)
    {
      g_autofree char *name = g_strdup_printf ("%s%u", base, n);

      if (dyn_design_model_find_entity (model, name) == NULL)
        return g_steal_pointer (&name);
    }
}
