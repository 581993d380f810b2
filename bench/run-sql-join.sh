#!/usr/bin/env bash
# The SQL Workbench's join against the hand-written boto3 loop doing the same
# reads, in one run on DynamoDB Local: 1,000 outer rows (a course's
# enrollments, one Query) joined on the partition key to each student's item
# collection (one Query per distinct student). Reports wall time, requests and
# peak memory (GNU time's maximum RSS) of both, and their ratio.
# Usage: bench/run-sql-join.sh [BUILD_DIR] [STUDENTS] [RECORDS_PER_STUDENT]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/_build}
build=$(cd "$build" && pwd)
n=${2:-1000}
per=${3:-5}

if [ -z "${DYN_BENCH_INSIDE:-}" ] && unshare -rn true 2>/dev/null; then
  exec env DYN_BENCH_INSIDE=1 unshare -rn bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$build" "$n" "$per"
fi

port=${DYN_BENCH_PORT:-8767}
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
tmp=$(mktemp -d)
export XDG_CONFIG_HOME=$tmp/config HOME=$tmp
pid=$(bash "$here/build-aux/ddb-local.sh" "$port")
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
ep=http://127.0.0.1:$port
cli() { "$build/app/dynoscope-cli" --endpoint "$ep" "$@"; }

/usr/bin/python3 - "$tmp" "$n" "$per" <<'PY'
import json, random, sys
tmp, n, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(20261201)
with open(f"{tmp}/Enrollments.jsonl", "w") as e, open(f"{tmp}/Students.jsonl", "w") as s:
    for i in range(n):
        sid = f"STUDENT#{i:05d}"
        e.write(json.dumps({"PK": {"S": "COURSE#1"}, "SK": {"S": f"ENROLL#{i:05d}"},
                            "StudentPK": {"S": sid}, "Since": {"N": str(2020 + i % 6)}}) + "\n")
        s.write(json.dumps({"PK": {"S": sid}, "SK": {"S": "PROFILE"},
                            "Name": {"S": f"Student {i}"}}) + "\n")
        for r in range(per - 1):
            s.write(json.dumps({"PK": {"S": sid}, "SK": {"S": f"GRADE#{r:03d}"},
                                "Grade": {"N": str(random.randint(1, 100))}}) + "\n")
PY
cli create-table Enrollments --pk PK:S --sk SK:S >/dev/null
cli create-table Students --pk PK:S --sk SK:S >/dev/null
cli batch-write Enrollments < "$tmp/Enrollments.jsonl" 2>/dev/null
cli batch-write Students < "$tmp/Students.jsonl" 2>/dev/null

sql="SELECT e.SK AS enrollment, s.SK AS record, s.Grade FROM Enrollments e JOIN Students s ON s.PK = e.StudentPK WHERE e.PK = 'COURSE#1'"
cli sql --explain "$sql" > "$tmp/plan.txt"
# Warm the server (and the JVM) once with each.
cli sql "$sql" > /dev/null
/usr/bin/python3 "$here/bench/sql_join_boto3.py" "$ep" > /dev/null 2>&1

now() { date +%s%N; }
s=$(now)
/usr/bin/time -f '%M' -o "$tmp/dyn.mem" "$build/app/dynoscope-cli" --endpoint "$ep" sql --stats "$sql" > "$tmp/dyn.out" 2> "$tmp/dyn.err"
e=$(now); dyn_ms=$(( (e - s) / 1000000 ))
s=$(now)
/usr/bin/time -f '%M' -o "$tmp/py.mem" /usr/bin/python3 "$here/bench/sql_join_boto3.py" "$ep" > "$tmp/py.out" 2> "$tmp/py.err"
e=$(now); py_ms=$(( (e - s) / 1000000 ))

dyn_rows=$(wc -l < "$tmp/dyn.out"); py_rows=$(wc -l < "$tmp/py.out")
if [ "$dyn_rows" != "$py_rows" ]; then
  echo "row counts differ: dynoscope $dyn_rows, boto3 $py_rows" >&2; exit 1
fi
# Same rows (as sets): normalise both to sorted, key-sorted JSON.
norm() { /usr/bin/python3 -c 'import json,sys
for l in sorted(json.dumps(json.loads(x), sort_keys=True) for x in sys.stdin): print(l)'; }
if ! cmp -s <(norm < "$tmp/dyn.out") <(norm < "$tmp/py.out"); then
  echo "rows differ between dynoscope and boto3" >&2; exit 1
fi

echo "== SQL join, $n outer rows x $per records each (DynamoDB Local, one run)"
echo "plan:"; sed 's/^/  /' "$tmp/plan.txt"
printf '%-40s %10s   %s\n' "dynoscope-cli sql" "$dyn_ms ms" "$(grep -E 'requests' "$tmp/dyn.err" | tail -1)"
printf '%-40s %10s   %s\n' "boto3 loop (same reads)" "$py_ms ms" "$(tail -1 "$tmp/py.err")"
printf '%-40s %10s\n' "boto3 / dynoscope (higher is better)" "$(echo "scale=2; $py_ms / $dyn_ms" | bc)x"
printf '%-40s %10s\n' "peak memory dynoscope-cli (max RSS)" "$(( $(tail -1 "$tmp/dyn.mem") / 1024 )) MB"
printf '%-40s %10s\n' "peak memory boto3 loop (max RSS)" "$(( $(tail -1 "$tmp/py.mem") / 1024 )) MB"
printf '%-40s %10s\n' "rows (both, equal as sets)" "$dyn_rows"
