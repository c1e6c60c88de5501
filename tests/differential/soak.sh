#!/bin/sh
# The long pass of the correctness oracles (`make soak`): differential
# queries against SQLite, the NoREC / TLP / plan-equivalence / continuation
# oracles, the model-based test, then the fuzzers. Two lanes run at once.
#
#   SOAK_QUERIES        differential queries, split over both lanes
#                       (default 1000000)
#   SOAK_ORACLE_CHECKS  checks per oracle (default 250000: 1000000 over the
#                       four oracles)
#   SOAK_MODEL_STEPS    model-test steps (default 200000)
#   SOAK_FUZZ_SECONDS   fuzzing time over all fuzzers (default 1800)
#   LEVELQL_SEED        base seed (default: fresh; every failure prints the
#                       seed that replays it)
#   BUILD, FUZZ_BUILD   build directories (default build, build-fuzz)
#
# Logs go to $BUILD/soak/; shrunk failures to tests/sql/regressions/ (or
# LEVELQL_REGRESSION_DIR). Exit status 1 if anything failed.
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
export LEVELQL_MAX_FAILURES=${LEVELQL_MAX_FAILURES:-50}

echo "soak: $queries differential queries, $checks checks per oracle," \
     "$steps model steps, ${fuzz_seconds}s fuzzing; base seed $seed; logs in $logs"
start=$(date +%s)

lane1() {
  LEVELQL_SEED=$seed LEVELQL_DIFF_QUERIES=$((queries / 2)) \
    "$bin/differential_test" >"$logs/differential-1.log" 2>&1
  LEVELQL_SEED=$((seed + 7000000)) LEVELQL_ORACLE_CHECKS=$checks \
    "$bin/oracle_test" --gtest_filter='Oracles.NoRec:Oracles.Tlp' \
    >"$logs/oracles-1.log" 2>&1
  LEVELQL_SEED=$((seed + 9000000)) LEVELQL_MODEL_STEPS=$steps \
    "$bin/model_test" >"$logs/model.log" 2>&1
}

lane2() {
  LEVELQL_SEED=$((seed + 5000000)) LEVELQL_DIFF_QUERIES=$((queries - queries / 2)) \
    "$bin/differential_test" >"$logs/differential-2.log" 2>&1
  LEVELQL_SEED=$((seed + 8000000)) LEVELQL_ORACLE_CHECKS=$checks \
    "$bin/oracle_test" \
    --gtest_filter='Oracles.PlanEquivalence:Oracles.ContinuationReplay' \
    >"$logs/oracles-2.log" 2>&1
}

lane1 &
pid1=$!
lane2 &
pid2=$!
wait $pid1
wait $pid2

"$root/tests/differential/run_fuzzers.sh" "$root" "$fuzz_build" "$fuzz_seconds" \
  >"$logs/fuzz.log" 2>&1
fuzz_status=$?

echo "soak finished in $(( $(date +%s) - start ))s"
grep -h -E '^\[(differential|norec|tlp|plan|continuation|model)\] [0-9]' \
  "$logs"/*.log
grep -h -E '^(== |stat::number_of_executed_units|FAILED)' "$logs/fuzz.log"
status=0
if grep -l -E 'MISMATCH|FAILED|Failure' "$logs"/differential-*.log \
     "$logs"/oracles-*.log "$logs/model.log" >/dev/null 2>&1; then
  status=1
  echo "FAILURES (replay with the LEVELQL_SEED printed next to each):"
  grep -h -E 'MISMATCH|model test \(LEVELQL_SEED|-> .*\.test' "$logs"/*.log
fi
[ $fuzz_status -eq 1 ] && status=1 && echo "a fuzzer failed: $logs/fuzz.log"
exit $status
