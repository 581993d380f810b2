#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""botocore's SigV4Auth.add_auth on a DynamoDB Query, signatures per second.

The request matches bench-sigv4.c (same body, credentials, region, host and
frozen time; process CPU time, like the C side), and the last Authorization is printed so run-sigv4.sh can check
both sides signed the same thing. Run with /usr/bin/python3 (Debian's botocore).
"""

import datetime
import sys
import time
import types

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

BODY = (
    '{"TableName":"Workspaces","KeyConditionExpression":"#pk = :pk AND begins_with(#sk, :sk)",'
    '"ExpressionAttributeNames":{"#pk":"PK","#sk":"SK"},'
    '"ExpressionAttributeValues":{":pk":{"S":"WS#7f3a9c2e-1b4d-4e8a-9f60-2c5d8e1a7b34"},'
    '":sk":{"S":"PROJ#"}},"ProjectionExpression":"PK, SK, #n",'
    '"Limit":100,"ReturnConsumedCapacity":"TOTAL"}'
).encode()

FIXED = datetime.datetime(2023, 11, 14, 22, 13, 20)  # 1700000000


class _FrozenDatetime(datetime.datetime):
    @classmethod
    def utcnow(cls):
        return FIXED


botocore.auth.datetime = types.SimpleNamespace(datetime=_FrozenDatetime)


def make_request():
    return AWSRequest(method="POST", url="https://dynamodb.eu-central-1.amazonaws.com/",
                      data=BODY,
                      headers={"Content-Type": "application/x-amz-json-1.0",
                               "X-Amz-Target": "DynamoDB_20120810.Query"})


def run(iterations, fresh_request):
    creds = Credentials("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    auth = botocore.auth.SigV4Auth(creds, "dynamodb", "eu-central-1")
    request = make_request()
    start = time.process_time()
    for _ in range(iterations):
        if fresh_request:
            request = make_request()
        auth.add_auth(request)
    elapsed = time.process_time() - start
    return iterations / elapsed, request.headers["Authorization"]


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    run(max(iterations // 10, 1), False)  # warm up
    rate, authorization = run(iterations, False)
    rate_fresh, _ = run(iterations, True)
    print(f"body_bytes={len(BODY)}")
    print(f"py_authorization={authorization}")
    print(f"py_signs_per_sec={rate:.0f}")
    print(f"py_signs_per_sec_fresh_request={rate_fresh:.0f}")


if __name__ == "__main__":
    main()
