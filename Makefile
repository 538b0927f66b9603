# Apogee: the two commands that do everything on a fresh Debian 12 machine.
#   make run   installs what is missing, builds Release, starts the server (data in ./data)
#   make test  installs, builds, runs every test (unit, ASan+UBSan unit, fuzz smoke, integration, compat)

JOBS ?= 2
BUILD_DIR ?= build/release
ASAN_DIR ?= build/asan
FUZZ_DIR ?= build/fuzz
# Seconds per fuzz target: the smoke (test-fuzz) defaults to 5, a campaign to 600.
FUZZ_SECONDS ?=
GENERATOR := -G Ninja

# ccache keyed on paths relative to the checkout, so a fresh clone (CI) hits the cache.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true
export CCACHE_MAXSIZE ?= 5G

.PHONY: all deps build build-asan build-fuzz run run-namesrv test test-unit test-asan test-fuzz \
        test-integration fuzz-campaign fuzz-summary bench bench-peers format check-deps clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

$(ASAN_DIR)/build.ninja:
	cmake -S . -B $(ASAN_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 \
	  -DAPOGEE_SANITIZE=ON -DAPOGEE_BUILD_APPS=OFF -DAPOGEE_BUILD_BENCH=OFF

build-asan: deps $(ASAN_DIR)/build.ninja
	cmake --build $(ASAN_DIR) -j $(JOBS)

$(FUZZ_DIR)/build.ninja:
	CXX=clang++ cmake -S . -B $(FUZZ_DIR) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAPOGEE_FUZZ=ON

build-fuzz: deps $(FUZZ_DIR)/build.ninja
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzzers

# Starts the server in the foreground with its data under ./data. Builds only what a
# quick-start user runs: the servers, the tools (mqadmin, mqbench, mqdashboard) and the C++
# example programs.
RUN_TARGETS := mqbroker mqnamesrv mqadmin mqbench mqdashboard apogee_examples
run: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS) --target $(RUN_TARGETS)
	@bash scripts/run.sh $(BUILD_DIR)

check-deps:
	@bash scripts/check-deps.sh
	@bash scripts/check-refs.sh

test-fuzz: build-fuzz
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/run-fuzzers.sh $(FUZZ_DIR)

# Long run, one target at a time under nice -n 19 (FUZZ_NICE=n), corpora kept in $(FUZZ_DIR)/campaign/;
# FUZZ_MERGE=1 merges new coverage into tests/fuzz/corpus/. Figures: docs/security.md.
#   make fuzz-campaign FUZZ_SECONDS=3600 FUZZ_TARGETS=header_decode_fuzz FUZZ_MERGE=1
#   make fuzz-campaign FUZZ_GOAL=10000000 FUZZ_UNTIL=06:45   (each target up to 10 M execs in all)
fuzz-campaign: build-fuzz
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/run-fuzzers.sh --campaign $(FUZZ_DIR)

# Executions, runs, corpus and failures per target over every campaign run (results.tsv).
fuzz-summary:
	@bash scripts/fuzz-summary.sh $(FUZZ_DIR)

# A sanitizer report fails the test (the build also has -fno-sanitize-recover=all).
test-asan: build-asan
	cd $(ASAN_DIR) && ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest -j $(JOBS) --output-on-failure -L unit

test-unit: build
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure -L unit

# Everything: dependency rule, fuzz smoke, sanitizer unit tests, then the full suite
# (unit, integration, compat) on the Release build.
test: check-deps test-fuzz test-asan build
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure

bench: build
	@bash scripts/run-benchmarks.sh $(BUILD_DIR)

# Apogee beside NATS JetStream, Redis Streams and RabbitMQ, one run (bench/peers/README.md);
# not part of `make test`. Knobs: DURATION, BACKLOG_MIB, SYSTEMS, WRITE_DOCS, KEEP_SCRATCH.
bench-peers:
	BUILD_DIR=$(BUILD_DIR) CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) bash bench/peers/run.sh

format:
	find src include apps tests bench -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf build
