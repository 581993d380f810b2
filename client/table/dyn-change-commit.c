/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-change-commit"

#include "config.h"

#include <string.h>

#include "dyn-changes-private.h"

/* ------------------------------------------------------------------------ */
/* Commit */

typedef struct
{
  DynClient          *client;
  const DynKeySchema *keys;     /* the source object's */
  DynChangesPlan     *plan;
  DynCommitResult *result;
  guint            next_request;
  guint            next_fetch;
} Commit;

static void
commit_free (Commit *c)
{
  g_clear_object (&c->client);
  g_clear_pointer (&c->plan, _dyn_changes_plan_free);
  g_clear_pointer (&c->result, dyn_commit_result_unref);
  g_free (c);
}

static void commit_next (GTask *task);

static void
mark_conflict (Commit           *c,
               DynChangesAction *a,
               DynValue         *current)
{
  DynChangesOutcome *o = &c->result->outcomes[a->change];

  /* A key change has two actions; the first failure is the one shown. */
  if (o->status == DYN_CHANGE_STATUS_CONFLICT)
    return;
  o->status = DYN_CHANGE_STATUS_CONFLICT;
  g_clear_error (&o->error);
  o->conflict_key = a->request->key ? dyn_value_ref (a->request->key)
                                    : _dyn_changes_key_of (c->keys, a->request->item);
  if (current != NULL)
    o->current = dyn_value_ref (current);
  else
    o->need_current = TRUE;
}

static void
get_item_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Commit *c = g_task_get_task_data (task);
  DynChangesOutcome *o = &c->result->outcomes[c->next_fetch];
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_execute_finish (DYN_CLIENT (source), res, &error);

  _dyn_changes_count_sent (c->result, response);
  if (response == NULL)
    o->error = g_steal_pointer (&error);
  else if (response->item != NULL)
    o->current = dyn_value_ref (response->item);
  o->need_current = FALSE;
  c->next_fetch++;
  commit_next (g_steal_pointer (&task));
}

static void
request_done (GTask                 *task,
              DynChangesRequestPlan *r,
              DynResponse           *response,
              GError                *error)
{
  Commit *c = g_task_get_task_data (task);
  g_autoptr(JsonArray) reasons = NULL;

  if (error == NULL)
    {
      for (guint j = 0; j < r->changes->len; j++)
        c->result->outcomes[g_array_index (r->changes, guint, j)].status = DYN_CHANGE_STATUS_APPLIED;
      return;
    }

  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED) && r->token == NULL)
    {
      g_autoptr(DynValue) current = dyn_error_get_item (error);
      mark_conflict (c, c->plan->actions->pdata[r->first_action], current);
      return;
    }

  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED))
    reasons = dyn_error_get_cancellation_reasons (error);

  if (reasons != NULL && json_array_get_length (reasons) == r->n_actions)
    {
      for (guint k = 0; k < r->n_actions; k++)
        {
          DynChangesAction *a = c->plan->actions->pdata[r->first_action + k];
          JsonObject *reason = json_array_get_object_element (reasons, k);
          const char *code = reason ? json_object_get_string_member_with_default (reason, "Code", "None") : "None";
          DynChangesOutcome *o = &c->result->outcomes[a->change];

          if (strcmp (code, "ConditionalCheckFailed") == 0)
            {
              JsonNode *item_node = json_object_get_member (reason, "Item");
              g_autoptr(DynValue) current = item_node ? dyn_item_from_ddb_json (item_node, NULL) : NULL;
              mark_conflict (c, a, current);
            }
          else if (strcmp (code, "None") != 0 && strcmp (code, "null") != 0)
            {
              if (o->status != DYN_CHANGE_STATUS_CONFLICT)
                {
                  const char *message = json_object_get_string_member_with_default (reason, "Message", "");
                  o->status = DYN_CHANGE_STATUS_FAILED;
                  g_clear_error (&o->error);
                  o->error = g_error_new (DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED, "%s%s%s",
                                          code, *message ? ": " : "", message);
                }
            }
        }
      for (guint j = 0; j < r->changes->len; j++)
        {
          DynChangesOutcome *o = &c->result->outcomes[g_array_index (r->changes, guint, j)];
          if (o->status == DYN_CHANGE_STATUS_PENDING)
            o->status = DYN_CHANGE_STATUS_NOT_APPLIED;
        }
      return;
    }

  for (guint j = 0; j < r->changes->len; j++)
    {
      DynChangesOutcome *o = &c->result->outcomes[g_array_index (r->changes, guint, j)];
      o->status = DYN_CHANGE_STATUS_FAILED;
      g_clear_error (&o->error);
      o->error = g_error_copy (error);
    }
}

