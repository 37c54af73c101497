#!/usr/bin/env bash
# Reproduces the homework checker's workflow from the project root:
#   make build (once), then per test: cp X.in ./in; make run; diff -w ./out X.ref
# Points: 4 per shuffle test (tests_amestecare), 5 per game test; the total is
# scaled to 100. Exits non-zero below 100.
#
# usage: checker/checker.sh [TESTS_DIR]   (default: checker/tests)
#        RUN_TARGET=run-c checker/checker.sh ...   runs `make run-c` instead of `make run`
set -u
tests=${1:-checker/tests}
run_target=${RUN_TARGET:-run}
if [ ! -d "$tests" ]; then
  echo "checker: no tests directory $tests" >&2
  exit 2
fi
make -s build >/dev/null || { echo "checker: make build failed" >&2; exit 2; }

earned=0
possible=0
failed=0
for f in $(find "$tests" -name '*.in' | sort -V); do
  case "$f" in */tests_amestecare/*) points=4 ;; *) points=5 ;; esac
  ref="${f%.in}.ref"
  possible=$((possible + points))
  rm -f out
  cp "$f" ./in
  if make -s "$run_target" >/dev/null 2>&1 && [ -f out ] && diff -w ./out "$ref" >/dev/null; then
    earned=$((earned + points))
    printf '%-58s %d/%d\n' "$f" "$points" "$points"
  else
    failed=$((failed + 1))
    printf '%-58s 0/%d  FAILED\n' "$f" "$points"
  fi
done
rm -f in out
if [ "$possible" -eq 0 ]; then
  echo "checker: no tests found in $tests" >&2
  exit 2
fi
score=$((earned * 100 / possible))
echo "Total: $score/100 ($earned of $possible points, $failed failed) in $tests"
[ "$score" -eq 100 ]
