/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-value"

/* The JSON forms of a value (declared in dyn-value.h): DynamoDB JSON and plain
 * JSON as JsonNode and as text, built on the decoder and writers of dyn-json.c.
 * Kept apart from dyn-value.c so that the value type does not depend on its
 * JSON forms, only the other way round. */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-value-private.h"

/* DynamoDB JSON */

DynValue *
dyn_value_from_ddb_json (JsonNode  *node,
                         GError   **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (node != NULL, NULL);

  /* DynamoDB JSON carries no JSON numbers, so the text form loses nothing. */
  text = json_to_string (node, FALSE);
  return dyn_json_decode_ddb_value (text, strlen (text), error);
}

DynValue *
dyn_item_from_ddb_json (JsonNode  *node,
                        GError   **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (node != NULL, NULL);

  text = json_to_string (node, FALSE);
  return dyn_json_decode_ddb_item (text, strlen (text), error);
}

static JsonNode *
parse_own_output (GString *s)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = dyn_json_parse (s->str, s->len, &error);

  /* Our own output always parses. */
  g_assert_no_error (error);
  return node;
}

JsonNode *
dyn_value_to_ddb_json (const DynValue *self)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);

  dyn_json_append_ddb_value (s, self);
  return parse_own_output (s);
}

JsonNode *
dyn_item_to_ddb_json (const DynValue *item)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (item != NULL && item->type == DYN_VALUE_M, NULL);

  dyn_json_append_ddb_item (s, item);
  return parse_own_output (s);
}

DynValue *
dyn_item_from_ddb_json_string (const char  *json,
                               gssize       len,
                               GError     **error)
{
  g_return_val_if_fail (json != NULL, NULL);
  return dyn_json_decode_ddb_item (json, len < 0 ? strlen (json) : (gsize) len, error);
}

char *
dyn_item_to_ddb_json_string (const DynValue *item)
{
  GString *s;

  g_return_val_if_fail (item != NULL && item->type == DYN_VALUE_M, NULL);

  s = g_string_sized_new (256);
  dyn_json_append_ddb_item (s, item);
  return g_string_free (s, FALSE);
}

char *
dyn_value_to_ddb_json_string (const DynValue *value)
{
  GString *s;

  g_return_val_if_fail (value != NULL, NULL);

  s = g_string_sized_new (64);
  dyn_json_append_ddb_value (s, value);
  return g_string_free (s, FALSE);
}

GPtrArray *
dyn_items_decode_ddb_json_array (const char  *json,
                                 gsize        len,
                                 GError     **error)
{
  g_return_val_if_fail (json != NULL, NULL);
  return dyn_json_decode_ddb_items (json, len, error);
}

/* Plain JSON */

static char *
double_to_text (double d)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* The shortest form that reads back as the same double. */
  for (int prec = 15; prec <= 17; prec++)
    {
      char fmt[8];
      g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
      g_ascii_formatd (buf, sizeof buf, fmt, d);
      if (g_ascii_strtod (buf, NULL) == d)
        break;
    }
  return g_strdup (buf);
}

static DynValue *from_plain_node (JsonNode *node, int depth, GString *path, GError **error);

static void
prefix_path_error (GError     **error,
                   const char  *path)
{
  if (path[0] == '.')
    path++;
  if (error != NULL && *error != NULL && path[0] != '\0')
    g_prefix_error (error, "%s: ", path);
}

static DynValue *
plain_tagged (const char  *tag,
              JsonNode    *inner,
              int          depth,
              GString     *path,
              GError     **error)
{
  if (strcmp (tag, "$number") == 0)
    {
      if (!JSON_NODE_HOLDS_VALUE (inner) || json_node_get_value_type (inner) != G_TYPE_STRING)
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                               /* Translators: $number is a tag of the JSON form; keep it */
                               _("$number must be a string"));
          return NULL;
        }
      return dyn_value_new_number (json_node_get_string (inner), error);
    }
  if (strcmp (tag, "$binary") == 0)
    {
      const char *b64;
      GBytes *bytes;
      DynValue *v;

      if (!JSON_NODE_HOLDS_VALUE (inner) || json_node_get_value_type (inner) != G_TYPE_STRING)
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                               /* Translators: $binary is a tag of the JSON form; keep it */
                               _("$binary must be a base64 string"));
          return NULL;
        }
      b64 = json_node_get_string (inner);
      bytes = _dyn_base64_decode (b64, strlen (b64), error);
      if (bytes == NULL)
        return NULL;
      v = dyn_value_new_binary (bytes);
      g_bytes_unref (bytes);
      return v;
    }
  if (strcmp (tag, "$map") == 0)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      g_autoptr(DynValue) map = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (inner))
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                               /* Translators: $map is a tag of the JSON form; keep it */
                               _("$map must be an object"));
          return NULL;
        }
      map = dyn_value_new_map ();
      json_object_iter_init_ordered (&iter, json_node_get_object (inner));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          gsize old = path->len;
          DynValue *v;

          g_string_append_printf (path, ".%s", name);
          v = from_plain_node (member, depth + 1, path, error);
          if (v == NULL)
            return NULL;     /* the path stays, for the message */
          g_string_truncate (path, old);
          dyn_value_map_take (map, name, v);
        }
      return g_steal_pointer (&map);
    }
  if (strcmp (tag, "$set") == 0)
    {
      JsonArray *array;
      guint n;
      g_autoptr(GPtrArray) elems = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      DynValueType elem_type = DYN_VALUE_NULL;

      if (!JSON_NODE_HOLDS_ARRAY (inner))
        {
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                               /* Translators: $set is a tag of the JSON form; keep it */
                               _("$set must be an array"));
          return NULL;
        }
      array = json_node_get_array (inner);
      n = json_array_get_length (array);
      for (guint i = 0; i < n; i++)
        {
          gsize old = path->len;
          DynValue *v;

          g_string_append_printf (path, "[%u]", i);
          v = from_plain_node (json_array_get_element (array, i), depth + 1, path, error);
          if (v == NULL)
            return NULL;     /* the path stays, for the message */
          g_string_truncate (path, old);
          if (i == 0)
            elem_type = v->type;
          g_ptr_array_add (elems, v);
          if ((v->type != DYN_VALUE_S && v->type != DYN_VALUE_N && v->type != DYN_VALUE_B) ||
              v->type != elem_type)
            {
              g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                   /* Translators: $set and $binary are tags of the JSON form; keep them */
                                   _("$set elements must be all strings, all numbers or all $binary"));
              return NULL;
            }
        }
      return _dyn_value_set_from_scalars ((DynValue **) elems->pdata, elems->len, error);
    }

  /* Translators: %s is a tag of the JSON form such as $set */
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("unknown tag %s"), tag);
  return NULL;
}

