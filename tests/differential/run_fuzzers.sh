#!/bin/sh
# Builds the libFuzzer targets (tests/fuzz/*_fuzz.cc) with clang, ASan and
# UBSan, then runs each, starting from its seed corpus
# tests/fuzz/corpus/<name>/ (never written to; new inputs go to a temporary
# directory).
#
#   run_fuzzers.sh SOURCE_DIR BUILD_DIR --runs NAME=N,... --seed S
#                  [--no-build]
#       fuzzer NAME runs exactly N inputs from random seed S, without
#       address-space randomization (setarch -R) or corpus reloads: the same
#       inputs and the same coverage on every run (ctest's fuzz_smoke)
#   run_fuzzers.sh SOURCE_DIR BUILD_DIR --seconds TOTAL [--no-build]
#       the fuzzers share TOTAL seconds of wall-clock time, each from a
#       fresh random seed it prints (`make fuzz-run`, `make soak`)
#
# Exit status: 0 when no fuzzer found anything, 1 when one did (its input is
# kept under BUILD_DIR/artifacts/ with the command that replays it), 2 on a
# usage error, 77 when clang is not installed (ctest reports the test as
# skipped).
set -u
usage() {
  echo "usage: run_fuzzers.sh SRC BUILD (--runs N --seed S | --seconds T)" \
       "[--no-build]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
src=$1
build=$2
shift 2
runs=""
seed=""
total=""
no_build=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --seconds) total=$2; shift 2 ;;
    --no-build) no_build=1; shift ;;
    *) usage ;;
  esac
done
if [ -n "$runs" ]; then
  [ -n "$seed" ] && [ -z "$total" ] || usage
else
  [ -n "$total" ] || usage
fi
jobs=${JOBS:-2}
# The number of inputs for fuzzer $1 in the --runs list.
runs_for() {
  echo "$runs" | tr ',' '\n' | sed -n "s/^$1=//p"
}

if ! command -v clang >/dev/null 2>&1 || ! command -v clang++ >/dev/null 2>&1; then
  echo "clang/clang++ not found: skipping the fuzzers"
  exit 77
fi

if [ -z "$no_build" ]; then
  log=$(mktemp)
  if ! { CC=clang CXX=clang++ cmake -S "$src/tests/differential/fuzz" \
           -B "$build" >"$log" 2>&1 &&
         cmake --build "$build" -j "$jobs" >>"$log" 2>&1; }; then
    tail -40 "$log"
    echo "building the fuzzers failed (log: $log)"
    exit 1
  fi
  rm -f "$log"
fi

fuzzers=$(ls "$build"/*_fuzz 2>/dev/null)
if [ -z "$fuzzers" ]; then
  echo "no fuzzers in $build"
  exit 1
fi
fixed=""
if [ -n "$runs" ]; then
  # Pointer values reach some hash orders, so coverage differs from run to
  # run unless the address space is laid out the same way.
  setarch -R true 2>/dev/null && fixed="setarch -R"
else
  count=$(echo "$fuzzers" | wc -l)
  per=$((total / count))
  [ "$per" -lt 5 ] && per=5
fi

status=0
for fuzzer in $fuzzers; do
  name=$(basename "$fuzzer" _fuzz)
  seeds="$src/tests/fuzz/corpus/$name"
  work=$(mktemp -d)
  artifacts="$build/artifacts/$name"
  mkdir -p "$artifacts"
  dict=""
  [ -f "$src/tests/fuzz/corpus/$name.dict" ] &&
    dict="-dict=$src/tests/fuzz/corpus/$name.dict"
  [ -d "$seeds" ] || seeds=""
  if [ -n "$runs" ]; then
    n=$(runs_for "$name")
    if [ -z "$n" ]; then
      echo "FAILED: no --runs count for fuzzer $name"
      status=1
      continue
    fi
    budget="-runs=$n -seed=$seed -reload=0"
    echo "== $name: $n inputs from seed $seed${fixed:+ ($fixed)}"
  else
    budget="-max_total_time=$per"
    echo "== $name: ${per}s"
  fi
  started=$(date +%s)
  # shellcheck disable=SC2086
  $fixed "$fuzzer" $budget -timeout=20 -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" $dict \
    "$work" $seeds >"$work.log" 2>&1
  rc=$?
  grep -E "^INFO: Seed:" "$work.log" | head -1
  grep -E "^(stat::number_of_executed_units|stat::new_units_added)" "$work.log"
  echo "   $(($(date +%s) - started)) s"
  if [ $rc -ne 0 ]; then
    status=1
    grep -v "^#" "$work.log" | tail -60
    echo "FAILED: $name (exit $rc). Replay: $fuzzer $artifacts/<crash-file>"
    ls -t "$artifacts" | head -3
  fi
  rm -rf "$work" "$work.log"
done
exit $status
