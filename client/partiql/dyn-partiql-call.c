/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The PartiQL calls: ExecuteStatement (one page; the caller follows
 * NextToken with the identical statement text) and ExecuteTransaction.
 * A read-only client refuses ExecuteStatement for anything but SELECT and
 * every ExecuteTransaction (dyn-client.c).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyn-json.h"
#include "dyn-partiql.h"

void
dyn_partiql_page_free (DynPartiqlPage *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_free (self->next_token);
  g_free (self);
}

static JsonArray *
parameters_array (const DynValue *parameters)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < dyn_value_get_length (parameters); i++)
    json_array_add_element (array, dyn_value_to_ddb_json (dyn_value_list_get (parameters, i)));
  return array;
}

static gboolean
check_parameters (const DynValue  *parameters,
                  GError         **error)
{
  if (parameters == NULL || dyn_value_get_value_type (parameters) == DYN_VALUE_L)
    return TRUE;
  g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("The parameters of a PartiQL statement are a list of values."));
  return FALSE;
}

static DynPartiqlPage *
page_from_response (DynResponse *response)
{
  DynPartiqlPage *page = g_new0 (DynPartiqlPage, 1);
  JsonObject *root = response->root != NULL && JSON_NODE_HOLDS_OBJECT (response->root)
                     ? json_node_get_object (response->root) : NULL;

  page->items = response->items != NULL ? g_ptr_array_ref (response->items)
                                        : g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  if (root != NULL)
    page->next_token = g_strdup (json_object_get_string_member_with_default (root, "NextToken", NULL));
  page->read_units = response->read_units;
  page->write_units = response->write_units;
  return page;
}

static void
execute_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;

  response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, page_from_response (response), (GDestroyNotify) dyn_partiql_page_free);
}

void
dyn_partiql_execute_async (DynClient           *client,
                           const char          *statement,
                           const DynValue      *parameters,
                           const char          *next_token,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) obj = NULL;
  g_autoptr(JsonNode) params = NULL;
  GError *error = NULL;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (statement != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_partiql_execute_async);
  if (!check_parameters (parameters, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  obj = json_object_new ();
  json_object_set_string_member (obj, "Statement", statement);
  if (parameters != NULL && dyn_value_get_length (parameters) > 0)
    json_object_set_array_member (obj, "Parameters", parameters_array (parameters));
  if (next_token != NULL)
    json_object_set_string_member (obj, "NextToken", next_token);
  json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");
  params = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (params, obj);
  dyn_client_call_async (client, "ExecuteStatement", params, cancellable, execute_cb,
                         g_steal_pointer (&task));
}

DynPartiqlPage *
dyn_partiql_execute_finish (DynClient     *client,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_partiql_execute_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Transactions ------------------------------------------------------------ */

typedef struct {
  GPtrArray *statements;   /* char*, for naming them in errors */
} Transaction;

static void
transaction_free (Transaction *t)
{
  g_ptr_array_unref (t->statements);
  g_free (t);
}

static char *
shorten (const char *statement)
{
  g_autofree char *flat = g_strdup (statement);

  g_strdelimit (flat, "\n\r\t", ' ');
  g_strstrip (flat);
  if (g_utf8_strlen (flat, -1) > 60)
    {
      g_autofree char *head = g_utf8_substring (flat, 0, 59);
      return g_strconcat (head, "…", NULL);
    }
  return g_steal_pointer (&flat);
}

/* Names each statement the transaction was cancelled for, with its reason. */
static void
name_cancellation_reasons (GError    *error,
                           GPtrArray *statements)
{
  g_autoptr(JsonArray) reasons = dyn_error_get_cancellation_reasons (error);
  g_autoptr(GString) text = NULL;

  if (reasons == NULL)
    return;
  text = g_string_new (_("The transaction was cancelled:"));
  for (guint i = 0; i < json_array_get_length (reasons); i++)
    {
      JsonNode *node = json_array_get_element (reasons, i);
      JsonObject *reason;
      const char *code;
      const char *message;
      g_autofree char *statement = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      reason = json_node_get_object (node);
      code = json_object_get_string_member_with_default (reason, "Code", "None");
      if (strcmp (code, "None") == 0)
        continue;
      message = json_object_get_string_member_with_default (reason, "Message", NULL);
      statement = i < statements->len ? shorten (statements->pdata[i]) : g_strdup ("");
      g_string_append_c (text, ' ');
      g_string_append_printf (text,
                              /* Translators: %u is the statement's number (1-based), the
                               * first %s its text, the second the reason's code
                               * (ConditionalCheckFailed …), the last its message */
                              _("statement %u (%s): %s%s%s."), i + 1, statement, code,
                              message != NULL ? ": " : "", message != NULL ? message : "");
    }
  g_free (error->message);
  error->message = g_string_free (g_steal_pointer (&text), FALSE);
}

static void
transaction_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Transaction *t = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  DynPartiqlPage *page;
  JsonArray *responses;
  GError *error = NULL;

  response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  if (response == NULL)
    {
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED))
        name_cancellation_reasons (error, t->statements);
      g_task_return_error (task, error);
      return;
    }
  page = page_from_response (response);
  /* A read transaction answers one Item per statement. */
  responses = JSON_NODE_HOLDS_OBJECT (response->root)
              ? dyn_json_object_get_array (json_node_get_object (response->root), "Responses") : NULL;
  for (guint i = 0; responses != NULL && i < json_array_get_length (responses); i++)
    {
      JsonNode *node = json_array_get_element (responses, i);
      JsonNode *item;
      DynValue *value;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      item = json_object_get_member (json_node_get_object (node), "Item");
      if (item == NULL)
        continue;
      value = dyn_item_from_ddb_json (item, NULL);
      if (value != NULL)
        g_ptr_array_add (page->items, value);
    }
  g_task_return_pointer (task, page, (GDestroyNotify) dyn_partiql_page_free);
}

void
dyn_partiql_transaction_async (DynClient           *client,
                               GPtrArray           *statements,
                               GPtrArray           *parameters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) obj = NULL;
  g_autoptr(JsonNode) params = NULL;
  JsonArray *list;
  Transaction *t;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (statements != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_partiql_transaction_async);
  if (parameters != NULL && parameters->len != statements->len)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               _("A transaction needs one parameter list (or none) per statement."));
      return;
    }
  t = g_new0 (Transaction, 1);
  t->statements = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, t, (GDestroyNotify) transaction_free);

  list = json_array_new ();
  for (guint i = 0; i < statements->len; i++)
    {
      JsonObject *entry = json_object_new ();
      const DynValue *values = parameters != NULL ? parameters->pdata[i] : NULL;
      GError *error = NULL;

      if (!check_parameters (values, &error))
        {
          json_object_unref (entry);
          json_array_unref (list);
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (t->statements, g_strdup (statements->pdata[i]));
      json_object_set_string_member (entry, "Statement", statements->pdata[i]);
      if (values != NULL && dyn_value_get_length (values) > 0)
        json_object_set_array_member (entry, "Parameters", parameters_array (values));
      json_array_add_object_element (list, entry);
    }
  obj = json_object_new ();
  json_object_set_array_member (obj, "TransactStatements", list);
  json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");
  params = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (params, obj);
  dyn_client_call_async (client, "ExecuteTransaction", params, cancellable, transaction_cb,
                         g_steal_pointer (&task));
}

DynPartiqlPage *
dyn_partiql_transaction_finish (DynClient     *client,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_partiql_transaction_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
