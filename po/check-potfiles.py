#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails when a source file with translatable strings is missing from
po/POTFILES.in (or POTFILES.in names a file that does not exist)."""

import os
import re
import sys

root = sys.argv[1]
marker = re.compile(r'(?<![A-Za-z0-9_])N?_\(|translatable="yes"')
# Desktop entries and AppStream files are translated as a whole.
always = ('.desktop.in', '.metainfo.xml.in')
skip_dirs = {'.git', 'po', 'tests', 'bench', 'build-aux', 'subprojects', 'node_modules'}

listed = set()
with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith('#'):
            listed.add(line)

found = set()
for dirpath, dirnames, filenames in os.walk(root):
    rel_dir = os.path.relpath(dirpath, root)
    dirnames[:] = [d for d in dirnames
                   if d not in skip_dirs and not d.startswith('_build') and not d.startswith('.')]
    for name in filenames:
        rel = os.path.normpath(os.path.join(rel_dir, name))
        if name.endswith(always):
            found.add(rel)
            continue
        if not name.endswith(('.c', '.h', '.ui')):
            continue
        with open(os.path.join(dirpath, name), encoding='utf-8', errors='replace') as f:
            if marker.search(f.read()):
                found.add(rel)

status = 0
for rel in sorted(found - listed):
    print(f'not in po/POTFILES.in: {rel}')
    status = 1
for rel in sorted(listed):
    if not os.path.exists(os.path.join(root, rel)):
        print(f'in po/POTFILES.in but missing: {rel}')
        status = 1
sys.exit(status)
