#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serves one table read-only over DynamoDB's JSON protocol, for benchmarks
of the window with more items than DynamoDB Local scans in reasonable time
(its Scan slows down past a few hundred thousand items).

    serve-scan.py PORT TABLE ITEMS.jsonl PK SK

ITEMS.jsonl holds DynamoDB JSON items in the order a Scan returns them.
Answers ListTables, DescribeTable and Scan (Limit, ExclusiveStartKey,
pages of at most 1 MB as DynamoDB cuts them, ConsumedCapacity at 0.5 RCU
per 4 KB); anything else is refused with DynamoDB's UnknownOperationException.
Prints "listening" on standard output once it accepts connections."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, table, path, pk, sk = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
lines = []
keys = {}
with open(path) as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        item = json.loads(line)
        key = json.dumps({pk: item[pk], sk: item[sk]}, sort_keys=True, separators=(",", ":"))
        keys[key] = len(lines)
        lines.append(line)

description = {
    "Table": {
        "TableName": table, "TableStatus": "ACTIVE", "ItemCount": len(lines),
        "TableSizeBytes": sum(len(l) for l in lines),
        "KeySchema": [{"AttributeName": pk, "KeyType": "HASH"}, {"AttributeName": sk, "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": pk, "AttributeType": "S"},
                                 {"AttributeName": sk, "AttributeType": "S"}],
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/" + table,
    }
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", "bench")
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        op = self.headers.get("X-Amz-Target", "").rpartition(".")[2]
        if op == "ListTables":
            return self.reply(200, {"TableNames": [table]})
        if op == "DescribeTable":
            return self.reply(200, description)
        if op == "Scan" and body.get("TableName") == table:
            start = 0
            if "ExclusiveStartKey" in body:
                key = json.dumps(body["ExclusiveStartKey"], sort_keys=True, separators=(",", ":"))
                start = keys[key] + 1
            limit = int(body.get("Limit", len(lines)))
            end, size = start, 0
            while end < len(lines) and end - start < limit and size < 1024 * 1024:
                size += len(lines[end])
                end += 1
            out = '{"Items":[' + ",".join(lines[start:end]) + '],"Count":%d,"ScannedCount":%d' % (end - start, end - start)
            if end < len(lines):
                last = json.loads(lines[end - 1])
                out += ',"LastEvaluatedKey":' + json.dumps({pk: last[pk], sk: last[sk]})
            out += ',"ConsumedCapacity":{"TableName":"%s","CapacityUnits":%s}}' % (table, max(0.5, size / 8192))
            return self.reply(200, out)
        self.reply(400, {"__type": "com.amazonaws.dynamodb.v20120810#UnknownOperationException",
                         "message": "unknown operation " + op})


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("listening", flush=True)
server.serve_forever()
