/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DYN_ERROR (dyn_error_quark ())

/**
 * DynError:
 *
 * Errors of the DynamoDB service and of Dynoscope's own checks. Transport failures
 * (connection refused, timeouts, TLS) use %G_IO_ERROR instead.
 */
typedef enum {
  DYN_ERROR_FAILED,                 /* any other service error */
  DYN_ERROR_VALIDATION,             /* ValidationException, SerializationException */
  DYN_ERROR_CONDITIONAL_CHECK_FAILED,
  DYN_ERROR_TRANSACTION_CANCELED,
  DYN_ERROR_TRANSACTION_CONFLICT,
  DYN_ERROR_THROTTLED,              /* throttling after every retry */
  DYN_ERROR_NOT_FOUND,              /* ResourceNotFoundException */
  DYN_ERROR_IN_USE,                 /* ResourceInUseException */
  DYN_ERROR_ACCESS_DENIED,          /* AccessDeniedException, UnrecognizedClientException */
  DYN_ERROR_SIGNATURE,              /* InvalidSignature, IncompleteSignature, MissingAuthenticationToken */
  DYN_ERROR_EXPIRED_CREDENTIALS,    /* ExpiredToken*, RequestExpired */
  DYN_ERROR_CREDENTIALS,            /* no credentials could be found / loaded */
  DYN_ERROR_CONFIG,                 /* malformed config or credentials file */
  DYN_ERROR_PROTOCOL,               /* a response we cannot read: bad JSON, HTML, CRC mismatch */
  DYN_ERROR_SERVER,                 /* 5xx after every retry */
  DYN_ERROR_INVALID_VALUE,          /* a value DynamoDB cannot hold (number range, empty set …) */
  DYN_ERROR_INVALID_ARGUMENT,       /* a request we refuse to build */
  DYN_ERROR_EXPRESSION,             /* an expression that does not parse or breaks a rule */
  DYN_ERROR_READ_ONLY,              /* a write on a read-only connection */
} DynError;

GQuark       dyn_error_quark              (void);

typedef struct _DynErrorDetails DynErrorDetails;

/* Details that travel with a service error. They are attached to the GError by
 * dyn_error_set_details() and read back by dyn_error_get_details(); plain
 * GErrors have none. */
struct _DynErrorDetails {
  char  *aws_code;      /* "ConditionalCheckFailedException" (sanitised) */
  char  *message;       /* the service's message */
  char  *request_id;    /* x-amzn-RequestId */
  guint  http_status;
  char  *body;          /* the full error body as received (JSON text), or NULL */
};

void                   dyn_error_details_free (DynErrorDetails *details);
const DynErrorDetails *dyn_error_get_details  (const GError *error);
GError                *dyn_error_new_service  (DynError    code,
                                               const char *aws_code,
                                               const char *message,
                                               const char *request_id,
                                               guint       http_status,
                                               const char *body) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynErrorDetails, dyn_error_details_free)

G_END_DECLS
