#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The layers hold: app/ -> widgets/ -> client/, and inside client/
sql/, partiql/, design/, admin/, transfer/ -> table/ -> expr/ -> signin/ -> aws/ -> values/ -> dyn-error. No file includes a file of a
layer above its own, client/ includes no GTK, and no two units (a .c with its
.h and -private.h) include each other, directly or around a circle."""

import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'

# Higher number = higher layer.
RANK = {
    'client': 0,
    'client/values': 1,
    'client/aws': 2,
    'client/signin': 3,
    'client/expr': 4,
    'client/table': 5,
    'client/sql': 6,
    'client/partiql': 6,
    'client/design': 6,
    'client/admin': 6,
    'client/transfer': 6,
    'widgets': 7,
    'app': 8,
}
include_re = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)

files = {}
for folder in RANK:
    path = os.path.join(root, folder)
    for name in sorted(os.listdir(path)):
        if name.endswith(('.c', '.h')):
            files[name] = folder

def unit(name):
    base = name[:-2]
    for suffix in ('-private', '-resources'):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
    return base

problems = []
edges = {}
for name, folder in files.items():
    with open(os.path.join(root, folder, name), encoding='utf-8') as f:
        text = f.read()
    for kind, inc in include_re.findall(text):
        if folder.startswith('client') and kind == '<' and re.match(r'(gtk|gdk|adwaita|gtksourceview)', inc):
            problems.append(f'{folder}/{name}: client/ must not include <{inc}>')
        target = os.path.basename(inc)
        if kind != '"' or target not in files:
            continue
        tfolder = files[target]
        if RANK[tfolder] > RANK[folder]:
            problems.append(f'{folder}/{name} includes {tfolder}/{target}, a layer above it')
        a, b = unit(name), unit(target)
        if a != b:
            edges.setdefault(a, set()).add(b)

# Circles between units (Tarjan's strongly connected components).
index = {}
low = {}
stack = []
on_stack = set()
counter = [0]
sys.setrecursionlimit(10000)

def strongconnect(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on_stack.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            strongconnect(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            problems.append('include circle: ' + ' <-> '.join(sorted(component)))

for v in sorted(edges):
    if v not in index:
        strongconnect(v)

for p in problems:
    print(p)
print(f'{len(files)} files, {sum(len(e) for e in edges.values())} include arrows between units, '
      f'{len(problems)} problems')
sys.exit(1 if problems else 0)
