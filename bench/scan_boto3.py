#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer for bench/run-scan.sh: a boto3 Scan paginator over every item,
deserialised with TypeDeserializer and printed as one JSON line per item,
which is the work dynoscope-cli scan does."""
import json, sys
import boto3
from boto3.dynamodb.types import TypeDeserializer

endpoint, table = sys.argv[1], sys.argv[2]
client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="bench", aws_secret_access_key="bench")
td = TypeDeserializer()
out = sys.stdout
n = 0
for page in client.get_paginator("scan").paginate(TableName=table):
    for item in page["Items"]:
        out.write(json.dumps({k: td.deserialize(v) for k, v in item.items()}, default=str))
        out.write("\n")
        n += 1
print(n, file=sys.stderr)
