/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-json-ddb"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-json-private.h"

/* DynamoDB JSON */

static DynValue *ddb_value (DynJsonParser *P, int depth);

/* At '{' of an item or of the object under "M". */
static DynValue *
ddb_map (DynJsonParser *P,
         int            depth)
{
  guint nbase = P->ntop, vbase = P->vtop;

  if (depth > DYN_VALUE_MAX_DEPTH)
    {
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL,
                      g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level",
                                   "value nested deeper than %d levels", DYN_VALUE_MAX_DEPTH),
                      DYN_VALUE_MAX_DEPTH);
      return NULL;
    }

  P->p++;
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) == '}')
    {
      P->p++;
      return _dyn_json_build_map (P, nbase, vbase);
    }

  for (;;)
    {
      const char *name;
      gsize len;
      guint slot;
      DynValue *v;

      if (!_dyn_json_expect_string (P, &name, &len, N_("an attribute name")))
        return NULL;
      if (!_dyn_json_check_name (P, name, len))
        return NULL;
      slot = P->ntop;
      _dyn_json_npush (P, name, len);
      if (!_dyn_json_expect_char (P, ':', "':'"))
        return NULL;
      v = ddb_value (P, depth);
      if (v == NULL)
        {
          const DynNameRef *r = &P->nstack[slot];
          _dyn_json_path_push_name (P, P->names + r->off, r->len);
          return NULL;
        }
      _dyn_json_vpush (P, v);
      DynJsonSeparator sep = _dyn_json_next_separator (P, '}');

      if (sep == DYN_JSON_SEPARATOR_END)
        break;
      if (sep == DYN_JSON_SEPARATOR_NONE)
        return NULL;
    }
  return _dyn_json_build_map (P, nbase, vbase);
}

