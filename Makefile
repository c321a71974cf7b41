# battlecore: the two commands that matter are `make run` and `make test`.
# Both install what is missing (scripts/install-deps.sh), configure, build and go.

JOBS ?= 2
RELEASE_DIR := build/release
TEST_DIR := build/test
# `make pgo`: the release build optimised with a profile of the bundled content (GCC).
PGO_DIR := build/pgo
BATTLES ?= 200000
# Sanitizer builds (tests and fuzzers) compile at -O1 with line tables only: the sanitizers'
# recommended level, and less than half the compile time of -O2 -g. The test programs' own files
# compile at -O0, in less than half the time again (docs/architecture.md).
SANITIZE_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DBATTLECORE_SANITIZE=ON
TEST_CONFIG := $(SANITIZE_FLAGS) -DBATTLECORE_TEST_COMPILE_OPTIONS=-O0 -DBATTLECORE_BUILD_TESTS=ON -DBATTLECORE_BUILD_BENCHMARKS=OFF -DBATTLECORE_WERROR=ON
# With clang (scripts/install-deps.sh installs it) the test build also holds the libFuzzer
# targets: one compile of the libraries serves the tests and the fuzzers, and the fuzzers'
# 5-second smoke runs are CTest tests beside the others.
CLANG_FUZZ := -DCMAKE_CXX_COMPILER=clang++ -DBATTLECORE_FUZZ=ON -DBATTLECORE_FUZZ_SECONDS=5
# `make fuzz` runs each target FUZZ_SECONDS in its own build.
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 120
FUZZ_CONFIG := -DCMAKE_CXX_COMPILER=clang++ $(SANITIZE_FLAGS) -DBATTLECORE_BUILD_TESTS=OFF -DBATTLECORE_FUZZ=ON
# The invariant sweep: SWEEP_BATTLES random battles per encounter of every bundled pack, in a
# build of its own: optimised, with the checks and assertions on and without the sanitizers.
# Each step round-trips a JSON snapshot, and the sanitizers' allocator would take most of the
# time: the sweep runs about 11 times faster there. `make test` sweeps 3 battles per encounter
# in the sanitizer build.
SWEEP_BATTLES ?= 500
SWEEP_DIR := build/sweep
SWEEP_CONFIG := -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1" \
  -DBATTLECORE_BUILD_TESTS=ON -DBATTLECORE_BUILD_BENCHMARKS=OFF -DBATTLECORE_WERROR=ON

.PHONY: all deps build run test bench pgo clean format fuzz sweep yardstick

all: build

deps:
	@bash scripts/install-deps.sh

$(RELEASE_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DBATTLECORE_BUILD_TESTS=OFF -DBATTLECORE_BUILD_BENCHMARKS=ON

$(TEST_DIR)/CMakeCache.txt: | deps
	@if command -v clang++ >/dev/null 2>&1; then \
	  echo cmake -S . -B $(TEST_DIR) $(TEST_CONFIG) $(CLANG_FUZZ); cmake -S . -B $(TEST_DIR) $(TEST_CONFIG) $(CLANG_FUZZ); \
	else \
	  echo "clang++ not found: the tests are built without the fuzz targets"; cmake -S . -B $(TEST_DIR) $(TEST_CONFIG); \
	fi

build: deps $(RELEASE_DIR)/CMakeCache.txt
	cmake --build $(RELEASE_DIR) -j $(JOBS)

# The main job: simulate the starter pack's default encounter, then say how to play it.
run: build
	$(RELEASE_DIR)/apps/battlecore/battlecore sim --rules deckbuilder --battles $(BATTLES) --seed 1
	@echo
	@echo "Play it yourself:  $(RELEASE_DIR)/apps/battlecore/battlecore play --rules deckbuilder --seed 1"
	@echo "See the phases:    $(RELEASE_DIR)/apps/battlecore/battlecore graph --rules deckbuilder"

test: deps $(TEST_DIR)/CMakeCache.txt
	cmake --build $(TEST_DIR) -j $(JOBS)
	cd $(TEST_DIR) && ctest --output-on-failure -j $(JOBS)

# The fuzz targets, built with clang, ASan and UBSan in their own build directory, each run
# FUZZ_SECONDS on its seed corpus (tests/fuzz/corpus/), new inputs kept in the build directory.
# Every target of BATTLECORE_FUZZ_TARGETS (CMakeLists.txt) has its corpus directory, which the
# tests' corpus runners read: the directories name the targets here.
FUZZ_TARGETS := $(sort $(notdir $(wildcard tests/fuzz/corpus/*)))
fuzz: deps
	cmake -S . -B $(FUZZ_DIR) $(FUZZ_CONFIG) >/dev/null
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target battlecore_fuzzers
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_DIR)/tests/fuzz/corpus_$$t && \
	  $(FUZZ_DIR)/tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	    $(FUZZ_DIR)/tests/fuzz/corpus_$$t tests/fuzz/corpus/$$t || exit 1; \
	done

# The invariant sweep with many battles (make test runs it with 3 per encounter).
sweep: deps
	cmake -S . -B $(SWEEP_DIR) $(SWEEP_CONFIG) >/dev/null
	cmake --build $(SWEEP_DIR) -j $(JOBS) --target sim_sweep_test
	BATTLECORE_SWEEP_BATTLES=$(SWEEP_BATTLES) $(SWEEP_DIR)/tests/sim_sweep_test

bench: build
	$(RELEASE_DIR)/bench/battlecore_bench

# W1 beside the hand-coded yardstick (../shared/tools/w1-limit, or W1_LIMIT_SOURCE), pinned and
# alternating: YARDSTICK_ROUNDS rounds of YARDSTICK_BATTLES battles each.
YARDSTICK_ROUNDS ?= 4
YARDSTICK_BATTLES ?= 1000000
yardstick: build
	bash scripts/yardstick.sh $(YARDSTICK_ROUNDS) $(YARDSTICK_BATTLES)

# Profile-guided: an instrumented build plays the bundled content (scripts/pgo-train.sh), then
# everything is compiled again with that profile. Same rules, same battles; the binaries are in
# $(PGO_DIR) (the CLI, and the benchmarks: $(PGO_DIR)/bench/battlecore_bench).
pgo: deps
	rm -rf $(PGO_DIR)/pgo-data
	cmake -S . -B $(PGO_DIR) -DCMAKE_BUILD_TYPE=Release -DBATTLECORE_BUILD_TESTS=OFF -DBATTLECORE_BUILD_BENCHMARKS=ON -DBATTLECORE_PGO=generate
	cmake --build $(PGO_DIR) -j $(JOBS) --target battlecore_cli
	bash scripts/pgo-train.sh $(PGO_DIR)/apps/battlecore/battlecore
	cmake -S . -B $(PGO_DIR) -DBATTLECORE_PGO=use
	cmake --build $(PGO_DIR) -j $(JOBS)

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp')

clean:
	rm -rf build
