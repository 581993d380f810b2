#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Decoding recorded 1 MB Query pages into items: Dynoscope (bench-decode) against
# boto3's TypeDeserializer and @aws-sdk/util-dynamodb's unmarshall on the same
# pages. All three include the JSON parse of the page body.
# Usage: bench/run-decode.sh [BUILD-DIR] [PAGE-DIR]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/_build}
pages=${2:-$build/bench/pages}
node_modules=$src/build-aux/node/node_modules

[ -f "$pages/page-00.json" ] || /usr/bin/python3 "$src/bench/make-pages.py" "$pages" 8 >/dev/null

dyn=$("$build/bench/bench-decode" "$pages" 30)
py=$(/usr/bin/python3 "$src/bench/bench_decode.py" "$pages" 2)
js=$(node "$src/bench/bench-decode.mjs" "$pages" 10 "$node_modules")

field () { printf '%s\n' "$1" | sed -n "s/.* $2=\([0-9.]*\).*/\1/p"; }

echo "Decoding $(ls "$pages"/*.json | wc -l) recorded Query pages of ~1 MB: JSON parse + items, all three"
echo "(items/s by wall clock and by the process's CPU time; the ratios use CPU time,"
echo " which is steadier on a shared machine)"
printf '%-26s %12s %12s %8s\n' implementation "items/s" "items/s CPU" "MB/s"
for r in "dynoscope (C)|$dyn" "boto3 TypeDeserializer|$py" "@aws-sdk/util-dynamodb|$js"; do
  name=${r%%|*}; line=${r#*|}
  printf '%-26s %12s %12s %8s\n' "$name" "$(field "$line" items_per_s)" \
    "$(field "$line" cpu_items_per_s)" "$(field "$line" mb_per_s)"
done
awk -v d="$(field "$dyn" cpu_items_per_s)" -v p="$(field "$py" cpu_items_per_s)" \
    -v j="$(field "$js" cpu_items_per_s)" -v dw="$(field "$dyn" items_per_s)" \
    -v pw="$(field "$py" items_per_s)" -v jw="$(field "$js" items_per_s)" 'BEGIN {
  printf "dynoscope/boto3 = %.1fx   dynoscope/js = %.1fx   (wall clock: %.1fx, %.1fx)\n",
         d / p, d / j, dw / pw, dw / jw }'
