#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""boto3 peer of bench-decode: json.loads + TypeDeserializer on every item of
the same pages. Run with Debian's /usr/bin/python3 (python3-boto3)."""

import base64
import json
import os
import sys
import time

from boto3.dynamodb.types import TypeDeserializer


def main():
    page_dir = sys.argv[1]
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    names = sorted(n for n in os.listdir(page_dir) if n.endswith(".json"))
    pages = []
    for n in names:
        with open(os.path.join(page_dir, n), "rb") as f:
            pages.append(f.read())
    deser = TypeDeserializer()

    def blobs(value):
        # botocore's response parser turns B / BS base64 text into bytes before
        # TypeDeserializer sees them; do the same here.
        for t, v in value.items():
            if t == "B":
                value[t] = base64.b64decode(v)
            elif t == "BS":
                value[t] = [base64.b64decode(x) for x in v]
            elif t == "M":
                for x in v.values():
                    blobs(x)
            elif t == "L":
                for x in v:
                    blobs(x)
        return value

    def run(count):
        items = size = 0
        for _ in range(count):
            for body in pages:
                page = json.loads(body)
                decoded = [{k: deser.deserialize(blobs(v)) for k, v in item.items()}
                           for item in page["Items"]]
                items += len(decoded)
                size += len(body)
        return items, size

    run(1)
    start = time.perf_counter()
    cpu0 = time.process_time()
    items, size = run(iterations)
    cpu = time.process_time() - cpu0
    elapsed = time.perf_counter() - start
    print("boto3 pages=%d iterations=%d items=%d seconds=%.3f cpu_seconds=%.3f items_per_s=%.0f "
          "mb_per_s=%.1f cpu_items_per_s=%.0f"
          % (len(pages), iterations, items, elapsed, cpu, items / elapsed,
             size / elapsed / 2**20, items / cpu))


if __name__ == "__main__":
    main()
