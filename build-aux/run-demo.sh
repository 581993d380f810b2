#!/usr/bin/env bash
# Installs what is needed, builds, starts DynamoDB Local with the demo data (Workspaces,
# School, and Products, Movies and Shop: tables unlike the seeds), shows the
# seeds' three reads with dynoscope-cli (also as SQL) and opens Dynoscope on the Workspaces table.
# A 100,000-item Events table is loaded in the background while the window opens.
# DYN_DEMO_NO_GUI=1 keeps to the command line (and ends after the reads).
# DynamoDB Local listens on every interface; where we can, it runs in a private network
# namespace with the rest of the demo so nothing outside this machine can reach it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

if [ -z "${DYN_DEMO_INSIDE:-}" ]; then
  bash build-aux/install-deps.sh
  [ -d _build ] || meson setup _build >/dev/null
  ninja -C _build
  if unshare -rn true 2>/dev/null || { [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; }; then
    flag=-n; [ "$(id -u)" = 0 ] || flag=-rn
    exec env DYN_DEMO_INSIDE=1 unshare $flag bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
  fi
  echo "note: no private network namespace available; DynamoDB Local listens on all interfaces" >&2
fi

port=${DYN_DEMO_PORT:-8000}
export AWS_ACCESS_KEY_ID=demo AWS_SECRET_ACCESS_KEY=demo AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
pid=$(bash build-aux/ddb-local.sh "$port")
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
cli() { _build/app/dynoscope-cli --endpoint "http://127.0.0.1:$port" "$@"; }

cli create-table Workspaces --pk EntityRef:S --sk Detail:S --gsi GSI1:GSI1PK:S:GSI1SK:S >/dev/null
cli create-table School --pk PK:S --sk SK:S --gsi GSI1:GSI1PK:S:GSI1SK:S >/dev/null
cli batch-write Workspaces < data/demo/Workspaces.jsonl
cli batch-write School < data/demo/School.jsonl
# Tables unlike the seeds: no sort key, a number key, an entity-type attribute.
cli create-table Products --pk ProductId:S >/dev/null
cli create-table Movies --pk year:N --sk title:S >/dev/null
cli create-table Shop --pk PK:S --sk SK:S >/dev/null
cli batch-write Products < data/demo/Products.jsonl
cli batch-write Movies < data/demo/Movies.jsonl
cli batch-write Shop < data/demo/Shop.jsonl

echo
echo "== Movies out and in again: exported as CSV and as an S3 export folder, imported into a new table"
cli export Movies --format csv --output "$tmp/movies.csv" --segments 2 --quiet
cli export Movies --format s3 --output "$tmp/movies-s3" --quiet
cli import Films --input "$tmp/movies-s3" --create --pk year:N --sk title:S --verify --quiet
cli count Films
echo
echo "== 1. The workspace itself: GetItem META"
cli --plain --stats get Workspaces --key '{"EntityRef":{"S":"WS#acme"},"Detail":{"S":"META"}}'
echo
echo "== 2. Its projects, newest first, in one Query"
cli --plain --stats query Workspaces --limit 5 --desc \
  --key-condition '#er = :er AND begins_with(#d, :p)' \
  --names '{"#er":"EntityRef","#d":"Detail"}' \
  --values '{":er":{"S":"WS#acme"},":p":{"S":"PROJ#"}}'
echo
echo "== 3. One project: GetItem"
cli --plain --stats get Workspaces --key '{"EntityRef":{"S":"WS#acme"},"Detail":{"S":"PROJ#2026-0042"}}'
echo
echo "== The course roster through the inverted GSI1"
cli --plain --stats query School --index GSI1 --key-condition 'GSI1PK = :c' --values '{":c":{"S":"CRS#math204"}}'
echo
echo "== The seeds' reads as SQL: the workspace's projects newest first (the plan, then 1 Query)"
sql_projects="SELECT Detail, Name, Status FROM Workspaces WHERE EntityRef = 'WS#acme' AND Detail LIKE 'PROJ#%' ORDER BY Detail DESC LIMIT 3"
cli sql --explain "$sql_projects"
cli --stats sql "$sql_projects"
echo
echo "== The roster through GSI1 joined to each student's profile (1 Query + 1 BatchGetItem)"
sql_roster="SELECT e.GSI1SK AS Student, s.Name, s.Year FROM \"School.GSI1\" e JOIN School s ON s.PK = e.GSI1SK AND s.SK = 'PROFILE' WHERE e.GSI1PK = 'CRS#math204'"
cli sql --explain "$sql_roster"
cli --stats sql "$sql_roster"
echo
echo "== PartiQL that reads the whole table, linted before it is sent"
cli partiql --lint "SELECT * FROM Workspaces WHERE Status = 'active'" || true
echo
echo "== The design studio: the seeds' two designs drafted and checked on scratch tables (one request per access pattern)"
cli design draft data/design/workspaces.json > "$tmp/plan.json"
python3 -c 'import json, sys
for p in json.load(open(sys.argv[1]))["placements"]:
    print("  %-10s %s" % (p["entity"], "  ".join("%s = %s" % kv for kv in p["keys"].items())))' "$tmp/plan.json"
cli design check data/design/workspaces.json
cli design check data/design/school.json
echo
echo "== The model inferred from the demo School table"
cli design infer School > "$tmp/school-model.json"
python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["entities"]:
    print("  %-10s %s" % (e["name"], "  ".join("%s = %s" % kv for kv in e.get("keys", {}).items())))' "$tmp/school-model.json"
echo
echo "== A second enrolment is refused by attribute_not_exists(PK)"
if cli put School --condition 'attribute_not_exists(PK)' \
     --item '{"PK":{"S":"STU#a91"},"SK":{"S":"ENROLL#CRS#math204"},"GSI1PK":{"S":"CRS#math204"},"GSI1SK":{"S":"STU#a91"}}'; then
  echo "unexpected: the duplicate enrolment was written" >&2; exit 1
fi
echo
if [ -n "${DYN_DEMO_NO_GUI:-}" ]; then
  echo "DynamoDB Local with the demo data runs at http://127.0.0.1:$port until this script ends."
  if [ -n "${DYN_DEMO_KEEP:-}" ]; then
    echo "Press Ctrl-C to stop."; wait "$pid"
  fi
  exit 0
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "No display (DISPLAY/WAYLAND_DISPLAY): not opening the window. DYN_DEMO_NO_GUI=1 silences this." >&2
  exit 0
fi

# The big table loads while the window opens; it appears under Refresh Tables (Ctrl+R).
events_dir=$(mktemp -d)
(
  /usr/bin/python3 data/demo/make-demo-data.py "$events_dir" --big 100000 >/dev/null &&
  cli create-table Events --pk PK:S --sk SK:S >/dev/null &&
  cli batch-write Events < "$events_dir/Events.jsonl" >/dev/null &&
  echo "Events: 100,000 items loaded (Ctrl+R in the window lists the table)"
) &
loader=$!
# Closing the window early stops the loader before the server, so it does not report a lost server.
trap 'pkill -P $loader 2>/dev/null; kill $loader 2>/dev/null; kill $pid 2>/dev/null || true; rm -rf "$events_dir"' EXIT
echo "Opening Dynoscope on http://127.0.0.1:$port (the Workspaces table). Close the window to stop."
DYN_NON_UNIQUE=1 GSETTINGS_SCHEMA_DIR="$here/_build/data" _build/app/dynoscope --endpoint "http://127.0.0.1:$port" Workspaces
