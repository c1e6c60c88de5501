# The two commands of the README:
#   make run   - the levelql REPL on a demo database in this directory
#   make test  - build everything and run every test
# Both install missing Debian packages first (tools/install-deps.sh).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build test run bench fuzz clean format

all: build

deps:
	@tools/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

run: build
	tools/run-demo.sh $(BUILD)

format:
	clang-format -i $$(git ls-files '*.cc' '*.h')

clean:
	rm -rf $(BUILD)

# make bench - levelql-bench at 1M rows against SQLite and raw LevelDB
# (issues 7, 13): prints the goal table, writes $(BENCH_JSON) (and, when
# gnuplot or python3-matplotlib is installed, $(BUILD)/bench.png), then
# regenerates the tables of README.md and bench/README.md from the JSON
# (tools/bench_table.py). About 10 minutes on 2 CPUs (9 min 33 s for the
# table in the README, on a shared machine).
BENCH_JSON ?= $(BUILD)/bench.json
BENCH_FLAGS ?= --rows 1000000 --plot $(BUILD)/bench.png
bench: deps configure
	cmake --build $(BUILD) -j $(JOBS) --target levelql-bench
	$(BUILD)/bench/levelql-bench $(BENCH_FLAGS) --json $(BENCH_JSON)
	python3 tools/bench_table.py $(BENCH_JSON) README.md bench/README.md

# -- Correctness oracles (issue 6) ------------------------------------------
# `make test` is deterministic: every randomized test runs fixed seeds with
# fixed budgets, the fuzzers a fixed number of inputs from a fixed seed.
# Fresh seeds and wall-clock budgets are for the targets below.
#   make fuzz      build the libFuzzer targets (ASan+UBSan) into build-fuzz/
#   make fuzz-run  run each for a share of FUZZ_SECONDS
#   make soak      the long pass, from one fresh seed (printed; LEVELQL_SEED
#                  replays it): tests/differential/soak.sh (SOAK_QUERIES,
#                  SOAK_ORACLE_CHECKS, SOAK_MODEL_STEPS, SOAK_FUZZ_SECONDS),
#                  then soak-reliability; fails if either fails
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

fuzz:
	CC=clang CXX=clang++ cmake -S tests/differential/fuzz -B $(FUZZ_BUILD)
	cmake --build $(FUZZ_BUILD) -j $(JOBS)

fuzz-run: fuzz
	tests/differential/run_fuzzers.sh $(CURDIR) $(CURDIR)/$(FUZZ_BUILD) \
	  --seconds $(FUZZ_SECONDS) --no-build

soak: build fuzz
	@seed=$${LEVELQL_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	status=0; \
	LEVELQL_SEED=$$seed BUILD=$(BUILD) FUZZ_BUILD=$(FUZZ_BUILD) \
	  tests/differential/soak.sh || status=1; \
	LEVELQL_SEED=$$seed SOAK_KILLS=$(SOAK_KILLS) BUILD=$(BUILD) \
	  tests/reliability/soak.sh || status=1; \
	if [ $$status -eq 0 ]; then echo "make soak: passed (seed $$seed)"; \
	else echo "make soak: FAILED (replay: LEVELQL_SEED=$$seed make soak)"; fi; \
	exit $$status

.PHONY: fuzz-run soak

# --- Reliability (issue 8) --------------------------------------------------
# make soak-reliability - the long versions from a fresh seed: 1,000
#   SIGKILLs, 400 power cuts, 60 s per concurrency variant, 2,000 damaged
#   databases, 100,000 hostile statements (tests/reliability/soak.sh); runs
#   them all, fails if any failed. `make soak` runs it too.
# make tsan - concurrency and interrupt tests under ThreadSanitizer
#   (build-tsan); must report nothing.
# make asan - every test under AddressSanitizer + UBSan (build-asan).
SOAK_KILLS ?= 1000
TSAN_BUILD ?= build-tsan
ASAN_BUILD ?= build-asan
TSAN_MS ?= 30000
.PHONY: soak-reliability tsan asan
soak-reliability: build
	SOAK_KILLS=$(SOAK_KILLS) BUILD=$(BUILD) tests/reliability/soak.sh

tsan: deps
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLEVELQL_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS=-fsanitize=thread \
	  -DCMAKE_C_FLAGS=-fsanitize=thread \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
	cmake --build $(TSAN_BUILD) --target concurrency_test interrupt_test \
	  transaction_concurrency_test -j $(JOBS)
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/concurrency/tsan.supp" \
	  LEVELQL_CONCURRENCY_MS=$(TSAN_MS) \
	  $(TSAN_BUILD)/tests/concurrency/concurrency_test
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/concurrency/tsan.supp" \
	  $(TSAN_BUILD)/tests/concurrency/interrupt_test
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/concurrency/tsan.supp" \
	  $(TSAN_BUILD)/tests/concurrency/transaction_concurrency_test

asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLEVELQL_SANITIZE=ON -DLEVELQL_BUILD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

# make test-etcd-full - the whole conformance suite (223,349 records) on a
# fresh 3-member etcd cluster (make test runs a third of it on etcd).
ETCD_DIR ?= /tmp/levelql-etcd-full
.PHONY: test-etcd-full
test-etcd-full: build
	tools/etcd-cluster.sh start $(ETCD_DIR) 3
	$(BUILD)/tools/levelql-slt --jobs $(JOBS) \
	  --backend "etcd://$$(cat $(ETCD_DIR)/endpoints)/slt" tests/slt/index; \
	  rc=$$?; tools/etcd-cluster.sh stop $(ETCD_DIR); exit $$rc
