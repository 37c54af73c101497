# cardgames: the homework checker's workflow (build, run, clean) and the project's own targets.
# `make run` starts the already-built program directly (no cargo): one checker test costs milliseconds.

CARGO    ?= cargo
RELEASE  := target/release
VALGRIND := valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 -q
SHARED_TESTS ?= ../shared/hw-tests/tests

.PHONY: build run clean test check valgrind bench lint

## The checker's rules.
build:
	$(CARGO) build --release --quiet

run:
	./$(RELEASE)/homework

clean:
	$(CARGO) clean
	rm -f in out

## The project's own.
test:
	$(CARGO) test

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

# Our tests, then the original checker's tests when ../shared is present.
check: build
	checker/checker.sh checker/tests
	@if [ -d "$(SHARED_TESTS)" ]; then checker/checker.sh "$(SHARED_TESTS)"; \
	else echo "check: $(SHARED_TESTS) not found, original tests skipped"; fi

# The homework program on every test under valgrind: zero errors, zero definite/indirect leaks.
valgrind: build
	@dirs="checker/tests"; [ -d "$(SHARED_TESTS)" ] && dirs="$$dirs $(SHARED_TESTS)"; \
	tmp=$$(mktemp -d); n=0; \
	for f in $$(find $$dirs -name '*.in' | sort); do \
	  cp "$$f" "$$tmp/in"; \
	  (cd "$$tmp" && $(VALGRIND) $(CURDIR)/$(RELEASE)/homework) || { echo "valgrind: $$f failed"; rm -rf "$$tmp"; exit 1; }; \
	  n=$$((n+1)); \
	done; rm -rf "$$tmp"; echo "valgrind: homework clean on $$n tests"

bench:
	$(CARGO) bench --bench homework
