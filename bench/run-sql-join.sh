#!/usr/bin/env bash
# The SQL Workbench's join of 1,000 outer rows to their item collections
# (dynoscope-cli sql: one Query per distinct key, 16 in flight) against a
# hand-written boto3 loop making the same reads one after the other, in the same
# run on DynamoDB Local. Prints seconds, the ratio and each one's peak memory.
# Usage: bench/run-sql-join.sh [BUILD_DIR] [OUTER_ROWS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/_build}
n=${2:-1000}
port=${DYN_BENCH_PORT:-8766}
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
pid=$(bash "$here/build-aux/ddb-local.sh" "$port")
ep=http://127.0.0.1:$port
cli() { "$build/app/dynoscope-cli" --endpoint "$ep" "$@"; }

cli create-table Links --pk PK:S --sk SK:S >/dev/null
cli create-table Workspaces --pk EntityRef:S --sk Detail:S >/dev/null
python3 - "$n" "$tmp" <<'PY'
import json, sys
n, tmp = int(sys.argv[1]), sys.argv[2]
with open(f"{tmp}/links.jsonl", "w") as f:
    for i in range(n):
        f.write(json.dumps({"PK": {"S": "LIST"}, "SK": {"S": f"L#{i:05d}"}, "target": {"S": f"WS#{i:05d}"}}) + "\n")
with open(f"{tmp}/ws.jsonl", "w") as f:
    for i in range(n):
        f.write(json.dumps({"EntityRef": {"S": f"WS#{i:05d}"}, "Detail": {"S": "META"}, "title": {"S": f"Workspace {i}"}}) + "\n")
        for p in range(4):
            f.write(json.dumps({"EntityRef": {"S": f"WS#{i:05d}"}, "Detail": {"S": f"PROJ#{p}"},
                                "title": {"S": f"Project {i}.{p}"}, "budget": {"N": f"{i}.{p}5"}}) + "\n")
PY
cli batch-write Links < "$tmp/links.jsonl" 2>/dev/null
cli batch-write Workspaces < "$tmp/ws.jsonl" 2>/dev/null

sql="SELECT l.target, w.Detail, w.title FROM Links l JOIN Workspaces w ON w.EntityRef = l.target WHERE l.PK = 'LIST'"
measure() { # name command...
  local s e
  s=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$tmp/$1.rss" "${@:2}" > "$tmp/$1.out" 2> "$tmp/$1.err"
  e=$(date +%s.%N)
  echo "$1 $(echo "$e - $s" | bc) $(wc -l < "$tmp/$1.out") $(tail -1 "$tmp/$1.rss")"
}
cli sql "$sql" > /dev/null   # warm the server
{
  measure dynoscope "$build/app/dynoscope-cli" --endpoint "$ep" --stats sql "$sql"
  measure boto3 /usr/bin/python3 "$here/bench/sql_join_boto3.py" "$ep" Links Workspaces
} > "$tmp/results"
grep -h requests "$tmp/dynoscope.err" | sed 's/^/dynoscope-cli: /'
awk '{ t[$1]=$2; c[$1]=$3; m[$1]=$4 }
  END {
    printf "%-10s %9s %8s %12s\n", "reader", "seconds", "rows", "peak RSS KB";
    printf "%-10s %9.2f %8d %12d\n", "dynoscope", t["dynoscope"], c["dynoscope"], m["dynoscope"];
    printf "%-10s %9.2f %8d %12d\n", "boto3", t["boto3"], c["boto3"], m["boto3"];
    printf "dynoscope is %.2fx as fast as the boto3 loop\n", t["boto3"] / t["dynoscope"];
    if (c["dynoscope"] != c["boto3"]) print "warning: the row counts differ";
  }' "$tmp/results"
