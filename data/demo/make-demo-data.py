#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the demo data set as DynamoDB JSON lines, one file per table.

Workspaces: the 1:n seed (a workspace and its projects share EntityRef;
Detail is META or PROJ#<zero-padded, time-ordered id>), with a sharded
workspace WS#bigco#01..10 and GSI1 listing projects across workspaces.
School: the n:m seed (students and courses, enrolment edges keyed by student,
inverted GSI1 keyed by course).
Products: a catalogue without a sort key (ProductId S): prices, string and
number sets, a binary thumbnail, nested dimensions, an empty string, a
number of 20 digits.
Movies: like the AWS sample (year N, title S), each with a nested info map.
Shop: customers and their orders under generic PK/SK keys without '#', told
apart by an EntityType attribute; addresses, lines and payments nest deeply.
Events (with --big N): a wide table for paging and benchmarks.
Deterministic: the same files every run."""
import base64, json, random, sys, os, unicodedata

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

def B(data): return {"B": base64.b64encode(data).decode()}
def SS(*v): return {"SS": list(v)}
def NS(*v): return {"NS": [str(x) for x in v]}
def L(*v): return {"L": list(v)}
def M(**v): return {"M": v}
def BOOL(v): return {"BOOL": v}

def thumbnail(rnd, w, h):
    """A tiny deterministic 'image': a PNG signature and header, then noise."""
    head = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + w.to_bytes(4, "big") + h.to_bytes(4, "big")
    return head + bytes(rnd.randrange(256) for _ in range(48))

def products():
    rnd = random.Random(4)
    catalogue = [
        ("Linen shirt", "apparel", ["white", "sand", "navy"], [38, 40, 42, 44]),
        ("Rain jacket", "apparel", ["black", "olive"], [46, 48, 50, 52, 54]),
        ("Wool socks", "apparel", ["grey"], [39, 43, 47]),
        ("Trail shoes", "footwear", ["blue", "red"], [40, 41, 42, 43, 44, 45]),
        ("Espresso cups, set of 4", "kitchen", ["white"], []),
        ("Cast iron pan", "kitchen", ["black"], [24, 28]),
        ("Chef's knife", "kitchen", [], [20]),
        ("Desk lamp", "home", ["brass", "black"], []),
        ("Reading chair", "home", ["teal", "rust", "grey"], []),
        ("Wall clock", "home", ["oak"], [30]),
        ("Notebook A5", "office", ["red", "blue", "green", "black"], []),
        ("Fountain pen", "office", ["black"], []),
        ("Board game: Harbours", "toys", [], []),
        ("Wooden train set", "toys", [], []),
        ("Puzzle, 1000 pieces", "toys", [], []),
        ("Yoga mat", "sport", ["purple", "green"], [183]),
        ("Water bottle", "sport", ["steel", "white"], [500, 750, 1000]),
        ("Bike light", "sport", [], []),
    ]
    out = []
    for i, (name, category, colors, sizes) in enumerate(catalogue):
        item = {"ProductId": S("P-%04d" % (1001 + i)), "Name": S(name), "Category": S(category),
                "Price": N("%d.%02d" % (rnd.randrange(4, 400), rnd.choice([0, 50, 90, 95, 99]))),
                "Stock": N(rnd.randrange(0, 900)),
                "InStock": BOOL(rnd.random() > 0.15),
                "Tags": SS(*sorted(rnd.sample(["new", "sale", "eco", "bestseller", "gift", "limited"], 2))),
                "Dimensions": M(w=N(rnd.randrange(5, 90)), h=N(rnd.randrange(5, 90)), d=N(rnd.randrange(1, 40)),
                                unit=S("cm")),
                "Thumbnail": B(thumbnail(rnd, 64, 64))}
        if colors:
            item["Colors"] = SS(*colors)
        if sizes:
            item["Sizes"] = NS(*sizes)
        out.append(item)
    # Values a reader must tell apart: an empty string, empty binary, a
    # label stored as text in binary, a 20-digit counter.
    out.append({"ProductId": S("P-2001"), "Name": S("Gift card"), "Category": S("gift"),
                "Price": N("25"), "Description": S(""), "Thumbnail": B(b""),
                "Barcode": B(b"GIFT-2001-EU"), "UnitsSold": N("12345678901234567890")})
    return out

def movies():
    rnd = random.Random(5)
    films = [
        (2010, "Inception", ["Christopher Nolan"], ["Action", "Sci-Fi"]),
        (2010, "The Social Network", ["David Fincher"], ["Biography", "Drama"]),
        (2010, "Black Swan", ["Darren Aronofsky"], ["Drama", "Thriller"]),
        (2010, "Toy Story 3", ["Lee Unkrich"], ["Animation", "Comedy"]),
        (2011, "Drive", ["Nicolas Winding Refn"], ["Crime", "Drama"]),
        (2011, "Hugo", ["Martin Scorsese"], ["Adventure", "Family"]),
        (2011, "Moneyball", ["Bennett Miller"], ["Biography", "Sport"]),
        (2011, "The Artist", ["Michel Hazanavicius"], ["Comedy", "Romance"]),
        (2012, "Argo", ["Ben Affleck"], ["Drama", "Thriller"]),
        (2012, "Skyfall", ["Sam Mendes"], ["Action", "Thriller"]),
        (2012, "Looper", ["Rian Johnson"], ["Action", "Sci-Fi"]),
        (2012, "Life of Pi", ["Ang Lee"], ["Adventure", "Drama"]),
        (2013, "Rush", ["Ron Howard"], ["Biography", "Sport"]),
        (2013, "Gravity", ["Alfonso Cuarón"], ["Drama", "Sci-Fi"]),
        (2013, "Prisoners", ["Denis Villeneuve"], ["Crime", "Thriller"]),
        (2013, "Her", ["Spike Jonze"], ["Drama", "Romance"]),
        (2013, "Frozen", ["Chris Buck", "Jennifer Lee"], ["Animation", "Family"]),
        (2014, "Interstellar", ["Christopher Nolan"], ["Adventure", "Sci-Fi"]),
        (2014, "Whiplash", ["Damien Chazelle"], ["Drama", "Music"]),
        (2014, "Boyhood", ["Richard Linklater"], ["Drama"]),
        (2014, "The Grand Budapest Hotel", ["Wes Anderson"], ["Comedy", "Drama"]),
        (2014, "Gone Girl", ["David Fincher"], ["Mystery", "Thriller"]),
    ]
    out = []
    for rank, (year, title, directors, genres) in enumerate(films, 1):
        out.append({"year": N(year), "title": S(title),
                    "info": M(directors=L(*[S(d) for d in directors]),
                              release_date=S("%d-%02d-%02dT00:00:00Z" % (year, rnd.randrange(1, 13), rnd.randrange(1, 29))),
                              rating=N("%d.%d" % (rnd.randrange(6, 9), rnd.randrange(10))),
                              genres=L(*[S(g) for g in genres]),
                              rank=N(rank),
                              running_time_secs=N(60 * rnd.randrange(90, 170)))})
    return out

def shop():
    rnd = random.Random(6)
    customers = [("c1001", "Ayşe Demir", "Ankara"), ("c1002", "Jonas Weber", "Leipzig"),
                 ("c1003", "Mia Laurent", "Lyon"), ("c1004", "Tom Baker", "Leeds")]
    out = []
    order = 5001
    for cid, name, city in customers:
        out.append({"PK": S(cid), "SK": S(cid), "EntityType": S("customer"), "Name": S(name),
                    "Email": S(unicodedata.normalize("NFKD", name.split()[0].lower()).encode("ascii", "ignore").decode()
                               + "@shop.example"),
                    "Address": M(city=S(city), street=S("%s %d" % (rnd.choice(["Park", "Linden", "Mill"]), rnd.randrange(1, 90))),
                                 geo=M(lat=N("%.4f" % rnd.uniform(40, 55)), lon=N("%.4f" % rnd.uniform(-2, 33)))),
                    "Preferences": M(newsletter=BOOL(rnd.random() > 0.5),
                                     channels=SS(*sorted(rnd.sample(["email", "sms", "push"], 2))),
                                     ui=M(theme=S(rnd.choice(["light", "dark"])), density=S("compact")))})
        for _ in range(rnd.randrange(2, 5)):
            lines = []
            for n in range(rnd.randrange(1, 4)):
                lines.append(M(sku=S("P-%04d" % rnd.randrange(1001, 1019)), qty=N(rnd.randrange(1, 4)),
                               price=N("%d.%02d" % (rnd.randrange(4, 200), rnd.choice([0, 50, 99]))),
                               options=M(gift=BOOL(n == 0 and rnd.random() > 0.6),
                                         engraving=M(text=S(rnd.choice(["For you", "Happy birthday", ""])),
                                                     font=S("serif")))))
            out.append({"PK": S(cid), "SK": S("o%d" % order), "EntityType": S("order"),
                        "Status": S(rnd.choice(["placed", "shipped", "delivered"])),
                        "PlacedAt": S("2026-0%d-%02dT%02d:%02d:00Z" % (rnd.randrange(1, 10), rnd.randrange(1, 29),
                                                                      rnd.randrange(24), rnd.randrange(60))),
                        "Lines": L(*lines),
                        "Payment": M(method=S("card"), card=M(brand=S(rnd.choice(["visa", "mastercard"])),
                                                              last4=S("%04d" % rnd.randrange(10000))))})
            order += 1
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
    write(os.path.join(outdir, "Products.jsonl"), products())
    write(os.path.join(outdir, "Movies.jsonl"), movies())
    write(os.path.join(outdir, "Shop.jsonl"), shop())
    if "--big" in sys.argv:
        n = int(sys.argv[sys.argv.index("--big") + 1])
        write(os.path.join(outdir, "Events.jsonl"), events(n))