static gboolean
ddb_type_from_key (const char   *k,
                   gsize         len,
                   DynValueType *type)
{
  switch (len)
    {
    case 1:
      switch (k[0])
        {
        case 'S': *type = DYN_VALUE_S; return TRUE;
        case 'N': *type = DYN_VALUE_N; return TRUE;
        case 'B': *type = DYN_VALUE_B; return TRUE;
        case 'M': *type = DYN_VALUE_M; return TRUE;
        case 'L': *type = DYN_VALUE_L; return TRUE;
        default: return FALSE;
        }
    case 2:
      if (k[1] != 'S')
        return FALSE;
      switch (k[0])
        {
        case 'S': *type = DYN_VALUE_SS; return TRUE;
        case 'N': *type = DYN_VALUE_NS; return TRUE;
        case 'B': *type = DYN_VALUE_BS; return TRUE;
        default: return FALSE;
        }
    case 4:
      if (memcmp (k, "BOOL", 4) == 0)
        {
          *type = DYN_VALUE_BOOL;
          return TRUE;
        }
      if (memcmp (k, "NULL", 4) == 0)
        {
          *type = DYN_VALUE_NULL;
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static DynValue *
ddb_set (DynJsonParser *P,
         DynValueType   type)
{
  const char *tname = dyn_value_type_to_string (type);
  guint nbase = P->ntop;
  g_autoptr(GPtrArray) bytes = NULL;
  DynValue *set = NULL;
  guint i = 0;

  P->p++;
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) == ']')
    {
      P->p++;
      _dyn_json_fail (P, DYN_ERROR_INVALID_VALUE, _("%s set must not be empty"), tname);
      return NULL;
    }
  if (type == DYN_VALUE_BS)
    bytes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (;; i++)
    {
      const char *s;
      gsize len;

      _dyn_json_skip_ws (P);
      if (_dyn_json_peek (P) != '"')
        {
          /* Translators: %s is a set type: SS, NS or BS */
          g_autofree char *what = g_strdup_printf (_("%s element"), tname);
          _dyn_json_fail_shape (P, what, _("a string"));
          _dyn_json_path_push (P, "[%u]", i);
          goto out;
        }
      if (!_dyn_json_read_string (P, &s, &len))
        goto out;
      if (type == DYN_VALUE_NS)
        {
          DynNumberParts parts;
          DynNumberStatus status = _dyn_number_parse (s, len, &parts);
          if (status != DYN_NUMBER_OK)
            {
              GError *e = NULL;
              _dyn_number_set_error (&e, status, s, len);
              P->error = e;
              _dyn_json_path_push (P, "[%u]", i);
              goto out;
            }
        }
      if (type == DYN_VALUE_BS)
        {
          GError *e = NULL;
          GBytes *b = _dyn_base64_decode (s, len, &e);
          if (b == NULL)
            {
              P->error = e;
              _dyn_json_path_push (P, "[%u]", i);
              goto out;
            }
          g_ptr_array_add (bytes, b);
        }
      else
        _dyn_json_npush (P, s, len);

      DynJsonSeparator sep = _dyn_json_next_separator (P, ']');

      if (sep == DYN_JSON_SEPARATOR_END)
        break;
      if (sep == DYN_JSON_SEPARATOR_NONE)
        goto out;
    }

  if (type == DYN_VALUE_BS)
    {
      guint n = bytes->len;
      GBytes **v = (GBytes **) g_ptr_array_steal (bytes, NULL);
      set = _dyn_value_new_bytes_set (v, n, &P->error);
      g_free (v);
    }
  else
    {
      guint n = P->ntop - nbase;
      const char *strv_small[16];
      gsize lens_small[16];
      g_autofree const char **strv_big = NULL;
      g_autofree gsize *lens_big = NULL;
      const char **strv = strv_small;
      gsize *lens = lens_small;

      if (n > G_N_ELEMENTS (strv_small))
        {
          strv = strv_big = g_new (const char *, n);
          lens = lens_big = g_new (gsize, n);
        }
      for (guint j = 0; j < n; j++)
        {
          strv[j] = P->names + P->nstack[nbase + j].off;
          lens[j] = P->nstack[nbase + j].len;
        }
      set = _dyn_value_new_text_set (type, strv, lens, n, &P->error);
    }

out:
  _dyn_json_npop_to (P, nbase);
  return set;
}

static DynValue *
ddb_list (DynJsonParser *P,
          int            depth)
{
  guint vbase = P->vtop;
  guint i = 0;
  DynValue *list;

  if (depth > DYN_VALUE_MAX_DEPTH)
    {
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL,
                      g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level",
                                   "value nested deeper than %d levels", DYN_VALUE_MAX_DEPTH),
                      DYN_VALUE_MAX_DEPTH);
      return NULL;
    }

  P->p++;
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) == ']')
    P->p++;
  else
    for (;; i++)
      {
        DynValue *v = ddb_value (P, depth);

        if (v == NULL)
          {
            _dyn_json_path_push (P, "[%u]", i);
            return NULL;
          }
        _dyn_json_vpush (P, v);
        DynJsonSeparator sep = _dyn_json_next_separator (P, ']');

        if (sep == DYN_JSON_SEPARATOR_END)
          break;
        if (sep == DYN_JSON_SEPARATOR_NONE)
          return NULL;
      }

  list = _dyn_value_new_list_from (_dyn_json_values_from (P, vbase), P->vtop - vbase);
  P->vtop = vbase;
  return list;
}

