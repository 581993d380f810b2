#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer for bench/run-sql-join.sh: the hand-written boto3 loop a user would
write for the same join. Query the course's enrollments (every page), then,
for each distinct student, Query that student's item collection (every page),
and print one JSON line per joined row: the reads the SQL Workbench makes for

  SELECT e.SK AS enrollment, s.SK AS record, s.Grade
  FROM Enrollments e JOIN Students s ON s.PK = e.StudentPK
  WHERE e.PK = 'COURSE#1'
"""
import json, sys
import boto3
from boto3.dynamodb.types import TypeDeserializer

endpoint = sys.argv[1]
client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="bench", aws_secret_access_key="bench")
td = TypeDeserializer()
plain = lambda item: {k: td.deserialize(v) for k, v in item.items()}


def exact(value):
    """boto3 gives Decimal; the grades here are integers."""
    return int(value) if value == value.to_integral_value() else float(value)


def query(table, pk_name, pk):
    kwargs = dict(TableName=table, KeyConditionExpression="#pk = :pk",
                  ExpressionAttributeNames={"#pk": pk_name},
                  ExpressionAttributeValues={":pk": {"S": pk}})
    while True:
        page = client.query(**kwargs)
        for item in page["Items"]:
            yield plain(item)
        if "LastEvaluatedKey" not in page:
            return
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


cache = {}
rows = 0
out = sys.stdout
for e in query("Enrollments", "PK", "COURSE#1"):
    key = e["StudentPK"]
    if key not in cache:
        cache[key] = list(query("Students", "PK", key))
    for s in cache[key]:
        out.write(json.dumps({"enrollment": e["SK"], "record": s["SK"],
                              "Grade": s.get("Grade")}, default=exact) + "\n")
        rows += 1
print(f"boto3: {rows} rows, {len(cache) + 1} queries", file=sys.stderr)
