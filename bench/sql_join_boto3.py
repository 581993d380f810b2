#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer for bench/run-sql-join.sh: the same reads as the SQL join, written
by hand with boto3 — Query the outer list, then one Query per distinct target
collection (every page), one after the other, each item printed as a JSON line
of the joined columns."""
import json, sys
import boto3
from boto3.dynamodb.types import TypeDeserializer

endpoint, links, workspaces = sys.argv[1], sys.argv[2], sys.argv[3]
client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="bench", aws_secret_access_key="bench")
td = TypeDeserializer()
outer = []
for page in client.get_paginator("query").paginate(
        TableName=links, KeyConditionExpression="#pk = :pk",
        ExpressionAttributeNames={"#pk": "PK"}, ExpressionAttributeValues={":pk": {"S": "LIST"}}):
    outer.extend(page["Items"])
cache = {}
out = sys.stdout
for link in outer:
    target = link["target"]["S"]
    if target not in cache:
        items = []
        for page in client.get_paginator("query").paginate(
                TableName=workspaces, KeyConditionExpression="#er = :er",
                ExpressionAttributeNames={"#er": "EntityRef"},
                ExpressionAttributeValues={":er": {"S": target}}):
            items.extend(page["Items"])
        cache[target] = items
    for item in cache[target]:
        out.write(json.dumps({"target": target, "Detail": td.deserialize(item["Detail"]),
                              "title": td.deserialize(item.get("title", {"NULL": True}))}, default=str))
        out.write("\n")