/* One attribute value object: {"TYPE": payload}. */
static DynValue *
ddb_value (DynJsonParser *P,
           int            depth)
{
  const char *key;
  gsize key_len;
  DynValueType type;
  DynValue *v = NULL;
  const char *s;
  gsize len;

  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) != '{')
    {
      if (P->p >= P->end)
        _dyn_json_fail_unexpected (P, P->p, NULL);
      else
        /* Translators: %s is what the value is instead (“a string”, “an array” …), %zu the offset in bytes */
        _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("attribute value must be an object like {\"S\": …}, not %s "
                                                 "(at byte %zu)"), _dyn_json_kind_at (P), _dyn_json_offset (P, P->p));
      return NULL;
    }
  P->p++;
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) == '}')
    {
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("attribute value has no type key (at byte %zu)"),
                      _dyn_json_offset (P, P->p));
      return NULL;
    }
  if (!_dyn_json_expect_string (P, &key, &key_len, N_("a type key")))
    return NULL;
  if (!ddb_type_from_key (key, key_len, &type))
    {
      g_autofree char *k = g_strndup (key, MIN (key_len, 40));
      g_autofree char *esc = g_strescape (k, NULL);
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unknown type key \"%s\" (at byte %zu)"),
                      esc, _dyn_json_offset (P, P->p));
      return NULL;
    }
  if (!_dyn_json_expect_char (P, ':', "':'"))
    return NULL;
  _dyn_json_skip_ws (P);

  switch (type)
    {
    case DYN_VALUE_S:
      if (!_dyn_json_read_payload_string (P, "S", N_("a string"), &s, &len))
        return NULL;
      v = _dyn_value_new_text (DYN_VALUE_S, s, len);
      break;
    case DYN_VALUE_N:
      if (!_dyn_json_read_payload_string (P, "N", N_("a string"), &s, &len))
        return NULL;
      v = _dyn_json_ddb_number (P, s, len);
      break;
    case DYN_VALUE_B:
      if (!_dyn_json_read_payload_string (P, "B", N_("a base64 string"), &s, &len))
        return NULL;
      v = _dyn_json_ddb_binary (P, s, len);
      break;
    case DYN_VALUE_BOOL:
      if (_dyn_json_peek (P) == 't' && _dyn_json_read_literal (P, "true", 4))
        v = dyn_value_new_bool (TRUE);
      else if (_dyn_json_peek (P) == 'f' && _dyn_json_read_literal (P, "false", 5))
        v = dyn_value_new_bool (FALSE);
      else
        {
          g_clear_error (&P->error);
          /* Translators: true and false are JSON literals; keep them */
          _dyn_json_fail_shape (P, "BOOL", _("true or false"));
        }
      break;
    case DYN_VALUE_NULL:
      if (_dyn_json_peek (P) == 't' && _dyn_json_read_literal (P, "true", 4))
        v = dyn_value_new_null ();
      else
        {
          g_clear_error (&P->error);
          _dyn_json_fail_shape (P, "NULL", "true");
        }
      break;
    case DYN_VALUE_M:
      if (_dyn_json_peek (P) != '{')
        {
          _dyn_json_fail_shape (P, "M", _("an object"));
          return NULL;
        }
      v = ddb_map (P, depth + 1);
      break;
    case DYN_VALUE_L:
      if (_dyn_json_peek (P) != '[')
        {
          _dyn_json_fail_shape (P, "L", _("an array"));
          return NULL;
        }
      v = ddb_list (P, depth + 1);
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      if (_dyn_json_peek (P) != '[')
        {
          _dyn_json_fail_shape (P, dyn_value_type_to_string (type), _("an array of strings"));
          return NULL;
        }
      v = ddb_set (P, type);
      break;
    default:
      g_assert_not_reached ();
    }

  if (v == NULL)
    return NULL;

  _dyn_json_skip_ws (P);
  if (G_LIKELY (_dyn_json_peek (P) == '}'))
    {
      P->p++;
      return v;
    }
  dyn_value_unref (v);
  if (_dyn_json_peek (P) == ',')
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("attribute value has more than one type key (at byte %zu)"),
                    _dyn_json_offset (P, P->p));
  else
    _dyn_json_fail_unexpected (P, P->p, "'}'");
  return NULL;
}

static DynValue *
ddb_item (DynJsonParser *P)
{
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) != '{')
    {
      if (P->p >= P->end)
        _dyn_json_fail_unexpected (P, P->p, NULL);
      else
        /* Translators: %s is what the item is instead (“a string”, “an array” …), %zu the offset in bytes */
        _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("item must be an object, not %s (at byte %zu)"),
                        _dyn_json_kind_at (P), _dyn_json_offset (P, P->p));
      return NULL;
    }
  return ddb_map (P, 0);
}

/* At '[' of an array of items. */
static GPtrArray *
ddb_items (DynJsonParser *P)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) != '[')
    {
      _dyn_json_fail_shape (P, "Items", _("an array"));
      return NULL;
    }
  P->p++;
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) == ']')
    {
      P->p++;
      return g_steal_pointer (&items);
    }
  for (guint i = 0;; i++)
    {
      DynValue *item = ddb_item (P);

      if (item == NULL)
        {
          _dyn_json_path_push (P, "[%u]", i);
          return NULL;
        }
      g_ptr_array_add (items, item);
      DynJsonSeparator sep = _dyn_json_next_separator (P, ']');

      if (sep == DYN_JSON_SEPARATOR_END)
        break;
      if (sep == DYN_JSON_SEPARATOR_NONE)
        return NULL;
    }
  return g_steal_pointer (&items);
}