static DynValue *
from_plain_node (JsonNode  *node,
                 int        depth,
                 GString   *path,
                 GError   **error)
{
  if (depth > DYN_VALUE_MAX_DEPTH)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level",
                                "value nested deeper than %d levels", DYN_VALUE_MAX_DEPTH),
                   DYN_VALUE_MAX_DEPTH);
      return NULL;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_NULL:
      return dyn_value_new_null ();
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return dyn_value_new_string (json_node_get_string (node));
        case G_TYPE_BOOLEAN:
          return dyn_value_new_bool (json_node_get_boolean (node));
        case G_TYPE_INT64:
          {
            g_autofree char *t = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
            return dyn_value_new_number (t, error);
          }
        case G_TYPE_DOUBLE:
          {
            g_autofree char *t = double_to_text (json_node_get_double (node));
            return dyn_value_new_number (t, error);
          }
        default:
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("unsupported JSON value"));
          return NULL;
        }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);
        g_autoptr(DynValue) list = dyn_value_new_list ();

        for (guint i = 0; i < n; i++)
          {
            gsize old = path->len;
            DynValue *v;

            g_string_append_printf (path, "[%u]", i);
            v = from_plain_node (json_array_get_element (array, i), depth + 1, path, error);
            if (v == NULL)
              return NULL;
            g_string_truncate (path, old);
            dyn_value_list_take (list, v);
          }
        return g_steal_pointer (&list);
      }
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        g_autoptr(DynValue) map = dyn_value_new_map ();
        gboolean first = TRUE;

        json_object_iter_init_ordered (&iter, object);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            gsize old = path->len;
            DynValue *v;

            if (first && _dyn_plain_is_tag (name, strlen (name)))
              {
                if (json_object_get_size (object) != 1)
                  {
                    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                 /* Translators: %s is a tag of the JSON form such as $set */
                                 _("an object starting with %s must have exactly one member"), name);
                    return NULL;
                  }
                return plain_tagged (name, member, depth, path, error);
              }
            first = FALSE;
            g_string_append_printf (path, ".%s", name);
            v = from_plain_node (member, depth + 1, path, error);
            if (v == NULL)
              return NULL;
            g_string_truncate (path, old);
            dyn_value_map_take (map, name, v);
          }
        return g_steal_pointer (&map);
      }
    default:
      g_assert_not_reached ();
    }
}

DynValue *
dyn_value_from_plain_json (JsonNode  *node,
                           GError   **error)
{
  g_autoptr(GString) path = g_string_new (NULL);
  DynValue *v;

  g_return_val_if_fail (node != NULL, NULL);

  v = from_plain_node (node, 0, path, error);
  if (v == NULL)
    prefix_path_error (error, path->str);
  return v;
}

char *
dyn_value_to_plain_json_string (const DynValue *value)
{
  GString *s;

  g_return_val_if_fail (value != NULL, NULL);

  s = g_string_sized_new (64);
  dyn_json_append_plain_value (s, value);
  return g_string_free (s, FALSE);
}

DynValue *
dyn_item_from_plain_json_string (const char  *json,
                                 gssize       len,
                                 GError     **error)
{
  g_autoptr(DynValue) v = NULL;

  g_return_val_if_fail (json != NULL, NULL);

  v = dyn_json_decode_plain (json, len < 0 ? strlen (json) : (gsize) len, error);
  if (v == NULL)
    return NULL;
  if (v->type != DYN_VALUE_M)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is a DynamoDB type such as S, N or L */
                   _("an item must be a JSON object, not %s"), dyn_value_type_to_string (v->type));
      return NULL;
    }
  return g_steal_pointer (&v);
}

