#!/bin/sh
# The long pass of the correctness oracles (`make soak`): differential
# queries against SQLite, the NoREC / TLP / plan-equivalence / continuation
# / plan-reuse oracles, the model-based test, then the fuzzers for a time budget. Two
# lanes run at once.
#
#   SOAK_QUERIES        differential queries, split over both lanes
#                       (default 1000000)
#   SOAK_ORACLE_CHECKS  checks per oracle (default 250000: 1250000 over the
#                       five oracles)
#   SOAK_MODEL_STEPS    model-test steps (default 200000)
#   SOAK_FUZZ_SECONDS   fuzzing time over all fuzzers (default 1800)
#   LEVELQL_SEED        base seed (default: a fresh one, printed; every
#                       failure prints the seed that replays it)
#   BUILD, FUZZ_BUILD   build directories (default build, build-fuzz)
#
# Pass or fail is decided by each program's exit status and by the summary
# line each test program prints last ("[differential] 500000 queries, 0
# failures"), which must be there with the budget asked for - never by
# searching the logs for words. Logs go to $BUILD/soak/, shrunk failures to
# $BUILD/regressions/ (or LEVELQL_REGRESSION_DIR); copy one into
# tests/sql/regressions/ to keep it as a test. Exit status 1 if anything
# failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
fuzz_build=${FUZZ_BUILD:-build-fuzz}
case $fuzz_build in /*) ;; *) fuzz_build=$root/$fuzz_build ;; esac
queries=${SOAK_QUERIES:-1000000}
checks=${SOAK_ORACLE_CHECKS:-250000}
steps=${SOAK_MODEL_STEPS:-200000}
fuzz_seconds=${SOAK_FUZZ_SECONDS:-1800}
seed=${LEVELQL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
bin=$build/tests/differential
logs=$build/soak
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.rc
export LEVELQL_MAX_FAILURES=${LEVELQL_MAX_FAILURES:-50}

echo "soak: $queries differential queries, $checks checks per oracle," \
     "$steps model steps, ${fuzz_seconds}s fuzzing"
echo "soak: base seed $seed (replay the whole pass: LEVELQL_SEED=$seed make soak);" \
     "logs in $logs"
start=$(date +%s)

# run NAME COMMAND...: runs the command with its output in NAME.log and its
# exit status in NAME.rc.
run() {
  name=$1
  shift
  "$@" >"$logs/$name.log" 2>&1
  echo $? >"$logs/$name.rc"
}

lane1() {
  run differential-1 env LEVELQL_SEED="$seed" \
    LEVELQL_DIFF_QUERIES=$((queries / 2)) "$bin/differential_test"
  run oracles-1 env LEVELQL_SEED=$((seed + 7000000)) \
    LEVELQL_ORACLE_CHECKS="$checks" "$bin/oracle_test" \
    --gtest_filter='Oracles.NoRec:Oracles.Tlp:Oracles.PlanReuse'
  run model env LEVELQL_SEED=$((seed + 9000000)) \
    LEVELQL_MODEL_STEPS="$steps" "$bin/model_test"
}

lane2() {
  run differential-2 env LEVELQL_SEED=$((seed + 5000000)) \
    LEVELQL_DIFF_QUERIES=$((queries - queries / 2)) "$bin/differential_test"
  run oracles-2 env LEVELQL_SEED=$((seed + 8000000)) \
    LEVELQL_ORACLE_CHECKS="$checks" "$bin/oracle_test" \
    --gtest_filter='Oracles.PlanEquivalence:Oracles.ContinuationReplay'
}

lane1 &
pid1=$!
lane2 &
pid2=$!
wait $pid1
wait $pid2

run fuzz "$root/tests/differential/run_fuzzers.sh" "$root" "$fuzz_build" \
  --seconds "$fuzz_seconds" --no-build

echo "soak finished in $(($(date +%s) - start))s"
status=0

# expect NAME LINE...: NAME exited 0 and printed every LINE (whole lines).
expect() {
  name=$1
  shift
  rc=$(cat "$logs/$name.rc" 2>/dev/null || echo missing)
  ok=1
  if [ "$rc" != 0 ]; then
    echo "FAILED: $name exited with status $rc (log: $logs/$name.log)"
    ok=0
  fi
  for line in "$@"; do
    if ! grep -qxF "$line" "$logs/$name.log"; then
      echo "FAILED: $name did not print \"$line\" (log: $logs/$name.log)"
      ok=0
    fi
  done
  if [ $ok = 1 ]; then
    echo "ok: $name: $*"
  else
    status=1
    # What the test reported: its seeds and failures.
    grep -E 'MISMATCH|LEVELQL_SEED=|regression file|to keep it' \
      "$logs/$name.log" | head -20
  fi
}

expect differential-1 "[differential] $((queries / 2)) queries, 0 failures"
expect differential-2 \
  "[differential] $((queries - queries / 2)) queries, 0 failures"
expect oracles-1 "[norec] $checks checks, 0 failures" \
  "[tlp] $checks checks, 0 failures" "[reuse] $checks checks, 0 failures"
expect oracles-2 "[plan] $checks checks, 0 failures" \
  "[continuation] $checks checks, 0 failures"
expect model "[model] $steps steps, 0 failures"
expect fuzz
grep -h -E '^(== |stat::number_of_executed_units)' "$logs/fuzz.log"
[ $status = 0 ] && echo "soak: passed (base seed $seed)"
[ $status != 0 ] && echo "soak: FAILED (base seed $seed)"
exit $status