DynValue *
dyn_json_decode_ddb_value (const char  *json,
                           gsize        len,
                           GError     **error)
{
  DynJsonParser P;
  DynValue *v;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  _dyn_json_parser_init (&P, json, len);
  /* A value on its own: its M or L is the outermost level, as in
   * dyn_json_decode_plain() (inside an item, one level down), so that every
   * value either decoder gives is written as text this one reads back. */
  v = ddb_value (&P, -1);
  if (!_dyn_json_parser_finish (&P, v != NULL, error))
    g_clear_pointer (&v, dyn_value_unref);
  return v;
}

DynValue *
dyn_json_decode_ddb_item (const char  *json,
                          gsize        len,
                          GError     **error)
{
  DynJsonParser P;
  DynValue *v;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  _dyn_json_parser_init (&P, json, len);
  v = ddb_item (&P);
  if (!_dyn_json_parser_finish (&P, v != NULL, error))
    g_clear_pointer (&v, dyn_value_unref);
  return v;
}

GPtrArray *
dyn_json_decode_ddb_items (const char  *json,
                           gsize        len,
                           GError     **error)
{
  DynJsonParser P;
  GPtrArray *items;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  _dyn_json_parser_init (&P, json, len);
  items = ddb_items (&P);
  if (!_dyn_json_parser_finish (&P, items != NULL, error))
    g_clear_pointer (&items, g_ptr_array_unref);
  return items;
}

JsonNode *
dyn_json_parse_response (const char  *json,
                         gsize        len,
                         GPtrArray  **items_out,
                         GError     **error)
{
  DynJsonParser P;
  JsonObject *object;
  JsonNode *node;
  g_autoptr(GPtrArray) items = NULL;
  const char *root = "";

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  if (items_out != NULL)
    *items_out = NULL;

  _dyn_json_parser_init (&P, json, len);
  object = json_object_new ();
  node = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);

  _dyn_json_skip_ws (&P);
  if (_dyn_json_peek (&P) != '{')
    {
      if (P.p >= P.end)
        _dyn_json_fail_unexpected (&P, P.p, NULL);
      else
        /* Translators: %s is what the response is instead (“a string”, “an array” …) */
        _dyn_json_fail (&P, DYN_ERROR_PROTOCOL, _("response must be a JSON object, not %s"), _dyn_json_kind_at (&P));
      goto error;
    }
  P.p++;
  _dyn_json_skip_ws (&P);
  if (_dyn_json_peek (&P) == '}')
    P.p++;
  else
    for (;;)
      {
        const char *name;
        gsize name_len;

        if (!_dyn_json_expect_string (&P, &name, &name_len, N_("a member name")))
          goto error;
        if (name_len == 5 && memcmp (name, "Items", 5) == 0)
          {
            if (items != NULL)
              {
                _dyn_json_fail (&P, DYN_ERROR_PROTOCOL, "%s", _("duplicate \"Items\" member"));
                goto error;
              }
            if (!_dyn_json_expect_char (&P, ':', "':'"))
              goto error;
            items = ddb_items (&P);
            if (items == NULL)
              {
                root = "Items";
                goto error;
              }
          }
        else
          {
            g_autofree char *key = g_strndup (name, name_len);
            JsonNode *member;

            if (!_dyn_json_expect_char (&P, ':', "':'"))
              goto error;
            member = _dyn_json_generic_value (&P, 1);
            if (member == NULL)
              {
                _dyn_json_path_push_name (&P, key, strlen (key));
                goto error;
              }
            json_object_set_member (object, key, member);
          }
        _dyn_json_skip_ws (&P);
        if (_dyn_json_peek (&P) == ',')
          {
            P.p++;
            continue;
          }
        if (_dyn_json_peek (&P) == '}')
          {
            P.p++;
            break;
          }
        /* Translators: what the JSON parser expected; keep the characters in quotes */
        _dyn_json_fail_unexpected (&P, P.p, N_("',' or '}'"));
        goto error;
      }

  if (!_dyn_json_expect_end (&P))
    goto error;

  _dyn_json_parser_clear (&P);
  if (items_out != NULL)
    *items_out = g_steal_pointer (&items);
  return node;

error:
  _dyn_json_parser_take_error (&P, root, error);
  _dyn_json_parser_clear (&P);
  json_node_unref (node);
  return NULL;
}
