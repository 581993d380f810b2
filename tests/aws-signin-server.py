#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A loopback AWS sign-in test server: STS, IAM Identity Center (OIDC and
the portal), the ECS container endpoint and IMDSv2, in one process.

Run:  /usr/bin/python3 tests/aws-signin-server.py --scenario FILE [--log FILE] [--port N]

It binds 127.0.0.1 (port 0 = a free one), prints the port alone on the first
line of stdout (flushed) and serves until killed. Every answer is shaped as
the real service's (the documented wire formats); signed requests are
checked with botocore's SigV4 implementation against the secret the server
knows for the access key.

WIRE FORMATS SPOKEN
  STS (Query API, XML answers, namespace https://sts.amazonaws.com/doc/2011-06-15/)
    POST /  Content-Type application/x-www-form-urlencoded, Version=2011-06-15
      Action=AssumeRole                 signed; RoleArn, RoleSessionName, ExternalId,
                                        SerialNumber, TokenCode, DurationSeconds, Policy…
      Action=AssumeRoleWithWebIdentity  unsigned; RoleArn, RoleSessionName,
                                        WebIdentityToken, DurationSeconds
      Action=GetCallerIdentity          signed
    Errors: <ErrorResponse><Error><Type>Sender</Type><Code>…</Code><Message>…</Message>
            </Error><RequestId>…</RequestId></ErrorResponse>
      SignatureDoesNotMatch 403, InvalidClientTokenId 403 (unknown key or a
      session token that does not belong to it), ExpiredToken 400 (credentials
      marked expired), AccessDenied 403 (unknown role, wrong ExternalId, MFA
      missing or wrong, unknown web identity token), ValidationError 400
      (DurationSeconds out of 900..max, RoleSessionName pattern, chained > 1 h),
      MissingAuthenticationToken 403 (a signed action without Authorization),
      InvalidAction 400.
  IAM Identity Center OIDC (JSON)
    POST /client/register       {clientName, clientType:"public", scopes}
                                → {clientId, clientSecret, clientIdIssuedAt, clientSecretExpiresAt}
    POST /device_authorization  {clientId, clientSecret, startUrl}
                                → {deviceCode, userCode, verificationUri,
                                   verificationUriComplete, expiresIn, interval}
    POST /token                 {clientId, clientSecret, grantType, deviceCode | refreshToken}
                                → {accessToken, tokenType:"Bearer", expiresIn, refreshToken}
    Errors: status 400 (invalid_client 401) with header x-amzn-ErrorType
      (AuthorizationPendingException, SlowDownException, ExpiredTokenException,
      InvalidGrantException, InvalidClientException, InvalidRequestException,
      UnsupportedGrantTypeException) and body {"error": "authorization_pending" |
      "slow_down" | "expired_token" | "invalid_grant" | "invalid_client" |
      "invalid_request" | "unsupported_grant_type", "error_description": …}.
  IAM Identity Center portal (JSON, header x-amz-sso_bearer_token: ACCESS TOKEN)
    GET  /federation/credentials?role_name=&account_id=
         → {"roleCredentials": {accessKeyId, secretAccessKey, sessionToken,
            expiration (ms since the epoch)}}
    GET  /assignment/accounts?next_token=&max_result=      (ListAccounts; the real path,
                                                            /assignment/user is accepted too)
         → {"accountList": [{accountId, accountName, emailAddress}], "nextToken"}
    GET  /assignment/roles?account_id=&next_token=&max_result=   (ListAccountRoles)
         → {"roleList": [{roleName, accountId}], "nextToken"}
    POST /logout  → 200, the token stops working
    Errors: 401 UnauthorizedException {"message": "Session token not found or
      invalid"} for an unknown, expired or logged-out token; 403
      ForbiddenException for an account/role not assigned; 400
      InvalidRequestException for a missing parameter (all with x-amzn-ErrorType).
  ECS container endpoint
    GET /container/…  (header Authorization must equal container.authorization
         when the scenario sets one, else 401)
         → {AccessKeyId, SecretAccessKey, Token, Expiration, RoleArn}
  IMDSv2
    PUT /latest/api/token  (header X-aws-ec2-metadata-token-ttl-seconds: 1..21600) → token
    GET /latest/meta-data/iam/security-credentials/       → the role name
    GET /latest/meta-data/iam/security-credentials/ROLE   → {Code:"Success", LastUpdated,
         Type:"AWS-HMAC", AccessKeyId, SecretAccessKey, Token, Expiration}
    (both GETs need header X-aws-ec2-metadata-token, else 401)

SCENARIO (--scenario FILE, JSON; every key optional)
  {
    "account": "123456789012",          default account of roles/SSO credentials
    "seed": "dynoscope",                secrets and tokens derive from it
    "credentials_ttl": 3600,            default lifetime of issued credentials (s)
    "users": {                          static IAM users (signers of AssumeRole …)
      "AKIAEXAMPLE": {"secret": "…", "arn": "arn:aws:iam::123456789012:user/alice",
                      "user_id": "AIDA…" (optional), "session_token": "…" (optional:
                      then requests must carry it as X-Amz-Security-Token)}
    },
    "roles": {                          roles AssumeRole / AssumeRoleWithWebIdentity know
      "arn:aws:iam::123456789012:role/Admin": {
        "mfa_serial": "arn:aws:iam::123456789012:mfa/alice",   MFA required when set
        "mfa_code": "123456",           the valid TokenCode
        "external_id": "…",             ExternalId required (and must match) when set
        "max_duration": 3600,           MaxSessionDuration (DurationSeconds ≤ it)
        "trusted": ["arn…"]             callers allowed (default: anyone known)
      }
    },
    "web_identity_tokens": {            the valid WebIdentityToken texts
      "eyJ…": {"subject": "system:serviceaccount:ns:sa", "audience": "sts.amazonaws.com",
               "provider": "oidc.example.com"}
    },                                  (a plain list of token texts works, too)
    "sso": {
      "start_url": "https://d-123.awsapps.com/start" (optional: refuse others),
      "user": "tester",                 the user in assumed-role ARNs
      "accounts": [{"accountId": "111111111111", "accountName": "dev",
                    "emailAddress": "dev@example.com"}],
      "roles": {"111111111111": ["ReadOnly", "Admin"]},
      "page_size": 2,                   ListAccounts/ListAccountRoles page without max_result
      "pending_polls": 1,               CreateToken polls answering authorization_pending
      "slow_down_polls": 0,             polls answering slow_down (these come first)
      "auto_approve": true,             false: pending until POST /_test/approve
      "interval": 1,                    StartDeviceAuthorization's interval
      "device_code_ttl": 600,
      "access_token_ttl": 28800,
      "credentials_ttl": 3600,          GetRoleCredentials lifetime
      "refresh_tokens": true,           whether grantType refresh_token works
      "access_tokens": ["…"],           tokens valid from the start (pre-made cache files)
      "refresh_tokens_valid": ["…"],    refresh tokens valid from the start
      "clients": {"clientId": "clientSecret"}   registrations valid from the start
    },
    "container": {"authorization": "Bearer …" (optional),
                  "role_arn": "arn:aws:iam::123456789012:role/ecs-task"},
    "imds": {"role_name": "ec2-role", "account": "…"}
  }

DETERMINISM
  Issued access keys are "ASIA" + a 16-digit counter (from 1); secrets,
  session tokens, client ids/secrets, device codes, access and refresh
  tokens are derived from the seed, the kind and the counter; expirations
  are the server's start time (whole seconds, unchanged by reset) plus the
  lifetime. So two runs against a reset server issue the same credentials.

LOG
  One JSON object per request (control paths excepted), appended to --log
  FILE and returned by GET /_test/log as an array:
    {"seq", "service": "sts"|"sso-oidc"|"sso"|"ecs"|"imds", "operation" (the API's
     name; ecs: GetContainerCredentials; imds: GetMetadataToken, GetInstanceRoleName,
     GetInstanceRoleCredentials),
     "method", "path", "parameters": {…}, "signing_access_key",
     "signing_region", "signing_service", "signing_session_token",
     "status", "error"}
  Secrets (WebIdentityToken, clientSecret, deviceCode, refreshToken, bearer
  and metadata tokens, session tokens, Authorization values) appear only as
  fingerprints "sha256:" + the first 12 hex digits of their SHA-256.

CONTROL PATHS (not logged)
  GET  /_test/log                      the log (JSON array)
  POST /_test/reset                    clear log, counters and everything issued
                                       (registrations, device codes, tokens, credentials,
                                       expiry marks); the scenario stays
  POST /_test/reset?keep=tokens        the same, but registrations and SSO access and
                                       refresh tokens issued so far stay valid (a cache
                                       written by a login is read after the reset)
  POST /_test/expire?access_key=AK     issued credentials AK are expired from now on
  POST /_test/expire?access_token=T    an SSO access token is expired (T raw, or its fingerprint)
  POST /_test/revoke-refresh           every refresh token fails (invalid_grant)
  POST /_test/approve                  approve the pending device code(s)
  GET  /_test/scenario                 the scenario as loaded
"""

import argparse
import datetime
import hashlib
import json
import re
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from xml.sax.saxutils import escape

from botocore.auth import SigV4Auth
from botocore.compat import HTTPHeaders
from botocore.credentials import Credentials

STS_NS = "https://sts.amazonaws.com/doc/2011-06-15/"
SESSION_NAME_RE = re.compile(r"^[\w+=,.@-]{2,64}$")
SIGNED_ACTIONS = {"AssumeRole", "GetCallerIdentity"}
SECRET_PARAMS = {"WebIdentityToken", "clientSecret", "deviceCode", "refreshToken",
                 "codeVerifier", "code", "accessToken"}


def fingerprint(value):
    if value is None:
        return None
    return "sha256:" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:12]


def iso(epoch):
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class StsError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class JsonError(Exception):
    def __init__(self, status, errortype, body):
        super().__init__(errortype)
        self.status, self.errortype, self.body = status, errortype, body


def oidc_error(error, description):
    types = {"authorization_pending": "AuthorizationPendingException",
             "slow_down": "SlowDownException",
             "expired_token": "ExpiredTokenException",
             "invalid_grant": "InvalidGrantException",
             "invalid_client": "InvalidClientException",
             "invalid_request": "InvalidRequestException",
             "unsupported_grant_type": "UnsupportedGrantTypeException",
             "invalid_scope": "InvalidScopeException"}
    return JsonError(401 if error == "invalid_client" else 400, types[error],
                     {"error": error, "error_description": description})


class State:
    def __init__(self, scenario, log_path, start):
        self.scenario = scenario
        self.log_path = log_path
        self.start = start
        self.lock = threading.Lock()
        self.seed = scenario.get("seed", "dynoscope")
        self.account = scenario.get("account", "123456789012")
        self.sso = scenario.get("sso", {})
        self.reset()

    def reset(self, keep_tokens=False):
        kept = (self.clients, self.access_tokens, self.refresh_tokens) if keep_tokens else None
        self.log = []
        self.counters = {}
        self.issued = {}            # access key → credential record
        self.clients = dict(self.sso.get("clients", {}))
        self.devices = {}           # device code → {client, polls, approved, expires, start_url}
        self.access_tokens = {t: {"expires": None, "start_url": None}
                              for t in self.sso.get("access_tokens", [])}
        self.refresh_tokens = {t: {"client": None} for t in self.sso.get("refresh_tokens_valid", [])}
        self.refresh_revoked = False
        self.imds_tokens = set()
        if kept:
            self.clients.update(kept[0])
            self.access_tokens.update(kept[1])
            self.refresh_tokens.update(kept[2])
        if self.log_path:
            open(self.log_path, "w").close()

    def next(self, kind):
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind]

    def derive(self, kind, n, length=40):
        text = hashlib.sha256(f"{self.seed}:{kind}:{n}".encode()).hexdigest()
        while len(text) < length:
            text += hashlib.sha256(text.encode()).hexdigest()
        return text[:length]

    def issue(self, arn, user_id, account, ttl, source):
        n = self.next("credentials")
        key = "ASIA%016d" % n
        cred = {"access_key": key,
                "secret": self.derive("secret", n, 40),
                "token": "IQoJb3JpZ2luX2Vj" + self.derive("token", n, 96),
                "arn": arn, "user_id": user_id, "account": account,
                "expiration": self.start + ttl, "expired": False,
                "chained": source}
        self.issued[key] = cred
        return cred

    def record(self, entry):
        entry["seq"] = len(self.log) + 1
        self.log.append(entry)
        if self.log_path:
            with open(self.log_path, "a") as f:
                f.write(json.dumps(entry, sort_keys=True) + "\n")


def role_name_of(arn):
    # arn:aws:iam::ACCOUNT:role/path/NAME → NAME
    return arn.split(":", 5)[5].split("/")[-1] if arn.count(":") >= 5 else arn


def account_of(arn, default):
    parts = arn.split(":")
    return parts[4] if len(parts) > 5 and parts[4] else default


def unique_id(prefix, text):
    return prefix + hashlib.sha256(text.encode()).hexdigest()[:17].upper()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "aws-signin-test"

    def log_message(self, fmt, *args):
        pass

    # -- plumbing -------------------------------------------------------------

    @property
    def state(self):
        return self.server.state

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def send(self, status, body, content_type, headers=None):
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.sent_status = status
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", self.request_id)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, status, obj, errortype=None):
        headers = {"x-amzn-ErrorType": errortype} if errortype else None
        self.send(status, json.dumps(obj), "application/json", headers)

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def dispatch(self, method):
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        body = self.read_body()
        st = self.state
        with st.lock:
            self.request_id = "00000000-0000-4000-8000-%012d" % (len(st.log) + 1)
            if path.startswith("/_test/"):
                return self.control(method, path, query)
            entry = {"method": method, "path": path, "parameters": {},
                     "signing_access_key": None, "signing_region": None,
                     "signing_service": None, "signing_session_token": None,
                     "error": None}
            try:
                if path == "/" and method == "POST":
                    entry["service"] = "sts"
                    self.sts(body, entry)
                elif path in ("/client/register", "/device_authorization", "/token"):
                    entry["service"] = "sso-oidc"
                    self.oidc(path, body, entry)
                elif path in ("/federation/credentials", "/assignment/accounts", "/assignment/user",
                              "/assignment/roles", "/logout"):
                    entry["service"] = "sso"
                    self.portal(method, path, query, entry)
                elif path.startswith("/container/"):
                    entry["service"] = "ecs"
                    self.container(entry)
                elif path.startswith("/latest/"):
                    entry["service"] = "imds"
                    self.imds(method, path, entry)
                else:
                    entry["service"] = "unknown"
                    entry["operation"] = None
                    entry["status"] = 404
                    entry["error"] = "NotFound"
                    self.send(404, "not found\n", "text/plain")
            except StsError as e:
                entry["status"], entry["error"] = e.status, e.code
                self.send(e.status,
                          '<ErrorResponse xmlns="%s"><Error><Type>Sender</Type><Code>%s</Code>'
                          '<Message>%s</Message></Error><RequestId>%s</RequestId></ErrorResponse>'
                          % (STS_NS, escape(e.code), escape(e.message), self.request_id),
                          "text/xml")
            except JsonError as e:
                entry["status"], entry["error"] = e.status, e.errortype
                self.send_json(e.status, e.body, e.errortype)
            entry["status"] = self.sent_status
            st.record(entry)

    def control(self, method, path, query):
        st = self.state
        if path == "/_test/log":
            return self.send_json(200, st.log)
        if path == "/_test/scenario":
            return self.send_json(200, st.scenario)
        if method != "POST":
            return self.send_json(405, {"error": "POST"})
        if path == "/_test/reset":
            st.reset(keep_tokens=query.get("keep") == "tokens")
        elif path == "/_test/expire":
            if "access_key" in query:
                cred = st.issued.get(query["access_key"])
                if not cred:
                    return self.send_json(404, {"error": "no such access key"})
                cred["expired"] = True
            elif "access_token" in query:
                want = query["access_token"]
                hits = [t for t in st.access_tokens if t == want or fingerprint(t) == want]
                if not hits:
                    return self.send_json(404, {"error": "no such access token"})
                for t in hits:
                    st.access_tokens[t]["expired"] = True
            else:
                return self.send_json(400, {"error": "access_key or access_token"})
        elif path == "/_test/revoke-refresh":
            st.refresh_revoked = True
        elif path == "/_test/approve":
            for device in st.devices.values():
                device["approved"] = True
        else:
            return self.send_json(404, {"error": "unknown control path"})
        self.send_json(200, {"ok": True})

    # -- STS ------------------------------------------------------------------

    def sts_credential(self, body, entry, action):
        """Checks the SigV4 signature; returns the signer's record."""
        st = self.state
        auth = self.headers.get("Authorization")
        if not auth:
            raise StsError(403, "MissingAuthenticationToken", "Request is missing Authentication Token")
        m = re.match(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request,\s*"
                     r"SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$", auth.strip())
        if not m:
            raise StsError(400, "IncompleteSignature",
                           "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders'.")
        key, date, region, service, signed, signature = m.groups()
        token = self.headers.get("X-Amz-Security-Token")
        entry.update(signing_access_key=key, signing_region=region, signing_service=service,
                     signing_session_token=fingerprint(token))
        if key in st.issued:
            cred = st.issued[key]
            if token != cred["token"]:
                raise StsError(403, "InvalidClientTokenId", "The security token included in the request is invalid.")
            if cred["expired"]:
                raise StsError(400, "ExpiredToken", "The security token included in the request is expired")
            secret = cred["secret"]
        elif key in st.scenario.get("users", {}):
            user = st.scenario["users"][key]
            if token != user.get("session_token"):
                raise StsError(403, "InvalidClientTokenId", "The security token included in the request is invalid.")
            secret = user["secret"]
            cred = {"access_key": key, "arn": user["arn"],
                    "user_id": user.get("user_id", unique_id("AIDA", user["arn"])),
                    "account": account_of(user["arn"], st.account), "chained": None}
        else:
            raise StsError(403, "InvalidClientTokenId", "The security token included in the request is invalid.")
        amzdate = self.headers.get("X-Amz-Date")
        if not amzdate or amzdate[:8] != date:
            raise StsError(403, "SignatureDoesNotMatch", "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP.")
        if service != "sts":
            raise StsError(403, "SignatureDoesNotMatch", "Credential should be scoped to correct service: 'sts'. ")
        headers = HTTPHeaders()
        for name in signed.split(";"):
            for value in self.headers.get_all(name) or []:
                headers[name] = value
        request = SimpleNamespace(method=self.command, url="http://%s%s" % (self.headers.get("Host", ""), self.path),
                                  headers=headers, body=body, params={},
                                  context={"timestamp": amzdate})
        signer = SigV4Auth(Credentials(key, secret, token), service, region)
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        if signer.signed_headers(signer.headers_to_sign(request)) != signed or expected != signature:
            raise StsError(403, "SignatureDoesNotMatch",
                           "The request signature we calculated does not match the signature you provided. "
                           "Check your AWS Secret Access Key and signing method. Consult the service "
                           "documentation for details.")
        return cred

    def sts(self, body, entry):
        st = self.state
        form = dict(urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        action = form.pop("Action", None)
        version = form.pop("Version", None)
        entry["operation"] = action
        entry["parameters"] = {k: (fingerprint(v) if k in SECRET_PARAMS else v) for k, v in form.items()}
        if version != "2011-06-15":
            raise StsError(400, "InvalidAction", "Could not find operation %s for version %s" % (action, version))
        if action in SIGNED_ACTIONS:
            caller = self.sts_credential(body, entry, action)
        if action == "GetCallerIdentity":
            entry["status"] = 200
            return self.send_sts(action, "<Arn>%s</Arn><UserId>%s</UserId><Account>%s</Account>"
                                 % (escape(caller["arn"]), escape(caller["user_id"]), escape(caller["account"])))
        if action == "AssumeRole":
            role_arn, role, session, duration = self.check_role(form, caller["arn"])
            if role.get("external_id") is not None and form.get("ExternalId") != role["external_id"]:
                raise self.not_authorized(caller["arn"], "sts:AssumeRole", role_arn)
            if role.get("mfa_serial"):
                if "SerialNumber" not in form or "TokenCode" not in form:
                    raise self.not_authorized(caller["arn"], "sts:AssumeRole", role_arn)
                if form["SerialNumber"] != role["mfa_serial"] or form["TokenCode"] != str(role.get("mfa_code")):
                    raise StsError(403, "AccessDenied",
                                   "MultiFactorAuthentication failed with invalid MFA one time pass code. ")
            if caller.get("chained") and duration > 3600:
                raise StsError(400, "ValidationError",
                               "The requested DurationSeconds exceeds the 1 hour session limit for roles "
                               "assumed by role chaining.")
            return self.send_assumed(action, role_arn, session, duration, caller["arn"], "")
        if action == "AssumeRoleWithWebIdentity":
            role_arn, role, session, duration = self.check_role(form, None)
            tokens = st.scenario.get("web_identity_tokens", {})
            if isinstance(tokens, list):
                tokens = {t: {} for t in tokens}
            token = form.get("WebIdentityToken")
            if not token:
                raise StsError(400, "ValidationError", "1 validation error detected: Value null at 'webIdentityToken' "
                               "failed to satisfy constraint: Member must not be null")
            if token not in tokens:
                raise StsError(400, "InvalidIdentityToken", "The web identity token that was passed could not be "
                               "validated by AWS. Get a new identity token from the identity provider and then "
                               "retry the request.")
            info = tokens[token]
            extra = ("<SubjectFromWebIdentityToken>%s</SubjectFromWebIdentityToken><Audience>%s</Audience>"
                     "<Provider>%s</Provider>" % (escape(info.get("subject", "test-subject")),
                                                  escape(info.get("audience", "sts.amazonaws.com")),
                                                  escape(info.get("provider", "oidc.example.com"))))
            return self.send_assumed(action, role_arn, session, duration, None, extra)
        raise StsError(400, "InvalidAction", "Could not find operation %s for version 2011-06-15" % action)

    def not_authorized(self, caller_arn, what, resource):
        return StsError(403, "AccessDenied", "User: %s is not authorized to perform: %s on resource: %s"
                        % (caller_arn or "anonymous", what, resource))

    def check_role(self, form, caller_arn):
        st = self.state
        role_arn = form.get("RoleArn")
        session = form.get("RoleSessionName")
        if not role_arn:
            raise StsError(400, "ValidationError", "1 validation error detected: Value null at 'roleArn' failed "
                           "to satisfy constraint: Member must not be null")
        if session is None:
            raise StsError(400, "ValidationError", "1 validation error detected: Value null at 'roleSessionName' "
                           "failed to satisfy constraint: Member must not be null")
        if not SESSION_NAME_RE.match(session):
            raise StsError(400, "ValidationError", "1 validation error detected: Value '%s' at 'roleSessionName' "
                           "failed to satisfy constraint: Member must satisfy regular expression pattern: "
                           "[\\w+=,.@-]*" % session)
        what = "sts:AssumeRole" if caller_arn else "sts:AssumeRoleWithWebIdentity"
        role = st.scenario.get("roles", {}).get(role_arn)
        if role is None or (caller_arn and "trusted" in role and caller_arn not in role["trusted"]):
            raise self.not_authorized(caller_arn, what, role_arn)
        try:
            duration = int(form.get("DurationSeconds", 3600))
        except ValueError:
            raise StsError(400, "ValidationError", "Invalid value for DurationSeconds")
        if duration < 900:
            raise StsError(400, "ValidationError", "1 validation error detected: Value '%d' at 'durationSeconds' "
                           "failed to satisfy constraint: Member must have value greater than or equal to 900"
                           % duration)
        if duration > 43200:
            raise StsError(400, "ValidationError", "1 validation error detected: Value '%d' at 'durationSeconds' "
                           "failed to satisfy constraint: Member must have value less than or equal to 43200"
                           % duration)
        if duration > role.get("max_duration", 3600):
            raise StsError(400, "ValidationError", "The requested DurationSeconds exceeds the MaxSessionDuration "
                           "set for this role.")
        return role_arn, role, session, duration

    def send_assumed(self, action, role_arn, session, duration, source, extra):
        st = self.state
        account = account_of(role_arn, st.account)
        role_id = unique_id("AROA", role_arn)
        arn = "arn:aws:sts::%s:assumed-role/%s/%s" % (account, role_name_of(role_arn), session)
        cred = st.issue(arn, "%s:%s" % (role_id, session), account, duration, source)
        self.send_sts(action,
                      "<Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey>"
                      "<SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials>"
                      "%s<AssumedRoleUser><AssumedRoleId>%s:%s</AssumedRoleId><Arn>%s</Arn></AssumedRoleUser>"
                      "<PackedPolicySize>6</PackedPolicySize>"
                      % (cred["access_key"], cred["secret"], cred["token"], iso(cred["expiration"]),
                         extra, role_id, escape(session), escape(arn)))

    def send_sts(self, action, result):
        self.send(200, '<%sResponse xmlns="%s">\n  <%sResult>%s</%sResult>\n'
                  '  <ResponseMetadata><RequestId>%s</RequestId></ResponseMetadata>\n</%sResponse>\n'
                  % (action, STS_NS, action, result, action, self.request_id, action), "text/xml")

    # -- IAM Identity Center OIDC ---------------------------------------------

    def oidc(self, path, body, entry):
        st = self.state
        sso = st.sso
        try:
            req = json.loads(body or b"{}")
            if not isinstance(req, dict):
                raise ValueError
        except ValueError:
            raise JsonError(400, "SerializationException", {"message": "Invalid JSON"})
        entry["parameters"] = {k: (fingerprint(v) if k in SECRET_PARAMS and isinstance(v, str) else v)
                               for k, v in req.items()}
        entry["status"] = 200
        if path == "/client/register":
            entry["operation"] = "RegisterClient"
            if not req.get("clientName") or req.get("clientType") != "public":
                raise oidc_error("invalid_request", "clientName and clientType public are required")
            n = st.next("client")
            client_id = "client-" + st.derive("client-id", n, 22)
            secret = "secret-" + st.derive("client-secret", n, 64)
            st.clients[client_id] = secret
            return self.send_json(200, {"clientId": client_id, "clientSecret": secret,
                                        "clientIdIssuedAt": st.start,
                                        "clientSecretExpiresAt": st.start + 90 * 86400})
        if path == "/device_authorization":
            entry["operation"] = "StartDeviceAuthorization"
            self.check_client(req)
            start_url = req.get("startUrl")
            if not start_url:
                raise oidc_error("invalid_request", "startUrl is required")
            if sso.get("start_url") and start_url != sso["start_url"]:
                raise oidc_error("invalid_request", "Invalid start URL")
            n = st.next("device")
            code = "device-" + st.derive("device-code", n, 48)
            user_code = "%04X-%04X" % (n, int(st.derive("user-code", n, 4), 16))
            ttl = sso.get("device_code_ttl", 600)
            st.devices[code] = {"client": req["clientId"], "polls": 0, "approved": False,
                                "start_url": start_url, "used": False}
            base = "http://%s/device" % self.headers.get("Host", "127.0.0.1")
            return self.send_json(200, {"deviceCode": code, "userCode": user_code,
                                        "verificationUri": base,
                                        "verificationUriComplete": base + "?user_code=" + user_code,
                                        "expiresIn": ttl, "interval": sso.get("interval", 1)})
        entry["operation"] = "CreateToken"
        self.check_client(req)
        grant = req.get("grantType")
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            device = st.devices.get(req.get("deviceCode"))
            if device is None or device["client"] != req["clientId"]:
                raise oidc_error("invalid_grant", "Invalid device code provided")
            if device["used"]:
                raise oidc_error("expired_token", "Device code has been used")
            i = device["polls"]
            device["polls"] += 1
            slow = sso.get("slow_down_polls", 0)
            pending = sso.get("pending_polls", 1)
            if i < slow:
                raise oidc_error("slow_down", "Client is polling too quickly")
            if i < slow + pending or not (sso.get("auto_approve", True) or device["approved"]):
                raise oidc_error("authorization_pending", "Authorization is still pending")
            device["used"] = True
            return self.send_token(req["clientId"], device["start_url"])
        if grant == "refresh_token":
            token = req.get("refreshToken")
            if not sso.get("refresh_tokens", True) or st.refresh_revoked or token not in st.refresh_tokens:
                raise oidc_error("invalid_grant", "Invalid refresh token provided")
            owner = st.refresh_tokens[token]["client"]
            if owner is not None and owner != req["clientId"]:
                raise oidc_error("invalid_grant", "Invalid refresh token provided")
            del st.refresh_tokens[token]
            return self.send_token(req["clientId"], None)
        raise oidc_error("unsupported_grant_type", "Unsupported grant type")

    def check_client(self, req):
        st = self.state
        client_id = req.get("clientId")
        if client_id not in st.clients or st.clients[client_id] != req.get("clientSecret"):
            raise oidc_error("invalid_client", "Invalid client provided")

    def send_token(self, client_id, start_url):
        st = self.state
        sso = st.sso
        n = st.next("sso-token")
        access = "aoa" + st.derive("access-token", n, 120)
        ttl = sso.get("access_token_ttl", 28800)
        st.access_tokens[access] = {"expired": False, "start_url": start_url}
        answer = {"accessToken": access, "tokenType": "Bearer", "expiresIn": ttl}
        if sso.get("refresh_tokens", True):
            refresh = "aor" + st.derive("refresh-token", n, 120)
            st.refresh_tokens[refresh] = {"client": client_id}
            answer["refreshToken"] = refresh
        self.send_json(200, answer)

    # -- IAM Identity Center portal -------------------------------------------

    def portal(self, method, path, query, entry):
        st = self.state
        sso = st.sso
        token = self.headers.get("x-amz-sso_bearer_token")
        entry["parameters"] = dict(query)
        entry["parameters"]["bearer_token"] = fingerprint(token)
        entry["operation"] = {"/federation/credentials": "GetRoleCredentials",
                              "/assignment/accounts": "ListAccounts",
                              "/assignment/user": "ListAccounts",
                              "/assignment/roles": "ListAccountRoles",
                              "/logout": "Logout"}[path]
        expected_method = "POST" if path == "/logout" else "GET"
        if method != expected_method:
            raise JsonError(405, "MethodNotAllowedException", {"message": "Method not allowed"})
        info = st.access_tokens.get(token) if token else None
        if info is None or info.get("expired"):
            raise JsonError(401, "UnauthorizedException", {"message": "Session token not found or invalid"})
        entry["status"] = 200
        if path == "/logout":
            del st.access_tokens[token]
            return self.send(200, b"", "application/json")
        accounts = sso.get("accounts", [])
        roles = sso.get("roles", {})
        if path == "/federation/credentials":
            account, role = query.get("account_id"), query.get("role_name")
            if not account or not role:
                raise JsonError(400, "InvalidRequestException", {"message": "account_id and role_name are required"})
            if role not in roles.get(account, []):
                raise JsonError(403, "ForbiddenException", {"message": "No access"})
            user = sso.get("user", "tester")
            role_path = "AWSReservedSSO_%s_%s" % (role, hashlib.sha256(role.encode()).hexdigest()[:16])
            arn = "arn:aws:sts::%s:assumed-role/%s/%s" % (account, role_path, user)
            cred = st.issue(arn, "%s:%s" % (unique_id("AROA", account + role), user), account,
                            sso.get("credentials_ttl", 3600), None)
            return self.send_json(200, {"roleCredentials": {
                "accessKeyId": cred["access_key"], "secretAccessKey": cred["secret"],
                "sessionToken": cred["token"], "expiration": cred["expiration"] * 1000}})
        if path in ("/assignment/accounts", "/assignment/user"):
            items = accounts
            key = "accountList"
        else:
            account = query.get("account_id")
            if not account:
                raise JsonError(400, "InvalidRequestException", {"message": "account_id is required"})
            items = [{"roleName": r, "accountId": account} for r in roles.get(account, [])]
            key = "roleList"
        try:
            size = int(query.get("max_result") or sso.get("page_size", 2))
            offset = int(query["next_token"].split("-")[1]) if query.get("next_token") else 0
        except (ValueError, IndexError):
            raise JsonError(400, "InvalidRequestException", {"message": "Invalid next_token or max_result"})
        page = items[offset:offset + max(size, 1)]
        answer = {key: page}
        if offset + len(page) < len(items):
            answer["nextToken"] = "page-%d" % (offset + len(page))
        self.send_json(200, answer)

    # -- ECS container endpoint and IMDSv2 ------------------------------------

    def container_answer(self, cred):
        return {"AccessKeyId": cred["access_key"], "SecretAccessKey": cred["secret"],
                "Token": cred["token"], "Expiration": iso(cred["expiration"])}

    def container(self, entry):
        st = self.state
        conf = st.scenario.get("container", {})
        auth = self.headers.get("Authorization")
        entry["operation"] = "GetContainerCredentials"
        entry["parameters"] = {"authorization": fingerprint(auth)}
        if conf.get("authorization") is not None and auth != conf["authorization"]:
            raise JsonError(401, "Unauthorized", {"code": "AccessDenied", "message": "Unauthorized"})
        role_arn = conf.get("role_arn", "arn:aws:iam::%s:role/ecs-task" % st.account)
        account = account_of(role_arn, st.account)
        arn = "arn:aws:sts::%s:assumed-role/%s/task-0123456789" % (account, role_name_of(role_arn))
        cred = st.issue(arn, "%s:task-0123456789" % unique_id("AROA", role_arn), account,
                        st.scenario.get("credentials_ttl", 3600), None)
        entry["status"] = 200
        answer = self.container_answer(cred)
        answer["RoleArn"] = role_arn
        self.send_json(200, answer)

    def imds(self, method, path, entry):
        st = self.state
        conf = st.scenario.get("imds", {})
        role = conf.get("role_name", "ec2-role")
        if path == "/latest/api/token" and method == "PUT":
            entry["operation"] = "GetMetadataToken"
            ttl = self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
            entry["parameters"] = {"ttl": ttl}
            if not ttl or not ttl.isdigit() or not 1 <= int(ttl) <= 21600:
                raise JsonError(400, "BadRequest", {"message": "bad ttl"})
            token = "imds-" + st.derive("imds-token", st.next("imds"), 40)
            st.imds_tokens.add(token)
            entry["status"] = 200
            return self.send(200, token, "text/plain", {"X-aws-ec2-metadata-token-ttl-seconds": ttl})
        token = self.headers.get("X-aws-ec2-metadata-token")
        entry["parameters"] = {"token": fingerprint(token)}
        prefix = "/latest/meta-data/iam/security-credentials/"
        entry["operation"] = "GetInstanceRoleName" if path == prefix else "GetInstanceRoleCredentials"
        if method != "GET" or not path.startswith(prefix):
            raise JsonError(404, "NotFound", {"message": "Not Found"})
        if token not in st.imds_tokens:
            raise JsonError(401, "Unauthorized", {"message": "Unauthorized"})
        entry["status"] = 200
        if path == prefix:
            return self.send(200, role, "text/plain")
        if path[len(prefix):] != role:
            raise JsonError(404, "NotFound", {"message": "Not Found"})
        account = conf.get("account", st.account)
        arn = "arn:aws:sts::%s:assumed-role/%s/i-0123456789abcdef0" % (account, role)
        cred = st.issue(arn, "%s:i-0123456789abcdef0" % unique_id("AROA", role), account,
                        st.scenario.get("credentials_ttl", 3600), None)
        answer = self.container_answer(cred)
        answer.update(Code="Success", LastUpdated=iso(st.start), Type="AWS-HMAC")
        self.send_json(200, answer)


def main():
    parser = argparse.ArgumentParser(description="AWS sign-in test server (STS, SSO OIDC, portal, ECS, IMDS)")
    parser.add_argument("--scenario", help="the scenario JSON file")
    parser.add_argument("--log", help="append each request as a JSON line to this file")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    scenario = {}
    if args.scenario:
        with open(args.scenario) as f:
            scenario = json.load(f)
    start = int(datetime.datetime.now(datetime.timezone.utc).timestamp())
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.state = State(scenario, args.log, start)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
