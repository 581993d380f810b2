#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SigV4 signatures per second: Dynoscope's C signer vs botocore's SigV4Auth.
# Usage: bench/run-sigv4.sh [BUILD_DIR] [C_ITERATIONS] [PY_ITERATIONS]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../_build}
c_iter=${2:-200000}
py_iter=${3:-20000}

exe=$build/bench/bench-sigv4
if [ ! -x "$exe" ]; then
  echo "run-sigv4.sh: $exe not found; build first (ninja -C $build bench/bench-sigv4)" >&2
  exit 1
fi

c_out=$("$exe" "$c_iter")
py_out=$(/usr/bin/python3 "$here/bench_sigv4.py" "$py_iter")

get () { printf '%s\n' "$1" | sed -n "s/^$2=//p"; }

c_auth=$(get "$c_out" c_authorization)
py_auth=$(get "$py_out" py_authorization)
if [ "$c_auth" != "$py_auth" ]; then
  echo "run-sigv4.sh: the two signers disagree on the benchmark request" >&2
  exit 1
fi

c_rate=$(get "$c_out" c_signs_per_sec)
py_rate=$(get "$py_out" py_signs_per_sec)

echo "request: DynamoDB Query, $(get "$c_out" body_bytes)-byte body, fixed time (identical signatures); rates per CPU second"
echo "C   dyn_sigv4 (warm key cache):            $c_rate signatures/s"
echo "C   dyn_sigv4 (with session token):        $(get "$c_out" c_signs_per_sec_with_token) signatures/s"
echo "C   dyn_sigv4 (new signer each time):      $(get "$c_out" c_signs_per_sec_cold_key) signatures/s"
echo "Py  botocore SigV4Auth.add_auth:           $py_rate signatures/s"
echo "Py  botocore, new AWSRequest each time:    $(get "$py_out" py_signs_per_sec_fresh_request) signatures/s"
awk -v c="$c_rate" -v p="$py_rate" 'BEGIN { printf "ratio C / botocore:                        %.1fx\n", c / p }'
