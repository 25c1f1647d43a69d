# The two commands of the README. Both set up a fresh Debian 12 machine
# (scripts/setup.sh, as root), configure and build; then `demo` runs mosaic on
# the bundled example and `test` runs the whole suite through CTest.
BUILD ?= build
JOBS ?= $(shell nproc)
# Unity builds (cmake/Component.cmake): a fresh build, as CI's two, in about
# four fifths of the CPU time (684 against 870 s here).
CMAKE_FLAGS ?= -G Ninja -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DMOSAIC_UNITY=ON

.PHONY: all setup build demo test test-sanitized bench bench-algorithms clean

all: build

setup:
	./scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	cmake -S examples/bank -B $(BUILD)/examples/bank -G Ninja -DCMAKE_C_COMPILER=clang-19 >/dev/null
	cmake --build $(BUILD)/examples/bank
	$(BUILD)/tools/mosaic analyze -p $(BUILD)/examples/bank examples/bank/bank.c
	$(BUILD)/tools/mosaic run -p $(BUILD)/examples/bank examples/bank/bank.c --budget 5s --seed 1 || test $$? -eq 1
	$(BUILD)/tools/mosaic generate -p $(BUILD)/examples/bank examples/bank/bank.c --budget 10s --seed 1 \
	  -o $(BUILD)/examples/bank-tests || test $$? -eq 1
	cmake -S $(BUILD)/examples/bank-tests -B $(BUILD)/examples/bank-tests/demo-build -G Ninja \
	  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
	cmake --build $(BUILD)/examples/bank-tests/demo-build
	ctest --test-dir $(BUILD)/examples/bank-tests/demo-build

# Executions per second three ways (in-process, fork server, fork+exec).
bench: build
	$(BUILD)/bench/mosaic_bench_exec $(BUILD)/tests/fixtures/bench-db tests/fixtures/bench/small.c 5

# The search algorithms at equal budget over seeds, llvm-cov on the suites
# (about 25 minutes; cJSON is fetched first).
bench-algorithms: build
	ctest --test-dir $(BUILD) -R subject.cjson.fetch
	bench/algorithms.py --build $(BUILD)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# mosaic's own code built with ASan + UBSan, offline tests only (CI runs it
# after `make test`): one process per GoogleTest suite, without the
# end-to-end tests that search but for six representative ones, labelled
# e2e (tests/CMakeLists.txt says which and why); that all six are there is
# checked, so that a renamed test is not silently dropped.
test-sanitized: setup
	cmake -S . -B $(BUILD)-sanitized $(CMAKE_FLAGS) -DMOSAIC_SANITIZE=ON
	cmake --build $(BUILD)-sanitized -j $(JOBS)
	test "$$(ctest --test-dir $(BUILD)-sanitized -N -L e2e | grep -c 'Test *#')" -eq 6
	ctest --test-dir $(BUILD)-sanitized --output-on-failure -j $(JOBS) -LE online

clean:
	rm -rf $(BUILD) $(BUILD)-sanitized
