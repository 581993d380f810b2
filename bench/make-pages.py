#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes deterministic DynamoDB Query response pages (~1 MB each) for the
decode benchmark: page-00.json … page-NN.json in the given directory."""

import base64
import json
import os
import random
import sys

PAGE_BYTES = 1024 * 1024
WORDS = ("alpha beta gamma delta workspace project enrollment student course "
         "Müller Straße İstanbul çalışma öğrenci 東京 naïve café").split()


def rand_text(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def rand_number(rng):
    kind = rng.random()
    if kind < 0.4:
        return str(rng.randint(-10**6, 10**6))
    if kind < 0.7:
        return "%d.%02d" % (rng.randint(0, 99999), rng.randint(0, 99))
    if kind < 0.85:
        # 38 significant digits
        digits = str(rng.randint(10**37, 10**38 - 1))
        point = rng.randint(1, 37)
        return ("-" if rng.random() < 0.3 else "") + digits[:point] + "." + digits[point:]
    return str(rng.randint(10**37, 10**38 - 1))


def rand_b64(rng, lo, hi):
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(rng.randint(lo, hi)))).decode()


def make_item(rng, ws, i):
    item = {
        "PK": {"S": "WS#%05d" % ws},
        "SK": {"S": "PROJ#%06d" % i if i else "META"},
        "type": {"S": "project"},
        "title": {"S": rand_text(rng, 2, 6)},
        "description": {"S": rand_text(rng, 8, 30)},
        "createdAt": {"S": "2024-%02d-%02dT%02d:%02d:%02dZ" % (
            rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
            rng.randint(0, 59), rng.randint(0, 59))},
        "views": {"N": str(rng.randint(0, 10**7))},
        "price": {"N": rand_number(rng)},
        "ledger": {"N": rand_number(rng)},
        "active": {"BOOL": rng.random() < 0.5},
        "archivedAt": {"NULL": True},
        "tags": {"SS": sorted(set(rng.choice(WORDS) for _ in range(rng.randint(1, 5))))},
        "scores": {"NS": sorted(set(str(rng.randint(0, 1000)) for _ in range(rng.randint(1, 6))))},
        "owner": {"M": {
            "name": {"S": rand_text(rng, 1, 3)},
            "email": {"S": "user%d@example.org" % rng.randint(1, 10**6)},
            "level": {"N": str(rng.randint(1, 9))},
            "address": {"M": {
                "street": {"S": rand_text(rng, 1, 3)},
                "zip": {"S": "%05d" % rng.randint(0, 99999)},
            }},
        }},
        "history": {"L": [
            {"M": {"at": {"N": str(1700000000 + rng.randint(0, 10**7))},
                   "what": {"S": rng.choice(("created", "renamed", "moved"))}}}
            for _ in range(rng.randint(0, 4))
        ]},
        "thumb": {"B": rand_b64(rng, 8, 48)},
    }
    if rng.random() < 0.3:
        item["keys"] = {"BS": sorted(set(rand_b64(rng, 4, 12) for _ in range(rng.randint(1, 3))))}
    return item


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "pages"
    n_pages = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20240607)
    ws = 0
    for p in range(n_pages):
        items = []
        size = 200
        i = 0
        while size < PAGE_BYTES - 4096:
            if i % 50 == 0:
                ws += 1
            item = make_item(rng, ws, i % 50)
            text = json.dumps(item, ensure_ascii=False, separators=(",", ":"))
            size += len(text.encode()) + 1
            items.append(item)
            i += 1
        last = items[-1]
        body = {
            "Count": len(items),
            "Items": items,
            "LastEvaluatedKey": {"PK": last["PK"], "SK": last["SK"]},
            "ScannedCount": len(items),
        }
        path = os.path.join(out, "page-%02d.json" % p)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(body, f, ensure_ascii=False, separators=(",", ":"))
    print("wrote %d pages to %s" % (n_pages, out))


if __name__ == "__main__":
    main()
