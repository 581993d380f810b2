#!/usr/bin/env bash
# Scanning a 100,000-item table on DynamoDB Local: dynoscope-cli with 1 and 4 segments
# against a boto3 paginator and `aws dynamodb scan`, in the same run. Prints seconds,
# items/s and ratios. Usage: bench/run-scan.sh [BUILD_DIR] [ITEMS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/_build}
n=${2:-100000}
port=${DYN_BENCH_PORT:-8765}
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
pid=$(bash "$here/build-aux/ddb-local.sh" "$port")
ep=http://127.0.0.1:$port
cli() { "$build/app/dynoscope-cli" --endpoint "$ep" "$@"; }

/usr/bin/python3 "$here/data/demo/make-demo-data.py" "$tmp" --big "$n"
cli create-table Events --pk PK:S --sk SK:S >/dev/null
t0=$(date +%s.%N); cli batch-write Events < "$tmp/Events.jsonl"; t1=$(date +%s.%N)
echo "loaded $n items in $(echo "$t1 - $t0" | bc) s"

time_it() { # name command...
  local s e c
  s=$(date +%s.%N); "${@:2}" > "$tmp/out" 2>"$tmp/err" || { echo "$1 failed:" >&2; tail -5 "$tmp/err" >&2; }; e=$(date +%s.%N)
  c=$(wc -l < "$tmp/out")
  printf '%s %s %s\n' "$1" "$(echo "$e - $s" | bc)" "$c"
}
# Warm the server's caches once, then measure each reader.
cli scan Events > /dev/null
{
  time_it dynoscope-1 cli scan Events
  time_it dynoscope-4 cli scan Events --segments 4
  time_it boto3 /usr/bin/python3 "$here/bench/scan_boto3.py" "$ep" Events
  time_it aws-cli aws dynamodb scan --endpoint-url "$ep" --table-name Events --output json
} > "$tmp/results"
# The AWS CLI prints one JSON document; count its items instead of lines.
awk -v n="$n" '
  { t[$1]=$2; c[$1]=$3 }
  END {
    printf "%-14s %9s %12s %10s\n", "reader", "seconds", "items/s", "vs boto3";
    split("dynoscope-1 dynoscope-4 boto3 aws-cli", order, " ");
    for (i = 1; i <= 4; i++) { k = order[i];
      printf "%-14s %9.2f %12.0f %9.2fx\n", k, t[k], n / t[k], t["boto3"] / t[k] }
    printf "dynoscope-1 vs aws-cli: %.2fx, dynoscope-4 vs aws-cli: %.2fx\n", t["aws-cli"] / t["dynoscope-1"], t["aws-cli"] / t["dynoscope-4"];
  }' "$tmp/results"
grep -E '^dynoscope' "$tmp/results" | awk -v n="$n" '$3 != n { print "warning: " $1 " printed " $3 " items, expected " n }'
