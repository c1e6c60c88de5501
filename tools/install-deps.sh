#!/usr/bin/env bash
# Installs the Debian packages levelql needs to build and test, when missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ccache
  libleveldb-dev libsnappy-dev libicu-dev libboost-dev libgtest-dev
  libsqlite3-dev libedit-dev
  clang libclang-rt-14-dev tmux gnuplot-nox
  # The etcd backend (issue 17): gRPC, protobuf, etcd's .proto files (and
  # those they import), and etcd itself for its tests.
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  golang-etcd-server-dev etcd-server etcd-client
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "levelql needs these Debian packages. Install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
