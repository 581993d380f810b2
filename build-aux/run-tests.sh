#!/usr/bin/env bash
# Installs what is needed, builds Dynoscope twice (normal, and with AddressSanitizer and
# UBSan), runs every test in both builds and ends with "N passed, N failed".
# The tests start their own DynamoDB Local, dynalite and keyring, on loopback only.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

bash build-aux/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0; failed=0
run_build() {
  local dir=$1 suite=$2; shift 2
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; failed=$((failed+1)); return; }
  fi
  if ! ninja -C "$dir" >"$dir.build.log" 2>&1; then
    tail -50 "$dir.build.log"; failed=$((failed+1)); return
  fi
  # UI tests need a display: one Xvfb for the whole run.
  xvfb-run -a -s '-screen 0 1280x800x24' \
    meson test -C "$dir" --print-errorlogs --num-processes 2 $suite ${DYN_TEST_ARGS:-} 2>&1 | tee "$dir.test.log" | grep -vE '^ *[0-9]+/[0-9]+ .* OK ' || true
  # Count TAP subtests where a program reports them ("N subtests passed"), else the program.
  local ok fail
  ok=$(grep -E '^ *[0-9]+/[0-9]+ .* (OK|EXPECTEDFAIL) ' "$dir.test.log" |
       awk '{ n = 1; for (i = 1; i < NF; i++) if ($(i+1) == "subtests" && $(i+2) == "passed") n = $i; s += n } END { print s + 0 }')
  fail=$(grep -cE '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR) ' "$dir.test.log" || true)
  if ! grep -qE '^Ok:' "$dir.test.log"; then failed=$((failed+1)); return; fi
  passed=$((passed+ok)); failed=$((failed+fail))
}

export GSK_RENDERER=cairo GTK_A11Y=none
run_build _build-tests ""
if [ -z "${DYN_NO_SANITIZE:-}" ]; then
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_build _build-asan "" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
  # The libFuzzer targets (clang: expression parser, JSON readers, AWS config), each for
  # fuzz_seconds, with leak detection on (tests/meson.build).
  CC=clang \
    run_build _build-fuzz "--suite fuzz" -Db_sanitize=address,undefined -Db_lundef=false -Dgui=disabled \
      -Dc_args=-fsanitize=fuzzer-no-link
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
