#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes N items of mixed types (~300 bytes each) as DynamoDB JSON lines for
bench/run-transfer.sh. Table key: id (S), n (N). Usage: transfer_gen.py N OUT"""
import base64, json, random, sys

n, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(14)
words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()
with open(out, "w") as f:
    for i in range(n):
        item = {
            "id": {"S": "cust-%06d" % (i // 4)},
            "n": {"N": str(i % 4)},
            "name": {"S": " ".join(rnd.choice(words) for _ in range(4)) + " Grüße"},
            "price": {"N": "%d.%02d" % (rnd.randrange(100000), rnd.randrange(100))},
            "big": {"N": "1234567890123456789012345678901234567%d" % (i % 10)},
            "active": {"BOOL": i % 3 == 0},
            "tags": {"SS": sorted(set(rnd.sample(words, 3)))},
            "scores": {"NS": sorted({str(rnd.randrange(1000)) for _ in range(3)})},
            "blob": {"B": base64.b64encode(rnd.randbytes(24)).decode()},
            "addr": {"M": {"city": {"S": rnd.choice(words).title()}, "zip": {"N": str(10000 + i % 90000)},
                           "lines": {"L": [{"S": "street %d" % i}, {"NULL": True}]}}},
        }
        if i % 7 == 0:
            item["note"] = {"S": ""}
        f.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")))
        f.write("\n")
