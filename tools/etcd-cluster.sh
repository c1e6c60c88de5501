#!/usr/bin/env bash
# A local etcd cluster for levelql's tests and for trying levelql on etcd.
#
#   tools/etcd-cluster.sh start DIR [MEMBERS]   start MEMBERS (default 3)
#   tools/etcd-cluster.sh stop DIR              stop exactly those processes
#                                               and delete their data
#   tools/etcd-cluster.sh kill-leader DIR       SIGKILL the current leader
#                                               (prints its client address)
#   tools/etcd-cluster.sh restart DIR           start the killed members again
#                                               (on their data; they rejoin)
#
# `start` picks free ports on 127.0.0.1, keeps every member's data under DIR,
# waits until the cluster is healthy, and writes DIR/endpoints (the client
# addresses, comma-separated: the host list of an etcd:// URL) and DIR/pids.
# The limits are raised so that one levelql statement fits one etcd
# transaction: --max-txn-ops 100000 and --max-request-bytes 64 MiB (etcd's
# defaults, 128 operations and 1.5 MiB, refuse a statement that writes more
# than about 25 rows with 4 indexes; levelql then names the flag).
set -euo pipefail

usage() {
  echo "usage: $0 start DIR [MEMBERS] | stop DIR | kill-leader DIR |" \
    "restart DIR" >&2
  exit 2
}

free_ports() {  # prints $1 distinct free TCP ports on 127.0.0.1
  python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

stop() {
  local dir=$1
  [ -f "$dir/pids" ] || return 0
  local pids
  pids=$(cat "$dir/pids")
  for pid in $pids; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 10); do  # etcd is crash-safe: a second, then SIGKILL
    local alive=0
    for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive -eq 0 ] && break
    sleep 0.1
  done
  for pid in $pids; do kill -9 "$pid" 2>/dev/null || true; done
  rm -f "$dir/pids"
  # The members' data (start begins a new cluster anyway): on /dev/shm it
  # is memory. Their logs stay.
  rm -rf "$dir"/m[0-9]*/
}

start() {
  local dir=$1 members=${2:-3}
  command -v etcd >/dev/null || {
    echo "etcd is not installed (tools/install-deps.sh installs etcd-server)" >&2
    exit 1
  }
  stop "$dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  read -r -a ports <<<"$(free_ports $((2 * members)))"
  local cluster="" endpoints="" i
  for ((i = 0; i < members; i++)); do
    cluster+="${cluster:+,}m$i=http://127.0.0.1:${ports[2 * i + 1]}"
    endpoints+="${endpoints:+,}127.0.0.1:${ports[2 * i]}"
  done
  : >"$dir/pids"
  : >"$dir/members"
  for ((i = 0; i < members; i++)); do
    echo "$i ${ports[2 * i]} ${ports[2 * i + 1]} $cluster" >>"$dir/members"
    launch "$dir" "$i" "${ports[2 * i]}" "${ports[2 * i + 1]}" "$cluster" new
    echo $! >>"$dir/pids"
  done
  echo "$endpoints" >"$dir/endpoints"
  if wait_healthy "$endpoints"; then
    echo "etcd cluster of $members on $endpoints (data in $dir)"
    return 0
  fi
  echo "etcd cluster did not become healthy; logs in $dir/m*.log" >&2
  stop "$dir"
  exit 1
}

# launch DIR I CLIENT_PORT PEER_PORT CLUSTER STATE: member I in the background.
launch() {
  local dir=$1 i=$2 client=$3 peer=$4 cluster=$5 state=$6
  etcd --name "m$i" --data-dir "$dir/m$i" \
    --listen-client-urls "http://127.0.0.1:$client" \
    --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" \
    --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "$cluster" --initial-cluster-state "$state" \
    --initial-cluster-token "levelql-$(basename "$dir")" \
    --max-txn-ops 100000 --max-request-bytes 67108864 \
    --logger zap --log-outputs "$dir/m$i.log" \
    </dev/null >>"$dir/m$i.out" 2>&1 &
}

wait_healthy() {  # every member of $1 answers, within 20 s
  local deadline=$((SECONDS + 20))
  while [ $SECONDS -lt $deadline ]; do
    if ETCDCTL_API=3 etcdctl --dial-timeout 1s --command-timeout 2s \
      --endpoints "$1" endpoint health >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# Whether process $1 runs (a killed member nobody reaped yet is a zombie).
alive() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "${state:0:1}" != Z ]
}

# Starts each member whose process is gone again, on its data directory
# (a restarted member catches up from the leader), and waits for health.
restart() {
  local dir=$1 i client peer cluster pid
  local -a pids
  mapfile -t pids <"$dir/pids"
  while read -r i client peer cluster; do
    pid=${pids[$i]}
    alive "$pid" && continue
    launch "$dir" "$i" "$client" "$peer" "$cluster" existing
    pids[$i]=$!
    echo "restarted m$i on 127.0.0.1:$client"
  done <"$dir/members"
  printf '%s\n' "${pids[@]}" >"$dir/pids"
  wait_healthy "$(cat "$dir/endpoints")" || {
    echo "etcd cluster did not become healthy again; logs in $dir/m*.log" >&2
    exit 1
  }
}

kill_leader() {
  local dir=$1 endpoints
  endpoints=$(cat "$dir/endpoints")
  local index
  index=$(ETCDCTL_API=3 etcdctl --endpoints "$endpoints" endpoint status \
    -w json 2>/dev/null | python3 -c '
import json, sys
members = json.load(sys.stdin)
for m in members:
    if m["Status"]["leader"] == m["Status"]["header"]["member_id"]:
        print(sys.argv[1].split(",").index(m["Endpoint"]))
        break
' "$endpoints")
  [ -n "$index" ] || { echo "no leader found" >&2; exit 1; }
  local pid
  pid=$(sed -n "$((index + 1))p" "$dir/pids")
  kill -9 "$pid"
  echo "$endpoints" | cut -d, -f$((index + 1))
}

[ $# -ge 2 ] || usage
case $1 in
  start) start "$2" "${3:-3}" ;;
  stop) stop "$2" ;;
  kill-leader) kill_leader "$2" ;;
  restart) restart "$2" ;;
  *) usage ;;
esac
