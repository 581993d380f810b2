#!/usr/bin/env bash
# The window against a 100,000-item table on DynamoDB Local, in one run:
# time to the first rows on screen and to all rows loaded (against
# `dynoscope-cli scan` of the same table), peak memory, start-up to the first
# drawn frame, and frame times while scrolling through every row.
# The window is bench/bench-window.c: Dynoscope's application and window (the
# app library, the same command line as `dynoscope`), measured from outside
# through the frame clock and the window's getters; the window itself keeps no
# benchmark state.
# Usage: bench/run-window.sh [BUILD_DIR] [ITEMS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/_build}
build=$(cd "$build" && pwd)
n=${2:-100000}

# A display (Xvfb) and a private network namespace for DynamoDB Local.
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$build" "$n"
fi
if [ -z "${DYN_BENCH_INSIDE:-}" ] && unshare -rn true 2>/dev/null; then
  exec env DYN_BENCH_INSIDE=1 unshare -rn bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$build" "$n"
fi

port=${DYN_BENCH_PORT:-8766}
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" GTK_A11Y=none NO_AT_BRIDGE=1
export GSK_RENDERER=${GSK_RENDERER:-cairo}
tmp=$(mktemp -d)
export XDG_CONFIG_HOME=$tmp/config HOME=$tmp
pid=$(bash "$here/build-aux/ddb-local.sh" "$port")
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
ep=http://127.0.0.1:$port
cli() { "$build/app/dynoscope-cli" --endpoint "$ep" "$@"; }
now() { echo $(( $(date +%s%N) / 1000 )); }   # µs, as bench-window prints
ms() { echo "scale=1; ($2 - $1) / 1000" | bc; }

/usr/bin/python3 "$here/data/demo/make-demo-data.py" "$tmp" --big "$n"
cli create-table Events --pk PK:S --sk SK:S >/dev/null
cli batch-write Events < "$tmp/Events.jsonl" >/dev/null
cli scan Events > /dev/null   # warm the server once

# The CLI: process start to the last item printed.
s=$(now); cli scan Events > "$tmp/cli.out"; e=$(now)
cli_ms=$(ms "$s" "$e"); cli_items=$(wc -l < "$tmp/cli.out")

# Start-up: process start to the first frame drawn (no table), best of 3.
best=""
for _ in 1 2 3; do
  s=$(now)
  "$build/bench/bench-window" --startup-only > "$tmp/start.log" 2>&1 || true
  f=$(awk '/^bench: first-frame/ { print $3 }' "$tmp/start.log")
  [ -n "$f" ] || { cat "$tmp/start.log" >&2; exit 1; }
  t=$(ms "$s" "$f")
  if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
startup_ms=$best

# The floor: an empty libadwaita window, measured the same way, best of 3.
best=""
for _ in 1 2 3; do
  s=$(now)
  f=$("$build/bench/bench-min-window" | awk '/^bench: first-frame/ { print $3 }')
  t=$(ms "$s" "$f")
  if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
floor_ms=$best

# The window: open the table, read every page, then scroll through all rows.
s=$(now)
"$build/bench/bench-window" --scroll-pages "${DYN_BENCH_SCROLL_PAGES:-3}" --endpoint "$ep" Events > "$tmp/gui.log" 2>&1 || true
grep '^bench:' "$tmp/gui.log" > "$tmp/gui.bench" || { cat "$tmp/gui.log" >&2; exit 1; }
get() { awk -v k="$1" '$2 == k { print $3 }' "$tmp/gui.bench"; }
first_page=$(get first-page); first_rows=$(get first-rows); all=$(get all-loaded)
gui_items=$(awk '$2 == "all-loaded" { print $4 }' "$tmp/gui.bench")
scroll=$(grep '^bench: scroll' "$tmp/gui.bench" | sed 's/^bench: scroll //')
hwm=$(awk '/VmHWM/ { print $3 }' "$tmp/gui.bench")
rss=$(awk '/VmRSS/ { print $3 }' "$tmp/gui.bench")
rss_first=$(get rss-first-frame); rss_loaded=$(get rss-loaded)

echo "== Dynoscope window, $n items (DynamoDB Local, one run)"
printf '%-44s %10s\n' "start-up to the first drawn frame (best of 3)" "$startup_ms ms"
printf '%-44s %10s\n' "  an empty libadwaita window, same way" "$floor_ms ms"
printf '%-44s %10s\n' "  Dynoscope / empty window" "$(echo "scale=2; $startup_ms / $floor_ms" | bc)x"
printf '%-44s %10s\n' "open table: first page arrived" "$(ms "$s" "$first_page") ms"
printf '%-44s %10s\n' "open table: first rows on screen" "$(ms "$s" "$first_rows") ms"
printf '%-44s %10s\n' "  rows on screen after the page arrived" "$(ms "$first_page" "$first_rows") ms"
printf '%-44s %10s\n' "open table: all rows loaded ($gui_items)" "$(ms "$s" "$all") ms"
printf '%-44s %10s\n' "dynoscope-cli scan ($cli_items items)" "$cli_ms ms"
printf '%-44s %10s\n' "window / CLI" "$(echo "scale=2; $(ms "$s" "$all") / $cli_ms" | bc)x"
printf '%-44s %10s\n' "peak memory (VmHWM, whole process)" "$((hwm / 1024)) MB"
printf '%-44s %10s\n' "memory at the first frame (VmRSS)" "$((rss_first / 1024)) MB"
printf '%-44s %10s\n' "memory with every item loaded (VmRSS)" "$((rss_loaded / 1024)) MB"
printf '%-44s %10s\n' "  per item above the first frame" "$(( (rss_loaded - rss_first) * 1024 / n )) bytes"
printf '%-44s %10s\n' "memory after scrolling (VmRSS)" "$((rss / 1024)) MB"
printf '%-44s %s\n' "scrolling through every row" "$scroll"
grep '^bench: heap' "$tmp/gui.bench" | sed 's/^bench: /malloc /'
grep '^bench: status' "$tmp/gui.bench" | sed 's/^bench: status /last status line: /'
