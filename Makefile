# cardgames: the homework checker's workflow (build, run, clean) and the project's own targets.
# `make run` starts the already-built program directly (no cargo): one checker test costs milliseconds.

CARGO    ?= cargo
TARGET_DIR := $(abspath $(or $(CARGO_TARGET_DIR),target))
RELEASE  := $(TARGET_DIR)/release
VALGRIND := valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 -q
SHARED_TESTS ?= ../shared/hw-tests/tests

# C programs on the library (c_tests/): built against the static library, and
# the harnesses also against the shared one (found through the rpath).
CC       ?= cc
C_STRICT := -std=c99 -Wall -Wextra -Werror -pedantic
C_FLAGS  := $(C_STRICT) -g -Iinclude
C_OUT    := $(TARGET_DIR)/c
STATIC_LIB  := $(RELEASE)/libcardgames.a
NATIVE_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
HARNESSES   := $(basename $(notdir $(wildcard c_tests/test_*.c)))

.PHONY: build run debug clean test setup check valgrind bench lint callgrind run-c c-build c-tests header-check

## The checker's rules.
build:
	$(CARGO) build --release --quiet
	@$(MAKE) --no-print-directory c-build

run:
	$(RELEASE)/homework

# What `run` does, and also writes `out.debug`: the game step by step in the
# format of the original checker's `.debug` files.
debug:
	$(RELEASE)/homework --debug

# The C coursework program (c_tests/homework.c) instead: make check RUNNER=c
run-c:
	$(C_OUT)/homework

clean:
	$(CARGO) clean
	rm -f in out

## The project's own.
# The whole test suite: lint, header check, cargo test (unit, property, CLI,
# C harnesses), the C harnesses linked both ways, valgrind.
test: setup lint header-check
	$(CARGO) test
	$(MAKE) --no-print-directory valgrind

# What a fresh machine lacks: valgrind (installed with apt-get when we are root).
setup:
	@command -v valgrind >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; \
	  else echo "setup: valgrind is missing: install it (e.g. sudo apt-get install valgrind)"; exit 1; fi; }

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc --no-deps --quiet

# Our tests, then the original checker's tests when ../shared is present.
# RUNNER=c runs the C coursework program instead of the Rust one.
RUN_TARGET := $(if $(filter c,$(RUNNER)),run-c,run)
check: build
	RUN_TARGET=$(RUN_TARGET) checker/checker.sh checker/tests
	@if [ -d "$(SHARED_TESTS)" ]; then RUN_TARGET=$(RUN_TARGET) checker/checker.sh "$(SHARED_TESTS)"; \
	else echo "check: $(SHARED_TESTS) not found, original tests skipped"; fi

## The C side.
c-build: $(C_OUT)/homework

$(C_OUT)/homework: c_tests/homework.c include/cardgames.h $(STATIC_LIB)
	@mkdir -p $(C_OUT)
	$(CC) $(C_FLAGS) $< $(STATIC_LIB) $(NATIVE_LIBS) -o $@

$(C_OUT)/static/%: c_tests/%.c c_tests/check.h include/cardgames.h $(STATIC_LIB)
	@mkdir -p $(C_OUT)/static
	$(CC) $(C_FLAGS) $< $(STATIC_LIB) $(NATIVE_LIBS) -o $@

$(C_OUT)/shared/%: c_tests/%.c c_tests/check.h include/cardgames.h $(RELEASE)/libcardgames.so
	@mkdir -p $(C_OUT)/shared
	$(CC) $(C_FLAGS) $< -L$(RELEASE) -lcardgames -Wl,-rpath,$(RELEASE) -o $@

# Every harness, linked both ways; each prints "N passed, N failed".
c-tests: build $(addprefix $(C_OUT)/static/,$(HARNESSES)) $(addprefix $(C_OUT)/shared/,$(HARNESSES))
	@for t in $(HARNESSES); do for kind in static shared; do \
	  printf '%-8s %-16s ' $$kind $$t; $(C_OUT)/$$kind/$$t || exit 1; \
	done; done

# The committed header must be what cbindgen generates now, and compile alone as pedantic C99.
header-check:
	$(CARGO) build --release --quiet --lib
	@git diff --exit-code --stat -- include/cardgames.h || { echo "header-check: include/cardgames.h is stale: commit the regenerated header"; exit 1; }
	@test -z "$$(git status --porcelain -- include/)" || { echo "header-check: include/ has uncommitted files"; exit 1; }
	$(CC) $(C_STRICT) -Iinclude -c c_tests/header_only.c -o /dev/null
	@echo "header-check: include/cardgames.h is current and compiles alone as C99"

# Under memcheck: the Rust and the C homework programs on every checker test,
# and every C harness (both linkages). Zero errors, zero definite/indirect leaks.
valgrind: setup c-tests
	@dirs="checker/tests"; [ -d "$(SHARED_TESTS)" ] && dirs="$$dirs $(SHARED_TESTS)"; \
	tmp=$$(mktemp -d); n=0; \
	for f in $$(find $$dirs -name '*.in' | sort); do \
	  cp "$$f" "$$tmp/in"; \
	  for prog in $(RELEASE)/homework $(C_OUT)/homework; do \
	    (cd "$$tmp" && $(VALGRIND) $$prog) || { echo "valgrind: $$prog on $$f failed"; rm -rf "$$tmp"; exit 1; }; \
	    n=$$((n+1)); \
	  done; \
	done; rm -rf "$$tmp"; echo "valgrind: homework programs clean on $$n runs"
	@for t in $(HARNESSES); do for kind in static shared; do \
	  $(VALGRIND) $(C_OUT)/$$kind/$$t >/dev/null || { echo "valgrind: $$kind/$$t failed"; exit 1; }; \
	done; done; echo "valgrind: C harnesses clean ($(words $(HARNESSES)) harnesses x static, shared)"

bench:
	$(CARGO) bench --bench homework

# Instructions of the whole homework process per test (valgrind --tool=callgrind); budget 400,000.
BUDGET ?= 400000
callgrind: setup build
	@dirs="checker/tests"; [ -d "$(SHARED_TESTS)" ] && dirs="$$dirs $(SHARED_TESTS)"; \
	tmp=$$(mktemp -d); max=0; total=0; n=0; \
	for f in $$(find $$dirs -name '*.in' | sort -V); do \
	  cp "$$f" "$$tmp/in"; \
	  ir=$$(cd "$$tmp" && valgrind --tool=callgrind --callgrind-out-file=/dev/null $(RELEASE)/homework 2>&1 | sed -n 's/.*Collected : //p'); \
	  printf '%-60s %9d\n' "$$f" "$$ir"; \
	  total=$$((total+ir)); n=$$((n+1)); [ "$$ir" -gt "$$max" ] && max=$$ir; \
	done; rm -rf "$$tmp"; \
	echo "callgrind: $$n tests, $$total instructions in all, at most $$max per test (budget $(BUDGET))"; \
	[ "$$max" -le "$(BUDGET)" ]
