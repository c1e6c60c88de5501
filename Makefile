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
# (issue 7): prints the goal table, writes $(BUILD)/bench.json and, when
# gnuplot or python3-matplotlib is installed, $(BUILD)/bench.png.
BENCH_FLAGS ?= --rows 1000000 --json $(BUILD)/bench.json --plot $(BUILD)/bench.png
bench: build
	$(BUILD)/bench/levelql-bench $(BENCH_FLAGS)

