# cardgames: the homework checker's workflow (build, run, clean) and the project's own targets.
# `make run` starts the already-built program directly (no cargo): one checker test costs milliseconds.

CARGO    ?= cargo
RELEASE  := target/release
VALGRIND := valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 -q
SHARED_TESTS ?= ../shared/hw-tests/tests

.PHONY: build run clean test setup check valgrind bench lint callgrind

## The checker's rules.
build:
	$(CARGO) build --release --quiet

run:
	./$(RELEASE)/homework

clean:
	$(CARGO) clean
	rm -f in out

## The project's own.
# The whole test suite: lint, cargo test (unit, property, CLI tests), valgrind.
test: setup lint
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

# Our tests, then the original checker's tests when ../shared is present.
check: build
	checker/checker.sh checker/tests
	@if [ -d "$(SHARED_TESTS)" ]; then checker/checker.sh "$(SHARED_TESTS)"; \
	else echo "check: $(SHARED_TESTS) not found, original tests skipped"; fi

# The homework program on every test under valgrind: zero errors, zero definite/indirect leaks.
valgrind: setup build
	@dirs="checker/tests"; [ -d "$(SHARED_TESTS)" ] && dirs="$$dirs $(SHARED_TESTS)"; \
	tmp=$$(mktemp -d); n=0; \
	for f in $$(find $$dirs -name '*.in' | sort); do \
	  cp "$$f" "$$tmp/in"; \
	  (cd "$$tmp" && $(VALGRIND) $(CURDIR)/$(RELEASE)/homework) || { echo "valgrind: $$f failed"; rm -rf "$$tmp"; exit 1; }; \
	  n=$$((n+1)); \
	done; rm -rf "$$tmp"; echo "valgrind: homework clean on $$n tests"

bench:
	$(CARGO) bench --bench homework

# Instructions of the whole homework process per test (valgrind --tool=callgrind); budget 400,000.
BUDGET ?= 400000
callgrind: setup build
	@dirs="checker/tests"; [ -d "$(SHARED_TESTS)" ] && dirs="$$dirs $(SHARED_TESTS)"; \
	tmp=$$(mktemp -d); max=0; total=0; n=0; \
	for f in $$(find $$dirs -name '*.in' | sort -V); do \
	  cp "$$f" "$$tmp/in"; \
	  ir=$$(cd "$$tmp" && valgrind --tool=callgrind --callgrind-out-file=/dev/null $(CURDIR)/$(RELEASE)/homework 2>&1 | sed -n 's/.*Collected : //p'); \
	  printf '%-60s %9d\n' "$$f" "$$ir"; \
	  total=$$((total+ir)); n=$$((n+1)); [ "$$ir" -gt "$$max" ] && max=$$ir; \
	done; rm -rf "$$tmp"; \
	echo "callgrind: $$n tests, $$total instructions in all, at most $$max per test (budget $(BUDGET))"; \
	[ "$$max" -le "$(BUDGET)" ]