static void
call_cb (GObject      *source,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Commit *c = g_task_get_task_data (task);
  DynChangesRequestPlan *r = c->plan->requests->pdata[c->next_request];
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  if (r->token == NULL)
    response = dyn_client_execute_finish (DYN_CLIENT (source), res, &error);
  else
    response = dyn_client_call_finish (DYN_CLIENT (source), res, &error);
  _dyn_changes_count_sent (c->result, response);
  request_done (task, r, response, error);
  c->next_request++;
  commit_next (g_steal_pointer (&task));
}

static void
commit_next (GTask *task)
{
  Commit *c = g_task_get_task_data (task);
  DynChangeSet *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (c->next_request < c->plan->requests->len && !g_cancellable_is_cancelled (cancellable))
    {
      DynChangesRequestPlan *r = c->plan->requests->pdata[c->next_request];

      if (r->token == NULL)
        {
          DynChangesAction *a = c->plan->actions->pdata[r->first_action];
          dyn_client_execute_async (c->client, a->request, cancellable, call_cb, task);
        }
      else
        {
          g_autoptr(JsonNode) params = _dyn_changes_request_params (c->plan, r);
          dyn_client_call_async (c->client, "TransactWriteItems", params, cancellable, call_cb, task);
        }
      return;
    }

  /* The server's current version of every conflicting item it did not send. */
  while (c->next_fetch < c->result->n_changes && !c->result->outcomes[c->next_fetch].need_current)
    c->next_fetch++;
  if (c->next_fetch < c->result->n_changes && !g_cancellable_is_cancelled (cancellable))
    {
      DynChangesOutcome *o = &c->result->outcomes[c->next_fetch];
      g_autoptr(DynRequest) get = dyn_request_new (DYN_OP_GET_ITEM, self->table);

      get->key = dyn_value_ref (o->conflict_key);
      get->consistent_read = TRUE;
      dyn_client_execute_async (c->client, get, cancellable, get_item_cb, task);
      return;
    }

  g_task_return_pointer (task, dyn_commit_result_ref (c->result),
                         (GDestroyNotify) dyn_commit_result_unref);
  g_object_unref (task);
}

void
dyn_change_set_commit_async (DynChangeSet        *self,
                             DynClient           *client,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Commit *c;

  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_return_if_fail (DYN_IS_CLIENT (client));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_change_set_commit_async);

  c = g_new0 (Commit, 1);
  c->client = g_object_ref (client);
  c->keys = &self->keys;
  g_task_set_task_data (task, c, (GDestroyNotify) commit_free);
  c->plan = _dyn_changes_build_plan (self, &error);
  if (c->plan == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  c->result = g_new0 (DynCommitResult, 1);
  g_atomic_ref_count_init (&c->result->ref_count);
  c->result->n_changes = c->plan->n_changes;
  c->result->outcomes = g_new0 (DynChangesOutcome, MAX (c->plan->n_changes, 1));
  c->result->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) _dyn_changes_sent_request_free);
  for (guint i = 0; i < c->plan->n_changes; i++)
    {
      c->result->outcomes[i].request = c->plan->changes[i].request;
      c->result->outcomes[i].status = c->plan->changes[i].n_actions == 0 ? DYN_CHANGE_STATUS_UNCHANGED
                                                                         : DYN_CHANGE_STATUS_PENDING;
    }
  for (guint i = 0; i < c->plan->requests->len; i++)
    {
      DynChangesRequestPlan *r = c->plan->requests->pdata[i];
      DynChangesSentRequest *s = g_new0 (DynChangesSentRequest, 1);

      s->operation = g_strdup (r->operation);
      s->token = g_strdup (r->token);
      s->changes = g_array_ref (r->changes);
      g_ptr_array_add (c->result->requests, s);
    }

  commit_next (g_steal_pointer (&task));
}

DynCommitResult *
dyn_change_set_commit_finish (DynChangeSet  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_change_set_commit_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
