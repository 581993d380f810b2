#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The boto3 peers of bench/run-transfer.sh.

  transfer_boto3.py import ENDPOINT TABLE FILE   DynamoDB JSON lines → table.batch_writer()
  transfer_boto3.py export ENDPOINT TABLE FILE   paginated Scan → DynamoDB JSON lines
  transfer_boto3.py count  ENDPOINT TABLE        Select=COUNT scan

The import deserialises each line with TypeDeserializer (the resource API
takes Python values; binary values are Base64 in the file, as the low-level
API writes them) and lets batch_writer() send BatchWriteItem in 25s and
resend unprocessed items; the export writes the items of each page as the
server sent them, one line each, which is what dynoscope-cli export does."""
import base64, json, sys
import boto3
from boto3.dynamodb.types import Binary, TypeDeserializer

mode, endpoint, table = sys.argv[1], sys.argv[2], sys.argv[3]
kw = dict(endpoint_url=endpoint, region_name="us-east-1",
          aws_access_key_id="bench", aws_secret_access_key="bench")
def from_ddb(td, v):
    (t, x), = v.items()
    if t == "B":
        return Binary(base64.b64decode(x))
    if t == "BS":
        return {Binary(base64.b64decode(b)) for b in x}
    if t == "M":
        return {k: from_ddb(td, w) for k, w in x.items()}
    if t == "L":
        return [from_ddb(td, w) for w in x]
    return td.deserialize(v)

if mode == "import":
    td = TypeDeserializer()
    t = boto3.resource("dynamodb", **kw).Table(table)
    n = 0
    with open(sys.argv[4]) as f, t.batch_writer() as w:
        for line in f:
            if line.strip():
                w.put_item(Item={k: from_ddb(td, v) for k, v in json.loads(line).items()})
                n += 1
    print(n, file=sys.stderr)
elif mode == "export":
    def b64(value):
        if isinstance(value, bytes):
            return base64.b64encode(value).decode()
        raise TypeError(type(value))

    client = boto3.client("dynamodb", **kw)
    n = 0
    with open(sys.argv[4], "w") as out:
        for page in client.get_paginator("scan").paginate(TableName=table):
            for item in page["Items"]:
                # botocore decodes B and BS to bytes: Base64 again, as in the file.
                out.write(json.dumps(item, ensure_ascii=False, separators=(",", ":"), default=b64))
                out.write("\n")
                n += 1
    print(n, file=sys.stderr)
elif mode == "count":
    client = boto3.client("dynamodb", **kw)
    print(sum(p["Count"] for p in client.get_paginator("scan").paginate(TableName=table, Select="COUNT")))
else:
    sys.exit("unknown mode " + mode)
