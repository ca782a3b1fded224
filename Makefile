# Thin wrapper over CMake.
#   make demo   plan the built-in example networks (Release build)
#   make test   build everything (ASan + UBSan) and run every test
#   make bench  Release benchmarks (tables)
#   make install PREFIX=/opt/ta   the library, headers, CLI, CMake package and .pc files
JOBS ?= 2
PREFIX ?= /usr/local
BUILD ?= build
TEST_BUILD ?= build-asan

.PHONY: all demo test bench clean setup fuzz install

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTA_SANITIZE=OFF >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

demo: all
	./$(BUILD)/tinyarena demo

setup:
	./scripts/setup.sh

test: setup
	cmake -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTA_SANITIZE=ON >/dev/null
	cmake --build $(TEST_BUILD) -j$(JOBS)
	cd $(TEST_BUILD) && ctest --output-on-failure -j$(JOBS)

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: all
	./$(BUILD)/bench/bench_plan

clean:
	rm -rf $(BUILD) $(TEST_BUILD)
