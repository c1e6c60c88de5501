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
#   make fuzz      build the libFuzzer targets (ASan+UBSan) into build-fuzz/
#   make fuzz-run  run each for a share of FUZZ_SECONDS
#   make soak      the long pass: SOAK_QUERIES, SOAK_ORACLE_CHECKS,
#                  SOAK_MODEL_STEPS, SOAK_FUZZ_SECONDS, LEVELQL_SEED
#                  (tests/differential/soak.sh)
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

fuzz:
	CC=clang CXX=clang++ cmake -S tests/differential/fuzz -B $(FUZZ_BUILD)
	cmake --build $(FUZZ_BUILD) -j $(JOBS)

fuzz-run: fuzz
	tests/differential/run_fuzzers.sh $(CURDIR) $(CURDIR)/$(FUZZ_BUILD) \
	  $(FUZZ_SECONDS) --no-build

soak: build fuzz
	BUILD=$(BUILD) FUZZ_BUILD=$(FUZZ_BUILD) tests/differential/soak.sh

.PHONY: fuzz-run soak

# --- Reliability (issue 8) --------------------------------------------------
# make soak-reliability - the long versions: 1,000 SIGKILLs, 400 power cuts,
#   60 s per concurrency variant, 2,000 damaged databases, 100,000 hostile
#   statements; runs them all, fails if any failed (`soak` should depend on
#   it).
# make tsan - concurrency and interrupt tests under ThreadSanitizer
#   (build-tsan); must report nothing.
# make asan - every test under AddressSanitizer + UBSan (build-asan).
SOAK_KILLS ?= 1000
TSAN_BUILD ?= build-tsan
ASAN_BUILD ?= build-asan
TSAN_MS ?= 30000
.PHONY: soak-reliability tsan asan
soak-reliability: build
	@fail=0; \
	LEVELQL_CRASH_KILLS=$(SOAK_KILLS) $(BUILD)/tests/crash/crash_test || fail=1; \
	LEVELQL_POWER_LOSSES=400 $(BUILD)/tests/faults/power_loss_test || fail=1; \
	$(BUILD)/tests/faults/fault_injection_test || fail=1; \
	LEVELQL_CONCURRENCY_MS=60000 $(BUILD)/tests/concurrency/concurrency_test || fail=1; \
	$(BUILD)/tests/concurrency/interrupt_test || fail=1; \
	LEVELQL_CORRUPTIONS=2000 $(BUILD)/tests/limits/corruption_test || fail=1; \
	LEVELQL_HOSTILE_INPUTS=100000 $(BUILD)/tests/limits/hostile_input_test || fail=1; \
	$(BUILD)/tests/limits/limits_test || fail=1; \
	exit $$fail

tsan: deps
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLEVELQL_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS=-fsanitize=thread \
	  -DCMAKE_C_FLAGS=-fsanitize=thread \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
	cmake --build $(TSAN_BUILD) --target concurrency_test interrupt_test -j $(JOBS)
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/concurrency/tsan.supp" \
	  LEVELQL_CONCURRENCY_MS=$(TSAN_MS) \
	  $(TSAN_BUILD)/tests/concurrency/concurrency_test
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/concurrency/tsan.supp" \
	  $(TSAN_BUILD)/tests/concurrency/interrupt_test

asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLEVELQL_SANITIZE=ON -DLEVELQL_BUILD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)
