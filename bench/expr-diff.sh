#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The long run of the differential expression test (tests/test-expr-diff.c):
# many more generated expressions than CI runs, each sent to DynamoDB Local
# and compared with Dynoscope's verdict. Prints how many cases ran, how many
# agree, the disagreements per class, and writes every disagreement to a file.
# Usage: bench/expr-diff.sh [BUILD-DIR] [COUNT] [SECONDS]
#   SEED=n to change the seed (default: the test's), GROUP=/expr-diff/updates for one group.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/_build}
count=${2:-100000}
seconds=${3:-3600}
test=$build/tests/test-expr-diff
report=$build/expr-diff-report.md
summary=$build/expr-diff-summary.md

[ -x "$test" ] || { echo "build $test first: ninja -C $build tests/test-expr-diff" >&2; exit 1; }
: >"$report"
: >"$summary"

log=$build/expr-diff.log
set +e
DYN_SOURCE_ROOT=$src G_TEST_SRCDIR=$src/tests G_TEST_BUILDDIR=$build/tests DYN_BUILD_ROOT=$build \
DYN_EXPR_DIFF_COUNT=$count DYN_EXPR_DIFF_SECONDS=$seconds DYN_EXPR_DIFF_SHOW=0 \
DYN_EXPR_DIFF_REPORT=$report DYN_EXPR_DIFF_SUMMARY=$summary \
${SEED:+DYN_EXPR_DIFF_SEED=$SEED} \
  "$test" ${GROUP:+-p "$GROUP"} >"$log" 2>&1
status=$?
set -e

echo "Differential expression test, $count cases asked for, at most $seconds s"
grep -E '^# [a-z-]+: ([0-9]+ cases,|seed|the time budget)' "$log" | sed 's/^# //'
echo
echo "Disagreements by class (cases, disagreements):"
grep -E '^#   ' "$log" | awk '$9 != "0" { printf "  %-14s %-30s %-8s %6s %6s\n", $2, $3, $4, $5, $9 }' || true
awk '/^# [a-z-]+: [0-9]+ cases,/ { n += $3; a += $5; d += $7 }
     END { printf "\nIn all: %d cases, %d agree, %d disagree\n", n, a, d }' "$log"
echo "Every disagreement: $report; two examples per class: $summary; the log: $log"
exit $status
