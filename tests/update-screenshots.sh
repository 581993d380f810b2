#!/usr/bin/env bash
# Regenerates the README screenshots: `meson compile -C _build screenshots`.
# Runs tests/test-screenshots.c, tests/test-window-nested.c, tests/test-window-design.c and
# tests/test-window-transfer.c, tests/test-window-tables.c, tests/test-window-guardrails.c and tests/test-window-signin.c (the real window
# against their own DynamoDB Local) with DYN_SCREENSHOT_DIR set, under Xvfb
# when there is no display, and copies the README's pictures into OUT_DIR.
# Usage: tests/update-screenshots.sh MESON BUILD_DIR OUT_DIR
set -euo pipefail
meson=$1 build=$2 out=$3
shots="grouped.png detail.png builder.png builder-filter-dark.png staged-diff.png conflict.png conflict-nested.png
  products.png movies.png shop.png sql-workbench.png sql-workbench-dark.png partiql.png partiql-dark.png
  design.png design-dark.png import.png create-table.png production.png sign-in.png sign-in-again.png"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  command -v xvfb-run >/dev/null || { echo "no display and no xvfb-run (apt-get install xvfb)" >&2; exit 1; }
  exec xvfb-run -a -s '-screen 0 1920x1200x24' "$0" "$@"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The same renderer as the test runs (build-aux/run-tests.sh).
GSK_RENDERER=${GSK_RENDERER:-cairo} GTK_A11Y=none DYN_SCREENSHOT_DIR=$tmp \
  "$meson" test -C "$build" --no-rebuild --print-errorlogs screenshots window-nested window-design window-transfer window-tables window-guardrails window-signin

mkdir -p "$out"
for f in $shots; do
  [ -s "$tmp/$f" ] || { echo "$f was not written" >&2; exit 1; }
  cp "$tmp/$f" "$out/$f"
  echo "$out/$f"
done
