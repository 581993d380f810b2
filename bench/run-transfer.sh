#!/usr/bin/env bash
# Import and export of 100,000 items (~300 bytes, mixed types) on DynamoDB Local, in one run:
#   import: dynoscope-cli import vs boto3 table.batch_writer() reading the same file vs the AWS CLI
#           (`aws dynamodb batch-write-item` per 25 items: one process per request, so it runs on a
#           5,000-item slice and its items/s is compared);
#   export: dynoscope-cli export (ddb-json, 1 and 4 segments) vs a boto3 paginated Scan writing the
#           same lines vs `aws dynamodb scan` (one process paginating).
# Prints seconds, items/s, ratios (peer time per item / ours) and the peak RSS of each process, and
# ours at N and 2N items to show that memory does not grow with the file. Every peer's result is
# counted. Usage: bench/run-transfer.sh [BUILD_DIR] [ITEMS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/_build}
n=${2:-100000}
slice=${DYN_BENCH_AWS_SLICE:-5000}
port=${DYN_BENCH_PORT:-8767}
py=/usr/bin/python3
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state
pid=$(bash "$here/build-aux/ddb-local.sh" "$port")
ep=http://127.0.0.1:$port
dcli=$build/app/dynoscope-cli
cli() { "$dcli" --endpoint "$ep" "$@"; }
count() { $py "$here/bench/transfer_boto3.py" count "$ep" "$1"; }
lines() { wc -l < "$1" | tr -d ' '; }

$py "$here/bench/transfer_gen.py" "$n" "$tmp/items.jsonl"
$py "$here/bench/transfer_gen.py" "$((2 * n))" "$tmp/items2.jsonl"
$py "$here/bench/transfer_chunks.py" "$tmp/items.jsonl" "$slice" AwsCli "$tmp/chunks"
echo "input: $n items, $(du -m "$tmp/items.jsonl" | cut -f1) MB of DynamoDB JSON lines ($(( $(stat -c %s "$tmp/items.jsonl") / n )) bytes a line)"
for t in Ours Boto3 AwsCli Ours2 Warm; do cli create-table "$t" --pk id:S --sk n:N >/dev/null; done
# Warm DynamoDB Local's JVM up first (untimed), so that the first measured run does not pay for it.
head -n 20000 "$tmp/items.jsonl" > "$tmp/warm.jsonl"
cli import Warm --input "$tmp/warm.jsonl" --quiet >/dev/null
cli export Warm --format ddb-json --output "$tmp/warm-out.jsonl" --quiet >/dev/null

# run NAME ITEMS COMMAND…: wall seconds and peak RSS (KB) of the command, into $tmp/results
run() {
  local name=$1 items=$2 s e rss; shift 2
  s=$(date +%s.%N)
  /usr/bin/time -v -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" || { echo "$name failed:" >&2; tail -5 "$tmp/err" >&2; }
  e=$(date +%s.%N)
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
  printf '%s %s %s %s\n' "$name" "$(echo "$e - $s" | bc)" "$items" "$rss" >> "$tmp/results"
}
aws_batches() { for f in "$tmp"/chunks/*.json; do aws dynamodb batch-write-item --endpoint-url "$ep" --request-items "file://$f" --output json > /dev/null || return 1; done; }

: > "$tmp/results"
run import-dynoscope "$n" "$dcli" --endpoint "$ep" import Ours --input "$tmp/items.jsonl" --quiet
run import-boto3 "$n" $py "$here/bench/transfer_boto3.py" import "$ep" Boto3 "$tmp/items.jsonl"
run import-aws-cli "$slice" bash -c "$(declare -f aws_batches); tmp=$tmp ep=$ep aws_batches"
run import-dynoscope-2n "$((2 * n))" "$dcli" --endpoint "$ep" import Ours2 --input "$tmp/items2.jsonl" --quiet
echo "items in the tables: Ours $(count Ours) (want $n), Boto3 $(count Boto3) (want $n), AwsCli $(count AwsCli) (want $slice), Ours2 $(count Ours2) (want $((2 * n)))"

run export-dynoscope-1 "$n" "$dcli" --endpoint "$ep" export Ours --format ddb-json --output "$tmp/ours1.jsonl" --segments 1 --quiet
run export-dynoscope-4 "$n" "$dcli" --endpoint "$ep" export Ours --format ddb-json --output "$tmp/ours4.jsonl" --segments 4 --quiet
run export-boto3 "$n" $py "$here/bench/transfer_boto3.py" export "$ep" Ours "$tmp/boto3.jsonl"
run export-aws-cli "$n" bash -c "aws dynamodb scan --endpoint-url $ep --table-name Ours --output json > $tmp/aws.json"
run export-dynoscope-1-2n "$((2 * n))" "$dcli" --endpoint "$ep" export Ours2 --format ddb-json --output "$tmp/ours2.jsonl" --segments 1 --quiet
aws_items=$(jq '.Items | length' "$tmp/aws.json")
echo "items in the exports: dynoscope-1 $(lines "$tmp/ours1.jsonl"), dynoscope-4 $(lines "$tmp/ours4.jsonl"), boto3 $(lines "$tmp/boto3.jsonl"), aws-cli $aws_items (want $n); dynoscope-1 at 2N $(lines "$tmp/ours2.jsonl") (want $((2 * n)))"
cmp -s <(sort "$tmp/ours1.jsonl") <(sort "$tmp/ours4.jsonl") && echo "dynoscope's 1- and 4-segment exports hold the same lines"

awk '
  { t[$1] = $2; c[$1] = $3; m[$1] = $4; order[++k] = $1 }
  END {
    printf "%-22s %8s %9s %10s %12s %14s\n", "run", "items", "seconds", "items/s", "peak RSS MB", "peer/ours";
    for (i = 1; i <= k; i++) { r = order[i]; rate = c[r] / t[r];
      base = (r ~ /^import/) ? "import-dynoscope" : "export-dynoscope-1";
      ratio = (r ~ /dynoscope/) ? "" : sprintf("%.2fx", (c[base] / t[base]) / rate);
      printf "%-22s %8d %9.2f %10.0f %12.1f %14s\n", r, c[r], t[r], rate, m[r] / 1024, ratio }
    printf "peer/ours: how many times longer the peer takes per item than dynoscope (1 segment for exports).\n";
    printf "the AWS CLI import ran on %d items (one process per 25-item batch-write-item).\n", c["import-aws-cli"];
    printf "dynoscope peak RSS at N vs 2N items: import %.1f vs %.1f MB, export %.1f vs %.1f MB\n",
      m["import-dynoscope"] / 1024, m["import-dynoscope-2n"] / 1024, m["export-dynoscope-1"] / 1024, m["export-dynoscope-1-2n"] / 1024;
  }' "$tmp/results"
