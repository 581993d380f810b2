/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-json-plain"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-json-private.h"

/* Plain JSON → DynValue */

static DynValue *plain_value (DynJsonParser *P, int depth);

/* At '{'. With @tags, an object whose first key is a tag is a tagged form. */
static DynValue *
plain_object (DynJsonParser *P,
              int            depth,
              gboolean       tags)
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

  for (gboolean first = TRUE;; first = FALSE)
    {
      const char *name;
      gsize len;
      guint slot;
      DynValue *v;

      if (!_dyn_json_expect_string (P, &name, &len, N_("a member name")))
        return NULL;
      if (first && tags && _dyn_plain_is_tag (name, len))
        {
          char tag[8];
          const char *s;
          gsize slen;

          memcpy (tag, name, len);
          tag[len] = '\0';
          if (!_dyn_json_expect_char (P, ':', "':'"))
            return NULL;
          _dyn_json_skip_ws (P);
          if (strcmp (tag, "$number") == 0 || strcmp (tag, "$binary") == 0)
            {
              if (!_dyn_json_read_payload_string (P, tag, N_("a string"), &s, &slen))
                return NULL;
              v = tag[1] == 'n' ? _dyn_json_ddb_number (P, s, slen) : _dyn_json_ddb_binary (P, s, slen);
            }
          else if (strcmp (tag, "$map") == 0)
            {
              if (_dyn_json_peek (P) != '{')
                {
                  _dyn_json_fail_shape (P, tag, _("an object"));
                  return NULL;
                }
              v = plain_object (P, depth, FALSE);
            }
          else
            {
              guint i = 0;
              guint ebase = P->vtop;

              if (_dyn_json_peek (P) != '[')
                {
                  _dyn_json_fail_shape (P, tag, _("an array"));
                  return NULL;
                }
              P->p++;
              _dyn_json_skip_ws (P);
              if (_dyn_json_peek (P) == ']')
                P->p++;
              else
                for (;; i++)
                  {
                    DynValue *e = plain_value (P, depth + 1);

                    if (e == NULL)
                      {
                        _dyn_json_path_push (P, "[%u]", i);
                        return NULL;
                      }
                    _dyn_json_vpush (P, e);
                    if ((e->type != DYN_VALUE_S && e->type != DYN_VALUE_N && e->type != DYN_VALUE_B) ||
                        e->type != P->vstack[ebase]->type)
                      {
                        _dyn_json_fail (P, DYN_ERROR_INVALID_VALUE, "%s",
                                        /* Translators: $set and $binary are tags of the JSON form; keep them */
                                        _("$set elements must be all strings, all numbers or all $binary"));
                        _dyn_json_path_push (P, "[%u]", i);
                        return NULL;
                      }
                    DynJsonSeparator sep = _dyn_json_next_separator (P, ']');

                    if (sep == DYN_JSON_SEPARATOR_END)
                      break;
                    if (sep == DYN_JSON_SEPARATOR_NONE)
                      return NULL;
                  }
              v = _dyn_value_set_from_scalars (_dyn_json_values_from (P, ebase), P->vtop - ebase, &P->error);
              for (guint j = ebase; j < P->vtop; j++)
                dyn_value_unref (P->vstack[j]);
              P->vtop = ebase;
            }
          if (v == NULL)
            return NULL;
          _dyn_json_skip_ws (P);
          if (_dyn_json_peek (P) != '}')
            {
              dyn_value_unref (v);
              if (_dyn_json_peek (P) == ',')
                /* Translators: %s is a tag of the JSON form such as $set, %zu the offset in bytes */
                _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("an object starting with \"%s\" must have exactly one "
                                                         "member (at byte %zu)"), tag, _dyn_json_offset (P, P->p));
              else
                _dyn_json_fail_unexpected (P, P->p, "'}'");
              return NULL;
            }
          P->p++;
          return v;
        }

      if (!_dyn_json_check_name (P, name, len))
        return NULL;
      slot = P->ntop;
      _dyn_json_npush (P, name, len);
      if (!_dyn_json_expect_char (P, ':', "':'"))
        return NULL;
      v = plain_value (P, depth + 1);
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

static DynValue *
plain_value (DynJsonParser *P,
             int            depth)
{
  _dyn_json_skip_ws (P);
  switch (_dyn_json_peek (P))
    {
    case '{':
      return plain_object (P, depth, TRUE);
    case '[':
      {
        guint vbase = P->vtop;
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
          for (guint i = 0;; i++)
            {
              DynValue *v = plain_value (P, depth + 1);

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
    case '"':
      {
        const char *s;
        gsize len;

        if (!_dyn_json_read_string (P, &s, &len))
          return NULL;
        return _dyn_value_new_text (DYN_VALUE_S, s, len);
      }
    case 't':
      if (!_dyn_json_read_literal (P, "true", 4))
        return NULL;
      return dyn_value_new_bool (TRUE);
    case 'f':
      if (!_dyn_json_read_literal (P, "false", 5))
        return NULL;
      return dyn_value_new_bool (FALSE);
    case 'n':
      if (!_dyn_json_read_literal (P, "null", 4))
        return NULL;
      return dyn_value_new_null ();
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        const guchar *s;
        gsize len;
        gboolean is_integer;

        if (!_dyn_json_read_number (P, &s, &len, &is_integer))
          return NULL;
        return _dyn_json_ddb_number (P, (const char *) s, len);
      }
    default:
      _dyn_json_fail_unexpected (P, P->p, N_("a JSON value"));
      return NULL;
    }
}

DynValue *
dyn_json_decode_plain (const char  *json,
                       gsize        len,
                       GError     **error)
{
  DynJsonParser P;
  DynValue *v;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  _dyn_json_parser_init (&P, json, len);
  v = plain_value (&P, 0);
  if (!_dyn_json_parser_finish (&P, v != NULL, error))
    g_clear_pointer (&v, dyn_value_unref);
  return v;
}
