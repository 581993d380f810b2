#!/usr/bin/env bash
# The window with 1,000,000 items: memory with every item loaded and after
# scrolling through every row. DynamoDB Local's Scan slows down past a few
# hundred thousand items, so the table is served by bench/serve-scan.py, which
# answers Scan pages as DynamoDB cuts them from the same generated items.
# Usage: bench/run-window-million.sh [BUILD_DIR] [ITEMS] [PAGES_PER_FRAME]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/_build}
build=$(cd "$build" && pwd)
n=${2:-1000000}
pages=${3:-20}

if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$build" "$n" "$pages"
fi
if [ -z "${DYN_BENCH_INSIDE:-}" ] && unshare -rn true 2>/dev/null; then
  exec env DYN_BENCH_INSIDE=1 unshare -rn bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$build" "$n" "$pages"
fi

port=${DYN_BENCH_PORT:-8767}
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" GTK_A11Y=none NO_AT_BRIDGE=1
export GSK_RENDERER=${GSK_RENDERER:-cairo}
tmp=$(mktemp -d)
export XDG_CONFIG_HOME=$tmp/config HOME=$tmp
/usr/bin/python3 "$here/data/demo/make-demo-data.py" "$tmp" --big "$n"
/usr/bin/python3 "$here/bench/serve-scan.py" "$port" Events "$tmp/Events.jsonl" PK SK > "$tmp/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 600); do grep -q listening "$tmp/server.log" && break; sleep 0.2; done

s=$(date +%s%N)
"$build/bench/bench-window" --scroll-pages "$pages" --endpoint "http://127.0.0.1:$port" Events > "$tmp/gui.log" 2>&1 || true
e=$(date +%s%N)
grep '^bench:' "$tmp/gui.log" > "$tmp/gui.bench" || { cat "$tmp/gui.log" >&2; exit 1; }
get() { awk -v k="$1" '$2 == k { print $3 }' "$tmp/gui.bench"; }
items=$(awk '$2 == "all-loaded" { print $4 }' "$tmp/gui.bench")
hwm=$(awk '/VmHWM/ { print $3 }' "$tmp/gui.bench")
rss=$(awk '/VmRSS/ { print $3 }' "$tmp/gui.bench")
echo "== Dynoscope window, $n items (bench/serve-scan.py, one run)"
printf '%-44s %10s\n' "items loaded" "$items"
printf '%-44s %10s\n' "memory at the first frame (VmRSS)" "$(( $(get rss-first-frame) / 1024 )) MB"
printf '%-44s %10s\n' "memory with every item loaded (VmRSS)" "$(( $(get rss-loaded) / 1024 )) MB"
printf '%-44s %10s\n' "peak memory (VmHWM, whole process)" "$((hwm / 1024)) MB"
printf '%-44s %10s\n' "memory after scrolling (VmRSS)" "$((rss / 1024)) MB"
printf '%-44s %10s\n' "start to the last row scrolled" "$(( (e - s) / 1000000000 )) s"
printf '%-44s %s\n' "scrolling through every row, $pages pages a frame" "$(grep '^bench: scroll' "$tmp/gui.bench" | sed 's/^bench: scroll //')"
grep '^bench: status' "$tmp/gui.bench" | sed 's/^bench: status /last status line: /'
