/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-commit-result"

#include "config.h"

#include "dyn-changes-private.h"

/* ------------------------------------------------------------------------ */
/* DynCommitResult */

G_DEFINE_BOXED_TYPE (DynCommitResult, dyn_commit_result, dyn_commit_result_ref, dyn_commit_result_unref)

const char *
dyn_change_status_to_string (DynChangeStatus status)
{
  static const char * const names[] = {
    "pending", "unchanged", "applied", "conflict", "not-applied", "failed"
  };

  g_return_val_if_fail (status <= DYN_CHANGE_STATUS_FAILED, NULL);
  return names[status];
}

void
_dyn_changes_sent_request_free (DynChangesSentRequest *r)
{
  g_free (r->operation);
  g_free (r->token);
  g_array_unref (r->changes);
  g_free (r);
}

DynCommitResult *
dyn_commit_result_ref (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_commit_result_unref (DynCommitResult *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->n_changes; i++)
    {
      g_clear_pointer (&self->outcomes[i].current, dyn_value_unref);
      g_clear_pointer (&self->outcomes[i].conflict_key, dyn_value_unref);
      g_clear_error (&self->outcomes[i].error);
    }
  g_free (self->outcomes);
  g_ptr_array_unref (self->requests);
  g_free (self);
}

guint
dyn_commit_result_get_n_changes (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_changes;
}

DynChangeStatus
dyn_commit_result_get_status (DynCommitResult *self,
                              guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, DYN_CHANGE_STATUS_FAILED);
  return self->outcomes[change].status;
}

DynValue *
dyn_commit_result_get_current (DynCommitResult *self,
                               guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, NULL);
  return self->outcomes[change].current;
}

DynValue *
dyn_commit_result_get_conflict_key (DynCommitResult *self,
                                    guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, NULL);
  return self->outcomes[change].conflict_key;
}

const GError *
dyn_commit_result_get_error (DynCommitResult *self,
                             guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, NULL);
  return self->outcomes[change].error;
}

int
dyn_commit_result_get_request (DynCommitResult *self,
                               guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, -1);
  return self->outcomes[change].request;
}

static guint
count_status (DynCommitResult *self,
              DynChangeStatus  a,
              DynChangeStatus  b)
{
  guint n = 0;

  for (guint i = 0; i < self->n_changes; i++)
    if (self->outcomes[i].status == a || self->outcomes[i].status == b)
      n++;
  return n;
}

guint
dyn_commit_result_get_n_conflicts (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return count_status (self, DYN_CHANGE_STATUS_CONFLICT, DYN_CHANGE_STATUS_CONFLICT);
}

guint
dyn_commit_result_get_n_applied (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return count_status (self, DYN_CHANGE_STATUS_APPLIED, DYN_CHANGE_STATUS_APPLIED);
}

guint
dyn_commit_result_get_n_failed (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return count_status (self, DYN_CHANGE_STATUS_FAILED, DYN_CHANGE_STATUS_NOT_APPLIED);
}

guint
dyn_commit_result_get_n_requests (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->requests->len;
}

const char *
dyn_commit_result_get_request_operation (DynCommitResult *self,
                                         guint            request)
{
  g_return_val_if_fail (self != NULL && request < self->requests->len, NULL);
  return ((DynChangesSentRequest *) self->requests->pdata[request])->operation;
}

const char *
dyn_commit_result_get_request_token (DynCommitResult *self,
                                     guint            request)
{
  g_return_val_if_fail (self != NULL && request < self->requests->len, NULL);
  return ((DynChangesSentRequest *) self->requests->pdata[request])->token;
}

guint
dyn_commit_result_get_n_sent (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_sent;
}

double
dyn_commit_result_get_write_units (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->write_units;
}

double
dyn_commit_result_get_read_units (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->read_units;
}

void
_dyn_changes_count_sent (DynCommitResult *self,
                         DynResponse     *response)
{
  if (response == NULL)
    {
      self->n_sent++;
      return;
    }
  self->n_sent += response->attempts;
  self->write_units += response->write_units;
  self->read_units += response->read_units;
}

JsonNode *
dyn_commit_result_to_json (DynCommitResult *self)
{
  g_autoptr(JsonBuilder) jb = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "changes");
  json_builder_begin_array (jb);
  for (guint i = 0; i < self->n_changes; i++)
    {
      DynChangesOutcome *o = &self->outcomes[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "change");
      json_builder_add_int_value (jb, i);
      json_builder_set_member_name (jb, "status");
      json_builder_add_string_value (jb, dyn_change_status_to_string (o->status));
      if (o->request >= 0)
        {
          json_builder_set_member_name (jb, "request");
          json_builder_add_int_value (jb, o->request);
        }
      if (o->status == DYN_CHANGE_STATUS_CONFLICT)
        {
          json_builder_set_member_name (jb, "key");
          if (o->conflict_key)
            json_builder_add_value (jb, dyn_item_to_ddb_json (o->conflict_key));
          else
            json_builder_add_null_value (jb);
          json_builder_set_member_name (jb, "current");
          if (o->current)
            json_builder_add_value (jb, dyn_item_to_ddb_json (o->current));
          else
            json_builder_add_null_value (jb);
        }
      if (o->error != NULL)
        {
          json_builder_set_member_name (jb, "error");
          json_builder_add_string_value (jb, o->error->message);
        }
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);

  json_builder_set_member_name (jb, "requests");
  json_builder_begin_array (jb);
  for (guint i = 0; i < self->requests->len; i++)
    {
      DynChangesSentRequest *r = self->requests->pdata[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "operation");
      json_builder_add_string_value (jb, r->operation);
      json_builder_set_member_name (jb, "token");
      if (r->token)
        json_builder_add_string_value (jb, r->token);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "changes");
      json_builder_begin_array (jb);
      for (guint j = 0; j < r->changes->len; j++)
        json_builder_add_int_value (jb, g_array_index (r->changes, guint, j));
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  return json_builder_get_root (jb);
}
