/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-error"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"

typedef DynErrorDetails DynErrorPrivate;

static void
dyn_error_private_init (DynErrorDetails *details)
{
  memset (details, 0, sizeof *details);
}

static void
dyn_error_private_copy (const DynErrorDetails *src,
                        DynErrorDetails       *dest)
{
  dest->aws_code = g_strdup (src->aws_code);
  dest->message = g_strdup (src->message);
  dest->request_id = g_strdup (src->request_id);
  dest->http_status = src->http_status;
  dest->body = g_strdup (src->body);
}

static void
dyn_error_private_clear (DynErrorDetails *details)
{
  g_clear_pointer (&details->aws_code, g_free);
  g_clear_pointer (&details->message, g_free);
  g_clear_pointer (&details->request_id, g_free);
  g_clear_pointer (&details->body, g_free);
}

G_DEFINE_EXTENDED_ERROR (DynError, dyn_error)

void
dyn_error_details_free (DynErrorDetails *details)
{
  if (details == NULL)
    return;
  dyn_error_private_clear (details);
  g_free (details);
}

const DynErrorDetails *
dyn_error_get_details (const GError *error)
{
  if (error == NULL || error->domain != DYN_ERROR)
    return NULL;
  return dyn_error_get_private (error);
}

GError *
dyn_error_new_service (DynError    code,
                       const char *aws_code,
                       const char *message,
                       const char *request_id,
                       guint       http_status,
                       const char *body)
{
  GError *error;
  DynErrorDetails *details;

  if (aws_code != NULL && message != NULL && *message != '\0')
    error = g_error_new (DYN_ERROR, code, "%s: %s", aws_code, message);
  else if (aws_code != NULL)
    error = g_error_new (DYN_ERROR, code, "%s", aws_code);
  else
    error = g_error_new (DYN_ERROR, code, "%s", message ? message : _("DynamoDB error"));

  details = dyn_error_get_private (error);
  details->aws_code = g_strdup (aws_code);
  details->message = g_strdup (message);
  details->request_id = g_strdup (request_id);
  details->http_status = http_status;
  details->body = g_strdup (body);
  return error;
}
