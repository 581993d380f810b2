/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * DynSigv4Credentials:
 * @access_key_id: the access key id
 * @secret_access_key: the secret access key
 * @session_token: (nullable): the session token of temporary credentials
 *
 * Credentials for one signature. All strings are borrowed for the duration of
 * the call; the signer never logs them.
 */
typedef struct {
  const char *access_key_id;
  const char *secret_access_key;
  const char *session_token;
} DynSigv4Credentials;

/**
 * DynSigv4Header:
 * @name: the header name as sent (any case)
 * @value: the raw header value; surrounding and repeated whitespace, including
 *   folded continuation lines, is normalised for signing
 */
typedef struct {
  const char *name;
  const char *value;
} DynSigv4Header;

/**
 * DynSigv4Request:
 * @method: the HTTP method, e.g. "POST"
 * @path: the path as it appears on the request line, without the query
 *   ("/" for DynamoDB); it is percent-encoded once more for signing
 * @query: (nullable): the raw query string without the leading '?'
 * @headers: the headers to sign; must contain Host. Authorization,
 *   X-Amz-Date and X-Amz-Security-Token are ignored (the signer supplies
 *   them), User-Agent, Expect and X-Amzn-Trace-Id are never signed
 * @n_headers: the number of @headers
 * @body: (nullable): the payload
 * @body_len: its length in bytes
 *
 * A request to sign. Everything is borrowed.
 */
typedef struct {
  const char           *method;
  const char           *path;
  const char           *query;
  const DynSigv4Header *headers;
  gsize                 n_headers;
  gconstpointer         body;
  gsize                 body_len;
} DynSigv4Request;

/**
 * DynSigv4Flags:
 * @DYN_SIGV4_FLAGS_NONE: defaults
 * @DYN_SIGV4_NORMALIZE_PATH: remove "." and ".." segments and empty segments
 *   from the path before encoding it (every service but S3)
 * @DYN_SIGV4_SIGN_BODY: add and sign an x-amz-content-sha256 header
 * @DYN_SIGV4_OMIT_SESSION_TOKEN: send X-Amz-Security-Token but leave it out of
 *   the signature (a few services want this; DynamoDB signs it)
 */
typedef enum {
  DYN_SIGV4_FLAGS_NONE         = 0,
  DYN_SIGV4_NORMALIZE_PATH     = 1 << 0,
  DYN_SIGV4_SIGN_BODY          = 1 << 1,
  DYN_SIGV4_OMIT_SESSION_TOKEN = 1 << 2,
} DynSigv4Flags;

/**
 * DynSigv4Signature:
 * @authorization: the value of the Authorization header
 * @amz_date: the value of the X-Amz-Date header, "20150830T123600Z"
 * @content_sha256: (nullable): the value of the x-amz-content-sha256 header
 *   with %DYN_SIGV4_SIGN_BODY, else %NULL
 * @canonical_request: the canonical request that was signed
 * @string_to_sign: the string to sign
 * @signature: the hex signature
 *
 * The result of dyn_sigv4_signer_sign(). The caller sends @authorization,
 * @amz_date, @content_sha256 (when set) and the session token (when there is
 * one) as headers.
 */
typedef struct {
  char *authorization;
  char *amz_date;
  char *content_sha256;
  char *canonical_request;
  char *string_to_sign;
  char *signature;
} DynSigv4Signature;

void               dyn_sigv4_signature_free      (DynSigv4Signature *signature);

/**
 * DynSigv4Signer:
 *
 * Signs requests with AWS Signature Version 4. It caches the derived signing
 * key per secret, day, region and service, so signing many requests costs
 * one HMAC for the key. A signer may be used from several threads.
 */
typedef struct _DynSigv4Signer DynSigv4Signer;

DynSigv4Signer    *dyn_sigv4_signer_new          (void) G_GNUC_WARN_UNUSED_RESULT;
void               dyn_sigv4_signer_free         (DynSigv4Signer *self);

/**
 * dyn_sigv4_signer_sign:
 * @self: a signer
 * @credentials: the credentials
 * @region: the region, e.g. "us-east-1"
 * @service: the signing name of the service, e.g. "dynamodb"
 * @unix_time: the signing time, seconds since the epoch (UTC)
 * @flags: flags
 * @request: the request
 *
 * Signs @request with header signing.
 *
 * Returns: (transfer full): the signature
 */
DynSigv4Signature *dyn_sigv4_signer_sign         (DynSigv4Signer            *self,
                                                  const DynSigv4Credentials *credentials,
                                                  const char                *region,
                                                  const char                *service,
                                                  gint64                     unix_time,
                                                  DynSigv4Flags              flags,
                                                  const DynSigv4Request     *request) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_sigv4_signer_dynamodb_headers:
 * @self: a signer
 * @credentials: the credentials
 * @region: the region
 * @host: the Host header value (lower case, with the port unless it is the
 *   scheme's default; see dyn_sigv4_host_from_url())
 * @target: the X-Amz-Target value, e.g. "DynamoDB_20120810.Query"
 * @body: the JSON body
 * @body_len: its length in bytes
 * @unix_time: the signing time, seconds since the epoch (UTC)
 *
 * Signs a DynamoDB request (POST /, service "dynamodb") as botocore does and
 * returns every header to send, as "Name: value" lines ready for a
 * curl_slist: Host, Content-Type (application/x-amz-json-1.0), X-Amz-Target,
 * X-Amz-Date, X-Amz-Security-Token (when there is a token) and Authorization.
 * Host is included so that the signed value is the one on the wire.
 *
 * Returns: (transfer full): a %NULL-terminated array of header lines
 */
char             **dyn_sigv4_signer_dynamodb_headers (DynSigv4Signer            *self,
                                                      const DynSigv4Credentials *credentials,
                                                      const char                *region,
                                                      const char                *host,
                                                      const char                *target,
                                                      gconstpointer              body,
                                                      gsize                      body_len,
                                                      gint64                     unix_time) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_sigv4_host_from_url:
 * @url: an endpoint URL, e.g. "http://localhost:8000"
 *
 * Derives the Host header value from an endpoint URL as botocore does: the
 * host in lower case, IPv6 literals in brackets, no user info, and the port
 * only when it is not the scheme's default (80 for http, 443 for https).
 *
 * Returns: (transfer full) (nullable): the host, or %NULL if @url is not an
 *   absolute URL with a host
 */
char              *dyn_sigv4_host_from_url       (const char *url) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_sigv4_format_amz_date:
 * @unix_time: seconds since the epoch (UTC)
 * @out: (out caller-allocates): room for 17 bytes
 *
 * Writes the X-Amz-Date form of @unix_time, "YYYYMMDDTHHMMSSZ", with its nul.
 */
void               dyn_sigv4_format_amz_date     (gint64 unix_time,
                                                  char   out[17]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSigv4Signer, dyn_sigv4_signer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSigv4Signature, dyn_sigv4_signature_free)

G_END_DECLS
