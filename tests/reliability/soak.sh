#!/bin/sh
# The long pass of the reliability tests (`make soak-reliability`, also run
# by `make soak`): 1,000 SIGKILLs, 400 power cuts, every fault injection,
# 60 s per concurrency variant, the interrupt test, 2,000 damaged databases,
# 100,000 hostile statements, the limits, and 4 writer processes on etcd
# through 5 leader kills, all from one fresh seed.
#
#   SOAK_KILLS    crash_test SIGKILLs (default 1000)
#   LEVELQL_SEED  the seed (default: a fresh one, printed)
#   BUILD         build directory (default build)
#
# Every program runs, whatever an earlier one did; the pass fails when any
# exits non-zero. Logs go to $BUILD/soak-reliability/.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
kills=${SOAK_KILLS:-1000}
seed=${LEVELQL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
export LEVELQL_SEED=$seed
bin=$build/tests
logs=$build/soak-reliability
mkdir -p "$logs"
echo "soak-reliability: seed $seed (replay: LEVELQL_SEED=$seed make" \
     "soak-reliability); logs in $logs"

status=0
# run NAME COMMAND...: runs one program, its output to NAME.log.
run() {
  name=$1
  shift
  started=$(date +%s)
  "$@" >"$logs/$name.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    echo "ok: $name ($(($(date +%s) - started)) s)"
  else
    status=1
    echo "FAILED: $name exited with status $rc (log: $logs/$name.log)"
    grep -E "Failure|LEVELQL_SEED|seed" "$logs/$name.log" | head -10
  fi
}

run crash_test env LEVELQL_CRASH_TIMED=1 LEVELQL_CRASH_KILLS="$kills" \
  LEVELQL_CRASH_TXN_KILLS="$((kills / 3))" "$bin/crash/crash_test"
run power_loss_test env LEVELQL_POWER_TIMED=1 LEVELQL_POWER_LOSSES=400 \
  "$bin/faults/power_loss_test"
run fault_injection_test "$bin/faults/fault_injection_test"
run concurrency_test env LEVELQL_CONCURRENCY_MS=60000 \
  "$bin/concurrency/concurrency_test"
run interrupt_test "$bin/concurrency/interrupt_test"
run corruption_test env LEVELQL_CORRUPTIONS=2000 \
  "$bin/limits/corruption_test"
run hostile_input_test env LEVELQL_HOSTILE_INPUTS=100000 \
  "$bin/limits/hostile_input_test"
run limits_test "$bin/limits/limits_test"
# Several writers on etcd (issue 17), when levelql was built with etcd and
# etcd is installed: 4 processes, 1,000 statements each, 5 leaders killed
# at random moments (each restarted before the next), on a cluster of its own.
if [ -x "$bin/etcd/etcd_writers_test" ] && command -v etcd >/dev/null; then
  etcd_dir=$(mktemp -d "${TMPDIR:-/tmp}/levelql-soak-etcd.XXXXXX")
  if "$root/tools/etcd-cluster.sh" start "$etcd_dir" >"$logs/etcd.log" 2>&1
  then
    run etcd_writers_test env LEVELQL_ETCD_DIR="$etcd_dir" LEVELQL_WRITERS=4 \
      LEVELQL_WRITER_STATEMENTS=1000 LEVELQL_LEADER_KILLS=5 \
      "$bin/etcd/etcd_writers_test" --gtest_filter='EtcdWritersTest.*'
  else
    status=1
    echo "FAILED: the etcd cluster did not start (log: $logs/etcd.log)"
  fi
  "$root/tools/etcd-cluster.sh" stop "$etcd_dir" >/dev/null 2>&1
  rm -rf "$etcd_dir"
else
  echo "skipped: etcd_writers_test (levelql built without etcd, or etcd not installed)"
fi
[ $status = 0 ] && echo "soak-reliability: passed (seed $seed)"
[ $status != 0 ] && echo "soak-reliability: FAILED (seed $seed)"
exit $status
