/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the design studio's model readers
 * (client/design/dyn-design-model.c, -workbench.c, -cloudformation.c,
 * -template.c): arbitrary bytes parsed as JSON and loaded with
 * dyn_design_model_load() as a Dynoscope model, a NoSQL Workbench model, a
 * CloudFormation template or resource, or a create-table input. meson
 * builds it in a clang build (tests/meson.build, suite 'fuzz', with the
 * seeds of tests/fuzz-corpus/design-model); by hand as fuzz-ddb-json.c says.
 *
 * Beyond "never crash, never leak": a load fails with an error or gives a
 * model, never both or neither; a model that loads validates or says why;
 * its Dynoscope file loads again and writes the same JSON; its copy writes
 * the same JSON; every export either succeeds or fails with an error; every
 * key template of its entities parses, renders against each item or fails
 * with an error, and a rendered key matches its template; a model that
 * validates drafts or says why, and its plan gives examples, JSON and
 * every export.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyn-design.h"
#include "dyn-json.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
check_templates (const DynDesignModel *model)
{
  for (guint e = 0; e < model->entities->len; e++)
    {
      const DynDesignEntity *entity = model->entities->pdata[e];

      for (guint k = 0; k < entity->keys->len; k++)
        {
          const DynDesignKey *key = entity->keys->pdata[k];
          g_autoptr(GError) error = NULL;
          g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (key->template, &error);

          if ((t == NULL) == (error == NULL))
            abort ();
          if (t == NULL)
            continue;
          for (guint i = 0; i < model->items->len && i < 8; i++)
            {
              g_autoptr(GError) render_error = NULL;
              g_autoptr(DynValue) v = dyn_design_template_render (t, model->items->pdata[i],
                                                                  dyn_design_template_has_shard (t) ? 1 : 0,
                                                                  4, &render_error);

              if ((v == NULL) == (render_error == NULL))
                abort ();
              if (v != NULL && !dyn_design_template_match (t, v, NULL))
                abort ();
              (void) dyn_design_template_match (t, dyn_value_map_lookup (model->items->pdata[i], key->attribute), NULL);
            }
        }
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(JsonNode) root = dyn_json_parse ((const char *) data, size, NULL);
  static const char * const tables[] = { NULL, "Catalogue", "sessions" };

  if (root == NULL)
    return 0;
  for (guint n = 0; n < G_N_ELEMENTS (tables); n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignModel) model = dyn_design_model_load (root, tables[n], &error);
      g_autoptr(JsonNode) json = NULL;
      g_autoptr(JsonNode) json2 = NULL;
      g_autoptr(JsonNode) json3 = NULL;
      g_autoptr(DynDesignModel) again = NULL;
      g_autoptr(DynDesignModel) copy = NULL;
      g_autoptr(GError) validate_error = NULL;
      gboolean valid;

      if ((model == NULL) == (error == NULL))
        abort ();
      if (model == NULL)
        continue;
      valid = dyn_design_model_validate (model, &validate_error);
      if (valid == (validate_error != NULL))
        abort ();

      json = dyn_design_model_to_json (model);
      again = dyn_design_model_load (json, NULL, NULL);
      if (again == NULL)
        abort ();
      json2 = dyn_design_model_to_json (again);
      if (!json_node_equal (json, json2))
        abort ();
      copy = dyn_design_model_copy (model);
      json3 = dyn_design_model_to_json (copy);
      if (!json_node_equal (json, json3))
        abort ();

      for (guint f = DYN_DESIGN_FORMAT_DYNOSCOPE; f <= DYN_DESIGN_FORMAT_CREATE_TABLE; f++)
        {
          g_autoptr(GError) export_error = NULL;
          g_autoptr(JsonNode) out = dyn_design_export (model, NULL, f, &export_error);

          if ((out == NULL) == (export_error == NULL))
            abort ();
        }
      if (valid)
        {
          /* A model that validates drafts (or says why), and its plan gives
           * examples, its JSON and every export. */
          g_autoptr(GError) draft_error = NULL;
          g_autoptr(DynDesignPlan) plan = dyn_design_draft (model, &draft_error);

          check_templates (model);
          if ((plan == NULL) == (draft_error == NULL))
            abort ();
          if (plan != NULL)
            {
              g_autoptr(GPtrArray) examples = dyn_design_examples (model, plan, 2, 1);
              g_autoptr(JsonNode) plan_json = dyn_design_plan_to_json (plan, examples);

              if (plan_json == NULL)
                abort ();
              for (guint i = 0; examples != NULL && i < examples->len; i++)
                (void) dyn_design_plan_classify (plan, examples->pdata[i]);
              for (guint f = DYN_DESIGN_FORMAT_WORKBENCH; f <= DYN_DESIGN_FORMAT_CREATE_TABLE; f++)
                {
                  g_autoptr(GError) export_error = NULL;
                  g_autoptr(JsonNode) out = dyn_design_export (model, plan, f, &export_error);

                  if ((out == NULL) == (export_error == NULL))
                    abort ();
                }
            }
        }
    }
  return 0;
}
