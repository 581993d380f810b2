/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-http.h"
#include "dyn-sso-private.h"

/* The portal's ListAccounts and ListAccountRoles, every page, with the cached token. */

#define MAX_PAGES 10000

typedef struct {
  DynSsoConfig *config;
  DynHttp      *http;
  DynSsoToken  *token;
  char         *account_id;    /* ListAccountRoles, else NULL */
  GPtrArray    *items;         /* DynSsoAccount, or role names */
  guint         pages;
} List;

static void
list_free (List *list)
{
  g_clear_pointer (&list->config, dyn_sso_config_free);
  g_clear_object (&list->http);
  g_clear_pointer (&list->token, dyn_sso_token_free);
  g_free (list->account_id);
  g_clear_pointer (&list->items, g_ptr_array_unref);
  g_free (list);
}

static void list_page (GTask *task, const char *next_token);

static void
list_page_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  List *list = g_task_get_task_data (task);
  const char *operation = list->account_id != NULL ? "ListAccountRoles" : "ListAccounts";
  g_autoptr(JsonNode) root = NULL;
  GError *error = NULL;
  JsonObject *object;
  JsonNode *node;
  const char *next;

  if ((root = _dyn_sso_call_finish (result, &error)) == NULL)
    {
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS))
        {
          g_clear_error (&error);
          error = _dyn_sso_expired_error (list->config);
        }
      _dyn_sso_scrub_error (error, list->token->access_token, NULL);
      g_task_return_error (task, error);
      return;
    }
  object = json_node_get_object (root);
  node = json_object_get_member (object, list->account_id != NULL ? "roleList" : "accountList");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonObject *element = json_array_get_object_element (array, i);

          if (list->account_id != NULL)
            g_ptr_array_add (list->items, g_strdup (_dyn_sso_string_member (element, "roleName")));
          else
            {
              DynSsoAccount *account = g_new0 (DynSsoAccount, 1);

              account->account_id = g_strdup (_dyn_sso_string_member (element, "accountId"));
              account->account_name = g_strdup (_dyn_sso_string_member (element, "accountName"));
              account->email_address = g_strdup (_dyn_sso_string_member (element, "emailAddress"));
              if (account->account_name == NULL)
                account->account_name = g_strdup (account->account_id);
              g_ptr_array_add (list->items, account);
            }
        }
    }

  next = _dyn_sso_string_member (object, "nextToken");
  if (next == NULL || *next == '\0')
    {
      if (list->account_id != NULL)
        g_ptr_array_add (list->items, NULL);
      g_task_return_pointer (task, g_steal_pointer (&list->items), (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  if (++list->pages >= MAX_PAGES)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL,
                               /* Translators: %s is an IAM Identity Center operation */
                               _("IAM Identity Center %s sends pages without end"), operation);
      return;
    }
  list_page (g_steal_pointer (&task), next);
}

static void
list_page (GTask      *task,
           const char *next_token)
{
  List *list = g_task_get_task_data (task);
  g_autoptr(GString) path = g_string_new (list->account_id != NULL ? "/assignment/roles" : "/assignment/accounts");
  char sep = '?';

  if (list->account_id != NULL)
    {
      g_autofree char *account = g_uri_escape_string (list->account_id, NULL, FALSE);

      g_string_append_printf (path, "%caccount_id=%s", sep, account);
      sep = '&';
    }
  if (next_token != NULL)
    {
      g_autofree char *next = g_uri_escape_string (next_token, NULL, FALSE);

      g_string_append_printf (path, "%cnext_token=%s", sep, next);
    }
  _dyn_sso_portal_call_async (list->http, list->config, list->account_id != NULL ? "ListAccountRoles" : "ListAccounts",
                     path->str, list->token->access_token, g_task_get_cancellable (task), list_page_cb, task);
}

static void
list_token_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  List *list = g_task_get_task_data (task);
  GError *error = NULL;

  if ((list->token = _dyn_sso_valid_token_finish (result, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  list_page (g_steal_pointer (&task), NULL);
}

static void
list_start (const DynSsoConfig  *config,
            const char          *account_id,
            gpointer             tag,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  List *list = g_new0 (List, 1);

  g_task_set_source_tag (task, tag);
  list->config = _dyn_sso_config_copy (config);
  list->http = dyn_http_new ();
  list->account_id = g_strdup (account_id);
  list->items = account_id != NULL ? g_ptr_array_new_with_free_func (g_free)
                                   : g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sso_account_free);
  g_task_set_task_data (task, list, (GDestroyNotify) list_free);
  /* Only the cached token (refreshed if need be): the picker never starts a sign-in itself. */
  _dyn_sso_valid_token_async (config, NULL, list->http, cancellable, list_token_cb, task);
}

void
dyn_sso_account_free (DynSsoAccount *account)
{
  if (account == NULL)
    return;
  g_free (account->account_id);
  g_free (account->account_name);
  g_free (account->email_address);
  g_free (account);
}

void
dyn_sso_list_accounts_async (const DynSsoConfig  *config,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (config != NULL && config->start_url != NULL && config->sso_region != NULL);

  list_start (config, NULL, dyn_sso_list_accounts_async, cancellable, callback, user_data);
}

GPtrArray *
dyn_sso_list_accounts_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_sso_list_accounts_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dyn_sso_list_account_roles_async (const DynSsoConfig  *config,
                                  const char          *account_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (config != NULL && config->start_url != NULL && config->sso_region != NULL);
  g_return_if_fail (account_id != NULL);

  list_start (config, account_id, dyn_sso_list_account_roles_async, cancellable, callback, user_data);
}

GStrv
dyn_sso_list_account_roles_finish (GAsyncResult  *result,
                                   GError       **error)
{
  GPtrArray *roles;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_sso_list_account_roles_async, NULL);

  if ((roles = g_task_propagate_pointer (G_TASK (result), error)) == NULL)
    return NULL;
  return (GStrv) g_ptr_array_free (roles, FALSE);
}

