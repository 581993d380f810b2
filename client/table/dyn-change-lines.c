/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-change-lines"

/* Changes as JSON lines, the format of `dynoscope-cli apply`: one
 * {"before": ITEM|null, "after": ITEM|null} per line in, one outcome per
 * change out. */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-change-lines.h"
#include "dyn-json.h"

static gboolean
item_member (JsonObject  *obj,
             const char  *name,
             DynValue   **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is “before” or “after” */
                   _("“%s” must be an item (a JSON object) or null"), name);
      return FALSE;
    }
  *out = dyn_item_from_ddb_json (node, error);
  if (*out == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return FALSE;
    }
  return TRUE;
}

int
dyn_change_set_add_json_line (DynChangeSet  *self,
                              const char    *line,
                              gssize         len,
                              GError       **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) after = NULL;
  JsonObject *obj;

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), -1);
  g_return_val_if_fail (line != NULL, -1);

  root = dyn_json_parse (line, len < 0 ? (gssize) strlen (line) : len, error);
  if (root == NULL)
    return -1;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("expected {\"before\": ITEM|null, \"after\": ITEM|null}"));
      return -1;
    }
  obj = json_node_get_object (root);
  if (!item_member (obj, "before", &before, error) ||
      !item_member (obj, "after", &after, error))
    return -1;
  if (before == NULL && after == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("a change needs “before” or “after”"));
      return -1;
    }
  return dyn_change_set_add (self, before, after, error);
}

static char *
item_text (DynValue *item,
           gboolean  plain)
{
  if (item == NULL)
    return g_strdup ("null");
  return plain ? dyn_value_to_plain_json_string (item) : dyn_item_to_ddb_json_string (item);
}

static char *
json_string_literal (const char *s)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, s);
  return json_to_string (node, FALSE);
}

char *
dyn_commit_result_dup_outcome_line (DynCommitResult *self,
                                    guint            change,
                                    gboolean         plain)
{
  DynChangeStatus status;
  const GError *error;
  GString *line;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (change < dyn_commit_result_get_n_changes (self), NULL);

  status = dyn_commit_result_get_status (self, change);
  error = dyn_commit_result_get_error (self, change);
  line = g_string_new (NULL);
  g_string_append_printf (line, "{\"change\":%u,\"status\":\"%s\"", change,
                          dyn_change_status_to_string (status));
  if (status == DYN_CHANGE_STATUS_CONFLICT)
    {
      g_autofree char *key = item_text (dyn_commit_result_get_conflict_key (self, change), plain);
      g_autofree char *current = item_text (dyn_commit_result_get_current (self, change), plain);
      g_string_append_printf (line, ",\"key\":%s,\"current\":%s", key, current);
    }
  if (error != NULL)
    {
      g_autofree char *message = json_string_literal (error->message);
      g_string_append_printf (line, ",\"error\":%s", message);
    }
  g_string_append_c (line, '}');
  return g_string_free (line, FALSE);
}
