# battlecore: the two commands that matter are `make run` and `make test`.
# Both install what is missing (scripts/install-deps.sh), configure, build and go.

JOBS ?= 2
RELEASE_DIR := build/release
TEST_DIR := build/test
BATTLES ?= 200000

.PHONY: all deps build run test bench clean format

all: build

deps:
	@bash scripts/install-deps.sh

$(RELEASE_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DBATTLECORE_BUILD_TESTS=OFF -DBATTLECORE_BUILD_BENCHMARKS=ON

$(TEST_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(TEST_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBATTLECORE_BUILD_TESTS=ON -DBATTLECORE_BUILD_BENCHMARKS=OFF -DBATTLECORE_SANITIZE=ON -DBATTLECORE_WERROR=ON

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

bench: build
	$(RELEASE_DIR)/bench/battlecore_bench

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp')

clean:
	rm -rf build
