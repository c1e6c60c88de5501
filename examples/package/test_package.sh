#!/usr/bin/env bash
# The package test: install this build into a temporary prefix, then build
# and run a program against the installed files, twice - as a CMake project
# with find_package(levelql), and with the flags of `pkg-config levelql`.
#
#   test_package.sh BUILD_DIR CONSUMER_DIR WORK_DIR CMAKE CXX
#
# BUILD_DIR must be fully built (cmake --install copies what is there).
set -euo pipefail

build_dir=$1
consumer=$2
work=$3
cmake=$4
cxx=$5

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
expected="installed levelql works: apa zebra öl"

step() { echo "== $*"; }

step "cmake --install $build_dir --prefix $prefix"
"$cmake" --install "$build_dir" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log"; exit 1; }
for f in bin/levelql bin/levelql-slt include/levelql/database.h \
  include/levelql/status.h include/levelql/value.h; do
  [ -e "$prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
"$prefix/bin/levelql" --version

step "find_package(levelql) from a CMake project"
"$cmake" -S "$consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
"$cmake" --build "$work/consumer" -j 2
actual=$("$work/consumer/consumer")
echo "$actual"
[ "$actual" = "$expected" ] || { echo "expected: $expected"; exit 1; }

step "pkg-config levelql"
pc_dir=$(dirname "$(find "$prefix" -name levelql.pc | head -1)")
flags=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs levelql)
echo "$flags"
"$cxx" -std=c++20 -Wall -Wextra -o "$work/consumer_pc" "$consumer/main.cc" $flags
actual=$("$work/consumer_pc")
echo "$actual"
[ "$actual" = "$expected" ] || { echo "expected: $expected"; exit 1; }

rm -rf "$work"
echo "package OK"
