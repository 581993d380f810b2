/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-table-state"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-table-state.h"

DynTableState *
dyn_table_state_new (const char *connection_id,
                     const char *table)
{
  DynTableState *state;

  g_return_val_if_fail (table != NULL, NULL);

  state = g_new0 (DynTableState, 1);
  state->connection_id = g_strdup (connection_id);
  state->table = g_strdup (table);
  return state;
}

void
dyn_table_state_free (DynTableState *state)
{
  if (state == NULL)
    return;
  g_free (state->connection_id);
  g_free (state->table);
  g_clear_pointer (&state->description, json_object_unref);
  g_clear_pointer (&state->keys, dyn_table_keys_free);
  g_free (state->expression);
  g_free (state->index);
  g_clear_object (&state->read);
  g_clear_pointer (&state->request, dyn_request_free);
  g_clear_object (&state->pager);
  g_clear_object (&state->model);
  g_clear_object (&state->session);
  g_free (state);
}

char *
dyn_table_state_make_key (const char *connection_id,
                          const char *table)
{
  g_return_val_if_fail (table != NULL, NULL);

  /* A unit separator cannot be part of a connection id or a table name. */
  return g_strconcat (connection_id ? connection_id : "", "\x1f", table, NULL);
}

char *
dyn_describe_read_age (gint64 read_time,
                       gint64 now)
{
  gint64 seconds = MAX (now - read_time, 0) / G_USEC_PER_SEC;
  guint n;

  if (seconds < 60)
    return g_strdup (_("read just now"));
  if (seconds < 3600)
    {
      n = (guint) (seconds / 60);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "read %u min ago", "read %u min ago", n), n);
    }
  if (seconds < 86400)
    {
      n = (guint) (seconds / 3600);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "read %u h ago", "read %u h ago", n), n);
    }
  n = (guint) MIN (seconds / 86400, G_MAXUINT);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "read %u day ago", "read %u days ago", n), n);
}

char *
dyn_describe_staged_tables (const char * const *tables,
                            const guint        *counts,
                            guint               n)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  char *text;

  g_return_val_if_fail (n == 0 || (tables != NULL && counts != NULL), NULL);

  for (guint i = 0; i < n; i++)
    if (counts[i] > 0)
      g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u change in %s",
                                                            "%u changes in %s", counts[i]),
                                               counts[i], tables[i]));
  if (parts->len == 0)
    return g_strdup ("");
  text = g_strdup (parts->pdata[parts->len - 1]);
  if (parts->len >= 2)
    {
      char *joined;

      /* Translators: the last two of a list, "3 changes in Movies and 1 change in Shows". */
      joined = g_strdup_printf (_("%s and %s"), (char *) parts->pdata[parts->len - 2], text);
      g_free (text);
      text = joined;
      for (guint i = parts->len - 2; i > 0; i--)
        {
          /* Translators: the earlier members of a list, "2 changes in Books, …". */
          joined = g_strdup_printf (_("%s, %s"), (char *) parts->pdata[i - 1], text);
          g_free (text);
          text = joined;
        }
    }
  return text;
}
