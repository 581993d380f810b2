#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails when po/LANG.po lacks a translation for a message of the current
sources, or has a fuzzy one. The sources are extracted afresh (as the glib
preset of meson's i18n module does), so a new string counts as untranslated
even before the .po file was updated."""

import os
import subprocess
import sys
import tempfile

root, lang = sys.argv[1], sys.argv[2]
po = os.path.join(root, 'po', lang + '.po')

keywords = ['--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
            '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3', '--keyword=g_dpgettext2:2c,3',
            '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format', '--flag=NC_:2:pass-c-format',
            '--flag=g_dngettext:2:pass-c-format', '--flag=g_strdup_printf:1:c-format',
            '--flag=g_string_printf:2:c-format', '--flag=g_string_append_printf:2:c-format',
            '--flag=g_error_new:3:c-format', '--flag=g_set_error:4:c-format',
            '--flag=g_markup_printf_escaped:1:c-format', '--flag=g_log:3:c-format',
            '--flag=g_print:1:c-format', '--flag=g_printerr:1:c-format', '--flag=g_printf:1:c-format',
            '--flag=g_fprintf:2:c-format', '--flag=g_sprintf:2:c-format',
            '--flag=g_snprintf:3:c-format']

with tempfile.TemporaryDirectory() as tmp:
    pot = os.path.join(tmp, 'messages.pot')
    merged = os.path.join(tmp, lang + '.po')
    subprocess.run(['xgettext', '--package-name=dynoscope', '--from-code=UTF-8', '--add-comments',
                    '--directory=' + root, '--files-from=' + os.path.join(root, 'po', 'POTFILES.in'),
                    '--output=' + pot] + keywords, check=True)
    subprocess.run(['msgfmt', '--check', '--output-file=/dev/null', po], check=True)
    subprocess.run(['msgmerge', '--quiet', '--no-fuzzy-matching', '--output-file=' + merged, po, pot],
                   check=True)
    stats = subprocess.run(['msgfmt', '--statistics', '--output-file=/dev/null', merged],
                           check=True, capture_output=True, text=True).stderr
    details = subprocess.run(['msgattrib', '--untranslated', '--only-fuzzy', '--no-obsolete', merged],
                             capture_output=True, text=True).stdout
    untranslated = subprocess.run(['msgattrib', '--untranslated', '--no-obsolete', merged],
                                  check=True, capture_output=True, text=True).stdout
    fuzzy = subprocess.run(['msgattrib', '--only-fuzzy', '--no-obsolete', merged],
                           check=True, capture_output=True, text=True).stdout

print(f'{lang}.po: {stats.strip()}')
if 'fuzzy' in stats or 'untranslated' in stats:
    print(untranslated)
    print(fuzzy)
    sys.exit(1)
