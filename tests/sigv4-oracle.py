#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Signs DynamoDB requests with botocore's SigV4Auth, as a reference for test-sigv4.

Reads JSON lines from stdin, one request each:
  {"access_key": ..., "secret_key": ..., "token": null | "...", "region": ...,
   "endpoint": "http://localhost:8000", "target": "DynamoDB_20120810.Query",
   "body_b64": "<base64 of the body bytes>", "time": <unix seconds>}
and writes one JSON line per request:
  {"authorization": ..., "canonical_request": ..., "string_to_sign": ...,
   "headers": ["Name: value", ...]}
The clock botocore reads is frozen at each request's "time".
Run with /usr/bin/python3 (Debian's python3-botocore).
"""

import base64
import datetime
import json
import sys
import types

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials


class _FrozenDatetime(datetime.datetime):
    frozen = None

    @classmethod
    def utcnow(cls):
        return cls.frozen

    @classmethod
    def now(cls, tz=None):
        if tz is None:
            return cls.frozen
        return cls.frozen.replace(tzinfo=datetime.timezone.utc).astimezone(tz)


# botocore.auth calls datetime.datetime.utcnow(); give it a module whose
# datetime class answers with the frozen time.
botocore.auth.datetime = types.SimpleNamespace(datetime=_FrozenDatetime,
                                               timezone=datetime.timezone,
                                               timedelta=datetime.timedelta)


class _RecordingSigV4Auth(botocore.auth.SigV4Auth):
    """Keeps the canonical request and string to sign add_auth computed."""

    def canonical_request(self, request):
        self.recorded_canonical_request = super().canonical_request(request)
        return self.recorded_canonical_request

    def string_to_sign(self, request, canonical_request):
        self.recorded_string_to_sign = super().string_to_sign(request, canonical_request)
        return self.recorded_string_to_sign


def sign(req):
    utc = datetime.datetime.fromtimestamp(req["time"], datetime.timezone.utc)
    _FrozenDatetime.frozen = _FrozenDatetime(utc.year, utc.month, utc.day,
                                             utc.hour, utc.minute, utc.second)
    creds = Credentials(req["access_key"], req["secret_key"], req.get("token"))
    body = base64.b64decode(req["body_b64"])
    request = AWSRequest(method="POST", url=req["endpoint"].rstrip("/") + "/",
                         data=body,
                         headers={"Content-Type": "application/x-amz-json-1.0",
                                  "X-Amz-Target": req["target"]})
    auth = _RecordingSigV4Auth(creds, "dynamodb", req["region"])
    auth.add_auth(request)
    return {
        "authorization": request.headers["Authorization"],
        "canonical_request": auth.recorded_canonical_request,
        "string_to_sign": auth.recorded_string_to_sign,
        "headers": ["%s: %s" % (k, v) for k, v in request.headers.items()],
    }


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        out.write(json.dumps(sign(json.loads(line))) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
