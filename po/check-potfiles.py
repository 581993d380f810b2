#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails when a source file with translatable strings is missing from
po/POTFILES.in (or POTFILES.in names a file that does not exist), or when a
GError message in client/ is not marked for translation."""

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

# client/ is a library without a UI of its own: its messages reach the user
# through GErrors. A GError message written as a bare literal with words in it
# is an untranslated message. The message argument of GLib's error functions,
# and of a file's own G_GNUC_PRINTF helpers, must go through _(), N_(),
# g_dngettext() …, or carry no words ("%s: %s"). A call preceded by a comment
# starting "Not translated:" is exempt.
MESSAGE_ARG = {  # 0-based index of the message argument
    'g_set_error': 3, 'g_set_error_literal': 3, 'g_error_new': 2, 'g_error_new_literal': 2,
    'g_prefix_error': 1, 'g_prefix_error_literal': 1, 'g_propagate_prefixed_error': 2,
    'g_task_return_new_error': 3, 'g_task_return_new_error_literal': 3,
}
# Files of client/ that other branches of issue 9 are still translating: their
# unmarked messages are not reported yet. Once a file has none left, this check
# fails until it is dropped from here, and then checks it like the rest.
PENDING = set()
token = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|\S', re.S)
directive = re.compile(r'%(?:\d+\$)?[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[a-zA-Z%]')


def printf_helpers(tokens):
    """Functions declared with G_GNUC_PRINTF (n, m): name → 0-based format index."""
    found = {}
    for i, (_, text) in enumerate(tokens):
        if text != 'G_GNUC_PRINTF' or i + 5 >= len(tokens):
            continue
        index = int(tokens[i + 2][1]) - 1
        # Before a definition: G_GNUC_PRINTF (3, 4) static void name (…
        for j in range(i + 6, len(tokens) - 1):
            if tokens[j][1] in (';', '{', '('):
                break
            if tokens[j + 1][1] == '(' and re.match(r'[A-Za-z_]\w*$', tokens[j][1]):
                found[tokens[j][1]] = index
                break
        # After a prototype: … name (…) G_GNUC_PRINTF (2, 3);
        depth = 0
        for j in range(i - 1, 0, -1):
            if tokens[j][1] in (';', '{', '}'):
                break
            if tokens[j][1] == ')':
                depth += 1
            elif tokens[j][1] == '(':
                depth -= 1
                if depth == 0 and re.match(r'[A-Za-z_]\w*$', tokens[j - 1][1]):
                    found.setdefault(tokens[j - 1][1], index)
                    break
    return found


def forwarding_macros(source, helpers):
    """Function-like macros that hand their arguments on to a printf helper:
    #define fail_at(p, byte, ...) fail_with_position ((p), (byte), __VA_ARGS__, …)
    → name → 0-based index of the format among the macro's arguments."""
    found = {}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)', source, re.M):
        name, body = m.group(1), m.group(3)
        params = [p.strip() for p in m.group(2).split(',')]
        body_tokens = [(0, t.group()) for t in token.finditer(body)]
        for i, (_, text) in enumerate(body_tokens[:-1]):
            if text not in helpers or body_tokens[i + 1][1] != '(':
                continue
            args = call_arguments(body_tokens, i + 1)
            index = helpers[text]
            if index < len(args):
                arg = ''.join(t[1] for t in args[index]).strip('()')
                if arg == '__VA_ARGS__' and '...' in params:
                    found[name] = params.index('...')
                elif arg in params:
                    found[name] = params.index(arg)
            break
    return found


def call_arguments(tokens, start):
    """The arguments of the call whose '(' is tokens[start], as lists of tokens."""
    args, current, depth = [], [], 0
    for pos in range(start, len(tokens)):
        text = tokens[pos][1]
        if text in '([{':
            depth += 1
            if depth == 1:
                continue
        elif text in ')]}':
            depth -= 1
            if depth == 0:
                args.append(current)
                return args
        elif text == ',' and depth == 1:
            args.append(current)
            current = []
            continue
        current.append(tokens[pos])
    return args


def bare_messages(path, rel):
    with open(path, encoding='utf-8') as f:
        source = f.read()
    all_tokens = [(m.start(), m.group()) for m in token.finditer(source)]
    tokens = [t for t in all_tokens if not t[1].startswith(('/*', '//'))]
    exempt_before = {}
    for pos, text in all_tokens:
        if text.startswith(('/*', '//')) and 'Not translated:' in text[:40]:
            exempt_before[pos] = True
    functions = dict(MESSAGE_ARG)
    functions.update(header_helpers)
    functions.update(printf_helpers(tokens))
    # Helpers declared in a header beside the file (a -private.h shared by
    # the files of one part) count as well.
    for header in re.findall(r'^#include "([^"]+)"', source, re.M):
        header_path = os.path.join(os.path.dirname(path), header)
        if header.endswith('.h') and os.path.exists(header_path):
            with open(header_path, encoding='utf-8') as f:
                header_tokens = [(m.start(), m.group()) for m in token.finditer(f.read())]
            for name, index in printf_helpers([t for t in header_tokens
                                               if not t[1].startswith(('/*', '//'))]).items():
                functions.setdefault(name, index)
    functions.update(forwarding_macros(source, functions))
    problems = []
    for i, (pos, text) in enumerate(tokens[:-1]):
        if text not in functions or tokens[i + 1][1] != '(' or (i > 0 and tokens[i - 1][1] in ('.', '->')):
            continue
        if i > 1 and re.match(r'[A-Za-z_]\w*$', tokens[i - 1][1]) and tokens[i - 1][1] not in ('return', 'else'):
            continue    # a declaration or definition, not a call
        args = call_arguments(tokens, i + 1)
        index = functions[text]
        if index >= len(args) or not args[index] or not args[index][0][1].startswith('"'):
            continue
        words = ''.join(directive.sub('', t[1][1:-1]) for t in args[index] if t[1].startswith('"'))
        if not re.search(r'[A-Za-z]{2,}', words):
            continue
        previous = max((p for p in exempt_before if p < pos), default=-1)
        if previous >= 0 and not any(previous < t[0] < pos and t[1] == ';' for t in tokens):
            continue
        line = source.count('\n', 0, pos) + 1
        problems.append(f'{rel}:{line}: {text}() message is not marked for translation')
    return problems


# G_GNUC_PRINTF helpers that client/'s headers declare, such as
# _dyn_expr_set_error_at(), are checked in every file that calls them.
header_helpers = {}
for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'client')):
    dirnames[:] = [d for d in dirnames if not d.startswith('.')]
    for name in sorted(filenames):
        if name.endswith('.h'):
            with open(os.path.join(dirpath, name), encoding='utf-8') as f:
                header_tokens = [(m.start(), m.group()) for m in token.finditer(f.read())]
            header_helpers.update(printf_helpers([t for t in header_tokens if not t[1].startswith(('/*', '//'))]))

for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'client')):
    dirnames[:] = [d for d in dirnames if not d.startswith('.')]
    for name in sorted(filenames):
        if not name.endswith('.c'):
            continue
        rel = os.path.relpath(os.path.join(dirpath, name), root)
        problems = bare_messages(os.path.join(dirpath, name), rel)
        if rel in PENDING:
            if not problems:
                print(f'{rel} has no unmarked message left: remove it from PENDING in po/check-potfiles.py')
                status = 1
            continue
        for problem in problems:
            print(problem)
            status = 1

sys.exit(status)
