#!/bin/sh
# Builds the libFuzzer targets (tests/fuzz/*_fuzz.cc) with clang, ASan and
# UBSan, then runs each for a share of a time budget, starting from its seed
# corpus tests/fuzz/corpus/<name>/ (never written to; new inputs go to a
# temporary directory).
#
#   run_fuzzers.sh SOURCE_DIR BUILD_DIR SECONDS [--no-build]
#
# Exit status: 0 when no fuzzer found anything, 1 when one did (its input is
# kept under BUILD_DIR/artifacts/ with the command that replays it), 77 when
# clang is not installed (ctest reports the test as skipped).
set -u
src=$1
build=$2
total=$3
no_build=${4:-}
jobs=${JOBS:-2}

if ! command -v clang >/dev/null 2>&1 || ! command -v clang++ >/dev/null 2>&1; then
  echo "clang/clang++ not found: skipping the fuzzers"
  exit 77
fi

if [ "$no_build" != "--no-build" ]; then
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
count=$(echo "$fuzzers" | wc -l)
per=$((total / count))
[ "$per" -lt 5 ] && per=5

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
  echo "== $name: ${per}s"
  # shellcheck disable=SC2086
  "$fuzzer" -max_total_time="$per" -timeout=20 -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" $dict \
    "$work" $seeds >"$work.log" 2>&1
  rc=$?
  grep -E "^(stat::number_of_executed_units|stat::new_units_added|Done)" "$work.log"
  if [ $rc -ne 0 ]; then
    status=1
    grep -v "^#" "$work.log" | tail -60
    echo "FAILED: $name (exit $rc). Replay: $fuzzer $artifacts/<crash-file>"
    ls -t "$artifacts" | head -3
  fi
  rm -rf "$work" "$work.log"
done
exit $status
