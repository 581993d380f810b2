#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Cuts the first N lines of a DynamoDB JSON lines file into request files
for `aws dynamodb batch-write-item --request-items file://…` (25 puts each).
Usage: transfer_chunks.py FILE N TABLE OUTDIR"""
import json, os, sys

path, n, table, outdir = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
os.makedirs(outdir, exist_ok=True)
batch, k = [], 0
with open(path) as f:
    for i, line in enumerate(f):
        if i >= n:
            break
        batch.append({"PutRequest": {"Item": json.loads(line)}})
        if len(batch) == 25:
            with open(os.path.join(outdir, "%05d.json" % k), "w") as o:
                json.dump({table: batch}, o, ensure_ascii=False)
            batch, k = [], k + 1
if batch:
    with open(os.path.join(outdir, "%05d.json" % k), "w") as o:
        json.dump({table: batch}, o, ensure_ascii=False)
