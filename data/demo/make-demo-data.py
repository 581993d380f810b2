#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the demo data set as DynamoDB JSON lines, one file per table.

Workspaces: the 1:n seed (a workspace and its projects share EntityRef;
Detail is META or PROJ#<zero-padded, time-ordered id>), with a sharded
workspace WS#bigco#01..10 and GSI1 listing projects across workspaces.
School: the n:m seed (students and courses, enrolment edges keyed by student,
inverted GSI1 keyed by course).
Events (with --big N): a wide table for paging and benchmarks.
Deterministic: the same files every run."""
import json, random, sys, os

def S(v): return {"S": v}
def N(v): return {"N": str(v)}

def workspaces():
    rnd = random.Random(1)
    out = []
    names = {"acme": "Acme Corp", "globex": "Globex", "initech": "Initech"}
    plans = ["free", "team", "enterprise"]
    statuses = ["active", "paused", "archived"]
    for i, (slug, title) in enumerate(names.items()):
        ws = "WS#" + slug
        out.append({"EntityRef": S(ws), "Detail": S("META"), "Name": S(title),
                    "Plan": S(plans[i % 3]), "Owner": S("owner@%s.example" % slug),
                    "CreatedAt": S("2025-0%d-01T09:00:00Z" % (i + 1))})
        for p in range(1, (42 if slug == "acme" else 12) + 1):
            pid = "PROJ#2026-%04d" % p
            out.append({"EntityRef": S(ws), "Detail": S(pid),
                        "Name": S("%s project %d" % (title, p)),
                        "Status": S(statuses[rnd.randrange(3)]),
                        "Budget": N("%d.%02d" % (rnd.randrange(1000, 90000), rnd.randrange(100))),
                        "Tags": {"SS": sorted(rnd.sample(["web", "mobile", "data", "infra", "ml", "ops"], 2))},
                        "GSI1PK": S("PROJECT"), "GSI1SK": S("2026-%04d#%s" % (p, slug))})
    # The hot workspace, sharded over ten partition keys.
    for shard in range(1, 11):
        ws = "WS#bigco#%02d" % shard
        out.append({"EntityRef": S(ws), "Detail": S("META"), "Name": S("BigCo shard %02d" % shard)})
        for p in range(shard, 200, 10):
            out.append({"EntityRef": S(ws), "Detail": S("PROJ#2026-%04d" % p),
                        "Name": S("BigCo project %d" % p), "Status": S(statuses[p % 3]),
                        "GSI1PK": S("PROJECT"), "GSI1SK": S("2026-%04d#bigco" % p)})
    # Values that plain tools get wrong.
    out.append({"EntityRef": S("WS#acme"), "Detail": S("PROJ#2026-9999"),
                "Name": S("Precision check"), "Status": S("active"),
                "Exact": N("12345678901234567890.123456789012345678"),
                "Tiny": N("1E-130"), "Scores": {"NS": ["1", "2.5", "99999999999999999999999999999999999999"]},
                "Blob": {"B": "AAECAwQ="}, "Nested": {"M": {"a": {"L": [N(1), S("x"), {"BOOL": True}, {"NULL": True}]}}},
                "GSI1PK": S("PROJECT"), "GSI1SK": S("2026-9999#acme")})
    return out

def school():
    rnd = random.Random(2)
    out = []
    students = ["a91", "b17", "c42", "d08", "e33", "f71"]
    courses = {"math204": "Linear Algebra", "cs101": "Programming I", "phy110": "Mechanics", "bio230": "Genetics"}
    for s in students:
        out.append({"PK": S("STU#" + s), "SK": S("PROFILE"), "Name": S("Student " + s.upper()),
                    "Year": N(rnd.randrange(1, 5))})
    for c, title in courses.items():
        out.append({"PK": S("CRS#" + c), "SK": S("META"), "Title": S(title), "Credits": N(rnd.choice([5, 6, 8]))})
    for s in students:
        for c in rnd.sample(sorted(courses), 2) + (["math204"] if s == "a91" else []):
            if any(i["PK"]["S"] == "STU#" + s and i["SK"]["S"] == "ENROLL#CRS#" + c for i in out):
                continue
            out.append({"PK": S("STU#" + s), "SK": S("ENROLL#CRS#" + c),
                        "GSI1PK": S("CRS#" + c), "GSI1SK": S("STU#" + s),
                        "Grade": S(rnd.choice(["A", "B", "C", "pending"])),
                        "EnrolledOn": S("2026-09-%02d" % rnd.randrange(1, 28))})
    return out

def events(n):
    rnd = random.Random(3)
    kinds = ["click", "view", "purchase", "signup", "logout"]
    for i in range(n):
        yield {"PK": S("USER#%05d" % (i % 5000)), "SK": S("EVT#%08d" % i),
               "Kind": S(kinds[i % 5]), "Amount": N("%d.%02d" % (rnd.randrange(0, 500), rnd.randrange(100))),
               "At": S("2026-11-%02dT%02d:%02d:00Z" % (1 + i % 28, i % 24, i % 60)),
               "Payload": S("x" * rnd.randrange(20, 120))}

def write(path, items):
    with open(path, "w") as f:
        for it in items:
            f.write(json.dumps(it, separators=(",", ":")) + "\n")

if __name__ == "__main__":
    outdir = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(outdir, exist_ok=True)
    write(os.path.join(outdir, "Workspaces.jsonl"), workspaces())
    write(os.path.join(outdir, "School.jsonl"), school())
    if "--big" in sys.argv:
        n = int(sys.argv[sys.argv.index("--big") + 1])
        write(os.path.join(outdir, "Events.jsonl"), events(n))
