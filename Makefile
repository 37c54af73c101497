# cardgames: the homework checker's workflow (build, run, clean) and the project's own targets.
# `make run` starts the already-built program directly (no cargo): one checker test costs milliseconds.

CARGO    ?= cargo
TARGET_DIR := $(abspath $(or $(CARGO_TARGET_DIR),target))
RELEASE  := $(TARGET_DIR)/release
VALGRIND := valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 -q
# memcheck runs at a time in `make valgrind` (the machine's cores, as `-j`)
VALGRIND_JOBS ?= 2
SHARED_TESTS ?= ../shared/hw-tests/tests

# C programs on the library (c_tests/): built against the static library, and
# the harnesses also against the shared one (found through the rpath).
CC       ?= cc
C_STRICT := -std=c99 -Wall -Wextra -Werror -pedantic
C_FLAGS  := $(C_STRICT) -g -Iinclude
C_OUT    := $(TARGET_DIR)/c
# The library C links: the lean feature set (no clap, indicatif, rayon, serde;
# see Cargo.toml), built into its own target directory so it never overwrites
# (or is overwritten by) the default-feature target/release/libcardgames.a.
C_LIB_TARGET := $(TARGET_DIR)/clib
C_LIB_DIR   := $(C_LIB_TARGET)/release
C_LIB_FLAGS := --release --lib --no-default-features --target-dir $(C_LIB_TARGET)
STATIC_LIB  := $(C_LIB_DIR)/libcardgames.a
NATIVE_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
# What a C program linked to the static library needs besides libc (the
# compiler driver adds libgcc's unwinder itself, libgcc_eh under -static).
PC_PRIVATE  := -lutil -lrt -lpthread -lm -ldl
HARNESSES   := $(basename $(notdir $(wildcard c_tests/test_*.c)))

.PHONY: report-check grader-pages docs-war docs-war-run build run debug clean c-lib run-coursework coursework-asan install uninstall install-test fuzz-c fuzz-c-run coursework-asan-run test setup check valgrind bench lint callgrind run-c c-build c-tests header-check coup-bench coup-agree coup-long coup-ceiling

## The checker's rules.
build:
	$(CARGO) build --release --quiet
	@$(MAKE) --no-print-directory c-build

# The lean C library (static and shared); cargo decides whether it is stale.
# Programs linked to the shared one need its SONAME, libcardgames.so.0: the
# link beside it lets them run from the build tree (through their rpath).
c-lib:
	$(CARGO) build $(C_LIB_FLAGS) --quiet
	@ln -sf libcardgames.so $(C_LIB_DIR)/libcardgames.so.$(MAJOR)

$(STATIC_LIB) $(C_LIB_DIR)/libcardgames.so: c-lib

run:
	$(RELEASE)/homework

# What `run` does, and also writes `out.debug`: the game step by step in the
# format of the original checker's `.debug` files.
debug:
	$(RELEASE)/homework --debug

# The C coursework program (c_tests/homework.c) instead: make check RUNNER=c
run-c:
	$(C_OUT)/homework

# The student-style C coursework on the list operations
# (c_tests/coursework/homework.c): make check RUNNER=coursework
run-coursework:
	$(C_OUT)/coursework

clean:
	$(CARGO) clean
	rm -f in out out.debug

## The project's own.
# The whole test suite: lint, header check, cargo test (unit, property, CLI,
# C harnesses), the C harnesses linked both ways, valgrind.
# No check passes by skipping silently. What `make setup` installs (valgrind,
# bubblewrap) is required: a test without it fails. A check whose prerequisite
# lies outside the repository (../shared: the original checker tests, the
# contest's arbiter) does not run when it is absent, outside CI: it says so
# when it stops and records itself in $(NOT_RUN) (tests/support/mod.rs
# `outside`, scripts/not-run note), and the last lines of make test list them,
# grouped by what they need and counted apart (scripts/not-run summary); under
# CI (CI set) they run, and fail when it is absent. The slower such tests are
# #[ignore]d with their reason by a plain `cargo test` and run by the second
# pass here, which leaves out the ignored tests that are not prerequisites'
# (NOT_IN_MAKE_TEST, named in the summary): the replica against the real
# Calculator (COUP_CALCULATOR, which CI has not: it stays listed as ignored),
# and two long measurements.
NOT_IN_MAKE_TEST := replica_matches_the_real_calculator \
  twenty_fixture_copies_with_j2_within_half_the_limits_plus_builds \
  referee_bot_wins_every_start_with_the_game_value
NOT_RUN := $(TARGET_DIR)/not-run.txt
# Each step prints its wall time (scripts/timed), so a slow CI log shows where the time went.
TIMED := scripts/timed
test: export CARDGAMES_NOT_RUN := $(NOT_RUN)
test: setup
	@mkdir -p $(TARGET_DIR) && rm -f $(NOT_RUN)
	$(TIMED) $(MAKE) --no-print-directory lint
	$(TIMED) $(MAKE) --no-print-directory header-check
	$(TIMED) $(CARGO) test --features debug-panic
	$(TIMED) $(CARGO) test --features debug-panic --tests -- --ignored $(addprefix --skip ,$(NOT_IN_MAKE_TEST))
	@# The measurement modes (feature measure: the clairvoyant bounds, the exploiter) and their tests.
	$(TIMED) $(CARGO) test --features measure --lib --test durak_deep --test coup_exploit --quiet
	$(TIMED) $(MAKE) --no-print-directory valgrind
	$(TIMED) $(MAKE) --no-print-directory coursework-asan
	$(TIMED) $(MAKE) --no-print-directory fuzz-c
	$(TIMED) $(MAKE) --no-print-directory docs-war
	$(TIMED) $(MAKE) --no-print-directory report-check
	$(TIMED) $(MAKE) --no-print-directory install-test
	$(TIMED) $(MAKE) --no-print-directory grader-pages
	@scripts/not-run summary $(NOT_RUN) $(NOT_IN_MAKE_TEST)

# The tournament reports in a real browser: a small Coup and a Durak tournament with --html, then
# scripts/page-check (headless Chromium: fails on a load or script error) on each report and one
# replay page of each, screenshots in $(REPORT_SHOTS). Without Chromium it skips saying so, and
# fails under CI.
REPORT_SHOTS ?= $(TARGET_DIR)/report-shots
report-check:
	$(CARGO) build --release --quiet --bin coup-arbiter --bin durak-server
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  scripts/not-run note "chromium (make setup installs it as root)" "make report-check: the reports in a browser"; exit; }; \
	tmp=$(TARGET_DIR)/report-check; rm -rf "$$tmp"; mkdir -p "$$tmp"; \
	$(RELEASE)/coup-arbiter -q -r 2 -s 7 --work-dir "$$tmp/work" builtin:search builtin:calculator builtin:honest \
	  --json "$$tmp/coup.json" --html "$$tmp/coup.html" >/dev/null && \
	$(RELEASE)/durak-server -q -a inproc:heuristic -b inproc:greedy --deals 4 --duplicate --seed 7 \
	  --json "$$tmp/durak.json" --html "$$tmp/durak.html" >/dev/null && \
	scripts/page-check --screenshots $(REPORT_SHOTS) "$$tmp/coup.html" "$$tmp/coup-games/game-00000.html" \
	  "$$tmp/durak.html" "$$tmp/durak-games/game-00000.html"; \
	status=$$?; rm -rf "$$tmp/work"; exit $$status

# What a fresh machine lacks (valgrind, bubblewrap for the grader's sandbox, chromium for the
# pages' checks, ...): each tool a test needs and the Debian package that has it: installed with apt-get when
# missing and we are root; otherwise the required ones stop setup with how to get them and
# the others are named (their checks skip outside CI, saying so, and fail under CI).
SETUP_REQUIRED := valgrind:valgrind bwrap:bubblewrap
SETUP_OPTIONAL := chromium:chromium pkg-config:pkg-config xmllint:libxml2-utils zip:zip unzip:unzip
setup:
	@missing=""; for pair in $(SETUP_REQUIRED) $(SETUP_OPTIONAL); do \
	  command -v "$${pair%%:*}" >/dev/null || missing="$$missing $${pair#*:}"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "setup: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi; \
	for pair in $(SETUP_REQUIRED); do command -v "$${pair%%:*}" >/dev/null || { \
	  echo "setup: $${pair%%:*} is missing: install it (e.g. sudo apt-get install $${pair#*:})"; exit 1; }; done; \
	for pair in $(SETUP_OPTIONAL); do command -v "$${pair%%:*}" >/dev/null || \
	  echo "setup: $${pair%%:*} is missing (its checks skip, CI fails): e.g. sudo apt-get install $${pair#*:}"; done; \
	command -v prlimit >/dev/null || { echo "setup: prlimit (util-linux) is missing: the grader's sandbox sets its limits with it"; exit 1; }
	@# Python modules the tests use, as module:package: Playwright drives cardgames-play --web
	@# in that chromium (tests/play.rs; it downloads no browser), yaml reads the grader's
	@# Classroom workflow (tests/grader.rs).
	@for pair in playwright.sync_api:playwright yaml:pyyaml; do \
	  python3 -c "import $${pair%%:*}" 2>/dev/null && continue; \
	  if [ "$$(id -u)" = 0 ]; then \
	    python3 -m pip install -q "$${pair#*:}" >/dev/null 2>&1 || python3 -m pip install -q --break-system-packages "$${pair#*:}" >/dev/null; \
	  else echo "setup: python3's $${pair%%:*} is missing (its tests skip, CI fails): python3 -m pip install $${pair#*:}"; fi; done

# Also the library as C links it (--no-default-features, see C_LIB_FLAGS): its
# clippy (every target that builds without the cli feature: the library, its unit
# tests, the integration tests that need no program), rustdoc and unit tests. The
# programs and the tests that drive them need the cli feature (required-features).
lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy --all-targets --no-default-features -- -D warnings
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc --no-deps --quiet
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc --no-deps --quiet --no-default-features
	$(CARGO) test --lib --no-default-features --quiet

# Our tests, then the original checker's tests when ../shared is present.
# RUNNER=c runs the C coursework program instead of the Rust one.
RUN_TARGET := $(if $(filter c,$(RUNNER)),run-c,$(if $(filter coursework,$(RUNNER)),run-coursework,run))
check: build
	RUN_TARGET=$(RUN_TARGET) checker/checker.sh checker/tests
	@# Then the original tests, and the grader on this project itself (in place:
	@# trusted, incremental build): 100/100 on them and no valgrind deduction.
	@# Without them (a clone alone) both are named as not run; CI fails.
	@if [ ! -d "$(SHARED_TESTS)" ]; then \
	  scripts/not-run note "$(SHARED_TESTS) (the original checker tests)" \
	    "make check on the original tests (the checker$(if $(filter run,$(RUN_TARGET)), and the grader))"; exit; fi; \
	RUN_TARGET=$(RUN_TARGET) checker/checker.sh "$(SHARED_TESTS)" || exit 1; \
	if [ "$(RUN_TARGET)" = run ]; then \
	  vg=; command -v valgrind >/dev/null || { vg=--no-valgrind; echo "check: valgrind missing, grading without it"; }; \
	  $(RELEASE)/homework-grade . --in-place --tests "$(SHARED_TESTS)" --fail-under 100 $$vg; fi

## The C side.
c-build: $(C_OUT)/homework $(C_OUT)/coursework

$(C_OUT)/coursework: c_tests/coursework/homework.c include/cardgames.h $(STATIC_LIB)
	@mkdir -p $(C_OUT)
	$(CC) $(C_FLAGS) $< $(STATIC_LIB) $(NATIVE_LIBS) -o $@

# The coursework under AddressSanitizer and UBSan, on every checker test
# with --debug (out and out.debug compared with .ref and .debug when present).
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# Shell: dirs= checker/tests and the original tests when present; when they are
# absent, the step $(1) (its name, without a comma) on them says it does not run
# (scripts/not-run note), and under CI fails.
with_shared_tests = dirs="checker/tests"; if [ -d "$(SHARED_TESTS)" ]; then dirs="$$dirs $(SHARED_TESTS)"; \
  else scripts/not-run note "$(SHARED_TESTS) (the original checker tests)" "$(1)" || exit 1; fi
# Shell: skips the rest of the recipe line, saying so, when $(CC) cannot build
# with the sanitizers (the step $(1) does not run, scripts/not-run note); under CI fails.
need_sanitizers = $(HAVE_SANITIZERS) || { scripts/not-run note "$(CC) with AddressSanitizer and UBSan" "$(1)"; exit; }
# Succeeds when $(CC) can build and run a sanitized program.
HAVE_SANITIZERS = printf 'int main(void){return 0;}\n' | $(CC) $(SANITIZE) -x c - -o $(C_OUT)/sanitizer-probe 2>/dev/null && $(C_OUT)/sanitizer-probe
coursework-asan: c-lib
	@mkdir -p $(C_OUT)
	@$(call need_sanitizers,make coursework-asan); \
	$(MAKE) --no-print-directory coursework-asan-run

coursework-asan-run:
	$(CC) $(C_FLAGS) $(SANITIZE) c_tests/coursework/homework.c $(STATIC_LIB) $(NATIVE_LIBS) -o $(C_OUT)/coursework-asan
	@$(call with_shared_tests,make coursework-asan on the original tests); \
	tmp=$$(mktemp -d); n=0; \
	for f in $$(find $$dirs -name '*.in' | sort); do \
	  cp "$$f" "$$tmp/in"; \
	  (cd "$$tmp" && $(C_OUT)/coursework-asan --debug) || { echo "coursework-asan: $$f failed"; rm -rf "$$tmp"; exit 1; }; \
	  diff -qw "$$tmp/out" "$${f%.in}.ref" >/dev/null || { echo "coursework-asan: $$f: out differs"; exit 1; }; \
	  n=$$((n+1)); \
	done; rm -rf "$$tmp"; echo "coursework-asan: $$n tests, no ASan/UBSan report, out as .ref"

$(C_OUT)/homework: c_tests/homework.c include/cardgames.h $(STATIC_LIB)
	@mkdir -p $(C_OUT)
	$(CC) $(C_FLAGS) $< $(STATIC_LIB) $(NATIVE_LIBS) -o $@

$(C_OUT)/static/%: c_tests/%.c c_tests/check.h include/cardgames.h $(STATIC_LIB)
	@mkdir -p $(C_OUT)/static
	$(CC) $(C_FLAGS) $< $(STATIC_LIB) $(NATIVE_LIBS) -o $@

$(C_OUT)/shared/%: c_tests/%.c c_tests/check.h include/cardgames.h $(C_LIB_DIR)/libcardgames.so
	@mkdir -p $(C_OUT)/shared
	$(CC) $(C_FLAGS) $< -L$(C_LIB_DIR) -lcardgames -Wl,-rpath,$(C_LIB_DIR) -o $@

# Every harness, linked both ways; each prints "N passed, N failed".
c-tests: build $(addprefix $(C_OUT)/static/,$(HARNESSES)) $(addprefix $(C_OUT)/shared/,$(HARNESSES))
	@for t in $(HARNESSES); do for kind in static shared; do \
	  printf '%-8s %-16s ' $$kind $$t; $(C_OUT)/$$kind/$$t || exit 1; \
	done; done

# The committed header must be what cbindgen generates now, and compile alone as
# C89, C99, C++98 and C++17 with -pedantic -Werror.
header-check:
	$(CARGO) build --release --quiet --lib
	@git diff --exit-code --stat -- include/cardgames.h || { echo "header-check: include/cardgames.h is stale: commit the regenerated header"; exit 1; }
	@test -z "$$(git status --porcelain -- include/)" || { echo "header-check: include/ has uncommitted files"; exit 1; }
	@for std in c89 c99; do $(CC) -x c -std=$$std -pedantic -Wall -Wextra -Werror -Iinclude -c c_tests/header_only.c -o /dev/null || exit 1; done
	@for std in c++98 c++17; do $(CXX) -x c++ -std=$$std -pedantic -Wall -Wextra -Werror -Iinclude -c c_tests/header_only.c -o /dev/null || exit 1; done
	@echo "header-check: include/cardgames.h is current and compiles alone as C89, C99, C++98 and C++17"

# The grader's HTML in a real browser: the honest fixtures graded with --html
# (1 s limit, no valgrind), then the course page and a failing submission's
# page (wrong-answer: its first differences) loaded in headless Chromium by
# scripts/page-check, which fails on a load or console error or a broken
# link (and must fail a broken page: no marker, a script error). Pages and
# screenshots stay in $(TARGET_DIR)/grader-pages. Without
# chromium this skips with a message, and fails under CI.
PAGES_DIR := $(TARGET_DIR)/grader-pages
grader-pages:
	@command -v chromium >/dev/null || { \
	  scripts/not-run note "chromium (make setup installs it as root)" "make grader-pages: the grader's pages in a browser"; exit; }
	$(CARGO) build --release --quiet --bin homework-grade
	@rm -rf $(PAGES_DIR) && mkdir -p $(PAGES_DIR)/subs && \
	for d in checker/fixtures/*/; do n=$$(basename $$d); [ "$$n" = hostile ] || cp -rL "$$d" $(PAGES_DIR)/subs/$$n; done
	$(RELEASE)/homework-grade --all $(PAGES_DIR)/subs -j 2 --tests checker/tests --timeout 1 --no-valgrind \
	  --json $(PAGES_DIR)/grades.json --csv $(PAGES_DIR)/grades.csv --html $(PAGES_DIR)/html >/dev/null
	scripts/page-check --screenshots $(PAGES_DIR)/screenshots $(PAGES_DIR)/html/index.html $(PAGES_DIR)/html/wrong-answer.html
	@printf '<!DOCTYPE html><title>broken</title><main><p>no marker</p></main><script>missing()</script>\n' > $(PAGES_DIR)/broken.html; \
	if scripts/page-check --screenshots $(PAGES_DIR)/screenshots-broken $(PAGES_DIR)/broken.html >$(PAGES_DIR)/broken.log; then \
	  echo "grader-pages: page-check passed a broken page"; exit 1; fi; \
	echo "grader-pages: page-check fails a broken page, as it must: $$(grep -c FAIL $(PAGES_DIR)/broken.log) problems found"

# Under memcheck: the Rust and the C homework programs on every checker test,
# and every C harness (both linkages), VALGRIND_JOBS runs at a time. Zero errors, zero
# definite/indirect leaks.
valgrind: setup c-tests
	@$(call with_shared_tests,make valgrind on the original tests); \
	VALGRIND="$(VALGRIND)" scripts/valgrind-homework -j $(VALGRIND_JOBS) $$dirs -- \
	  $(RELEASE)/homework $(C_OUT)/homework "$(C_OUT)/coursework --debug"
	@for t in $(HARNESSES); do for kind in static shared; do echo $(C_OUT)/$$kind/$$t; done; done | \
	  xargs -P $(VALGRIND_JOBS) -I{} sh -c '$(VALGRIND) {} >/dev/null || { echo "valgrind: {} failed"; exit 1; }' && \
	echo "valgrind: C harnesses clean ($(words $(HARNESSES)) harnesses x static, shared)"

# The randomized ABI harness under ASan/UBSan (leaks included) for
# FUZZ_C_SECONDS of CPU time from seed FUZZ_SEED (make fuzz's libFuzzer
# targets take FUZZ_SECONDS, below).
FUZZ_C_SECONDS ?= 10
FUZZ_SEED      ?= 1
fuzz-c: c-lib
	@mkdir -p $(C_OUT)
	@$(call need_sanitizers,make fuzz-c); \
	$(MAKE) --no-print-directory fuzz-c-run

fuzz-c-run:
	$(CC) $(C_FLAGS) $(SANITIZE) c_tests/fuzz_abi.c $(STATIC_LIB) $(NATIVE_LIBS) -o $(C_OUT)/fuzz_abi
	$(C_OUT)/fuzz_abi $(FUZZ_C_SECONDS) $(FUZZ_SEED)

# War written from the installed documentation alone (c_tests/docs_war.c,
# installed as examples/war.c) against the library's cg_war_step on
# DOCS_WAR_DEALS random deals: natively, under valgrind (no error, no byte
# of the heap left, not even still reachable) and under ASan/UBSan.
DOCS_WAR_DEALS ?= 1000
docs-war: setup c-lib
	@mkdir -p $(C_OUT)
	$(CC) $(C_FLAGS) c_tests/docs_war.c $(STATIC_LIB) $(PC_PRIVATE) -o $(C_OUT)/docs_war
	$(C_OUT)/docs_war $(DOCS_WAR_DEALS) 1
	@out=$$($(VALGRIND) --show-leak-kinds=all $(C_OUT)/docs_war $(DOCS_WAR_DEALS) 2 2>&1) || { echo "$$out"; echo "docs-war: valgrind failed"; exit 1; }; \
	echo "$$out" | grep -q 'still reachable' && { echo "$$out"; echo "docs-war: the library left a block on the heap"; exit 1; }; \
	echo "$$out"; echo "docs-war: valgrind clean (nothing still reachable)"
	@$(call need_sanitizers,make docs-war: its ASan/UBSan run); \
	$(MAKE) --no-print-directory docs-war-run

docs-war-run:
	$(CC) $(C_FLAGS) $(SANITIZE) c_tests/docs_war.c $(STATIC_LIB) $(NATIVE_LIBS) -o $(C_OUT)/docs_war-asan
	$(C_OUT)/docs_war-asan $(DOCS_WAR_DEALS) 3

## Installing the C library: header, static and shared library (with its
## SONAME and version links), pkg-config files for the shared and the static
## library, and the documentation (the C guide, the rules, examples).
PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR      := $(PREFIX)/lib
INCLUDEDIR  := $(PREFIX)/include
PC_DIR      := $(LIBDIR)/pkgconfig
DOCDIR      := $(PREFIX)/share/doc/cardgames
RULES       := homework durak ioiwari coup
# Deferred (=): evaluated only by the rules that use them, so `make run` starts
# no shell (the grader runs make's shell under valgrind).
VERSION      = $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
MAJOR        = $(firstword $(subst ., ,$(VERSION)))
SONAME       = libcardgames.so.$(MAJOR)

install: c-lib
	install -d "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(PC_DIR)" "$(DESTDIR)$(DOCDIR)/rules" "$(DESTDIR)$(DOCDIR)/examples"
	install -m 644 include/cardgames.h "$(DESTDIR)$(INCLUDEDIR)/cardgames.h"
	install -m 644 $(STATIC_LIB) "$(DESTDIR)$(LIBDIR)/libcardgames.a"
	install -m 755 $(C_LIB_DIR)/libcardgames.so "$(DESTDIR)$(LIBDIR)/libcardgames.so.$(VERSION)"
	ln -sf libcardgames.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/$(SONAME)"
	ln -sf $(SONAME) "$(DESTDIR)$(LIBDIR)/libcardgames.so"
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: cardgames' \
	  'Description: Card games for coursework and bots: a linked-list deck, shuffles, games and bots' \
	  'Version: $(VERSION)' \
	  'Cflags: -I$${includedir}' \
	  'Libs: -L$${libdir} -lcardgames' \
	  'Libs.private: $(PC_PRIVATE)' > "$(DESTDIR)$(PC_DIR)/cardgames.pc"
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: cardgames-static' \
	  'Description: cardgames linked statically: the program does not need libcardgames.so' \
	  'Version: $(VERSION)' \
	  'Cflags: -I$${includedir}' \
	  'Libs: $${libdir}/libcardgames.a $(PC_PRIVATE)' > "$(DESTDIR)$(PC_DIR)/cardgames-static.pc"
	install -m 644 docs/c-api.md "$(DESTDIR)$(DOCDIR)/c-api.md"
	for r in $(RULES); do install -m 644 docs/rules/$$r.md "$(DESTDIR)$(DOCDIR)/rules/$$r.md" || exit 1; done
	install -m 644 c_tests/docs_war.c "$(DESTDIR)$(DOCDIR)/examples/war.c"
	install -m 644 c_tests/coursework/homework.c "$(DESTDIR)$(DOCDIR)/examples/coursework.c"
	@echo "install: cardgames $(VERSION) in $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f "$(DESTDIR)$(INCLUDEDIR)/cardgames.h" "$(DESTDIR)$(LIBDIR)/libcardgames.a" \
	  "$(DESTDIR)$(LIBDIR)/libcardgames.so" "$(DESTDIR)$(LIBDIR)/$(SONAME)" \
	  "$(DESTDIR)$(LIBDIR)/libcardgames.so.$(VERSION)" "$(DESTDIR)$(PC_DIR)/cardgames.pc" \
	  "$(DESTDIR)$(PC_DIR)/cardgames-static.pc" "$(DESTDIR)$(DOCDIR)/c-api.md" \
	  $(foreach r,$(RULES),"$(DESTDIR)$(DOCDIR)/rules/$(r).md") \
	  "$(DESTDIR)$(DOCDIR)/examples/war.c" "$(DESTDIR)$(DOCDIR)/examples/coursework.c"
	rmdir "$(DESTDIR)$(DOCDIR)/rules" "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DOCDIR)" 2>/dev/null || true

# Installs into a temporary prefix and builds the coursework program with
# pkg-config only, linked shared and static, and runs it (CI).
install-test:
	c_tests/install_test.sh

bench:
	$(CARGO) bench --bench homework

# Coup strength table under ../shared/coup/arbiter3.py (the original rules): coup-bot against
# every stand-in, sparring strategy and archetype, and the real Calculator when
# COUP_CALCULATOR names it; ROUNDS rounds (2*ROUNDS games, both seats) each, seed SEED.
# COUP_BENCH_ARGS=--fresh gives our bot a fresh folder per game (memory disabled). Each run's
# calibration table follows the strength table (COUP_CALIBRATION= leaves it out).
COUP_CALIBRATION ?= --calibration
ROUNDS ?= 100
SEED   ?= 7
JOBS   ?= 2
coup-bench:
	$(CARGO) build --release --quiet --bin coup-bot --bin coup-arbiter
	nice -n 10 scripts/coup-bench.py --rounds $(ROUNDS) --seed $(SEED) --jobs $(JOBS) $(COUP_CALIBRATION) $(COUP_BENCH_ARGS)

# Long runs with memory kept (coup-arbiter --keep-bot-dirs): LONG_ROUNDS rounds per opponent,
# seed LONG_SEED, and each row's win rate by tenth of the run (a drifting memory shows there).
LONG_ROUNDS ?= 500
LONG_SEED   ?= 3
coup-long:
	$(CARGO) build --release --quiet --bin coup-bot --bin coup-arbiter
	nice -n 10 scripts/coup-long $(LONG_ROUNDS) $(LONG_SEED) $(JOBS)

# The clairvoyant ceiling beside the honest search, per opponent (coup-arbiter, in-process):
# COUP_SEER and COUP_CALCULATOR name the opponents kept outside the repository.
coup-ceiling:
	$(CARGO) build --release --quiet --features measure --bin coup-arbiter
	nice -n 10 scripts/coup-ceiling.py --rounds $(ROUNDS) --seed $(SEED) $(COUP_CEILING_ARGS)

# The Rust coup-arbiter against arbiter3.py: same bots, win rates within each other's intervals.
coup-agree:
	$(CARGO) build --release --quiet --bin coup-bot --bin coup-arbiter
	nice -n 10 scripts/coup-agree.py --rounds $(ROUNDS) --seed $(SEED)

# Instructions of the whole homework process per test (valgrind --tool=callgrind); budget 400,000.
BUDGET ?= 400000
callgrind: setup build
	@$(call with_shared_tests,make callgrind on the original tests); \
	tmp=$$(mktemp -d); max=0; total=0; n=0; \
	for f in $$(find $$dirs -name '*.in' | sort -V); do \
	  cp "$$f" "$$tmp/in"; \
	  ir=$$(cd "$$tmp" && valgrind --tool=callgrind --callgrind-out-file=/dev/null $(RELEASE)/homework 2>&1 | sed -n 's/.*Collected : //p'); \
	  printf '%-60s %9d\n' "$$f" "$$ir"; \
	  total=$$((total+ir)); n=$$((n+1)); [ "$$ir" -gt "$$max" ] && max=$$ir; \
	done; rm -rf "$$tmp"; \
	echo "callgrind: $$n tests, $$total instructions in all, at most $$max per test (budget $(BUDGET))"; \
	[ "$$max" -le "$(BUDGET)" ]

## Fuzzing (fuzz/, cargo-fuzz layout; libFuzzer needs nightly). Each target runs
## FUZZ_SECONDS; new corpus entries land in fuzz/corpus/<target> and crashes in
## fuzz/artifacts/<target>, both replayed on stable by tests/fuzz_corpus.rs.
## Installs what is missing: the nightly toolchain (rustup) and cargo-fuzz.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := homework_input coup_decision durak_lines ioiwari_protocol c_abi_text
.PHONY: fuzz
fuzz:
	@rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz
	cd fuzz && for t in $(FUZZ_TARGETS); do \
	  $(CARGO) +nightly fuzz run $$t -- -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=1024 || exit 1; \
	done

# Gradescope's autograder zip (checker/gradescope/, docs/grading.md): the grader
# built for release, the tests TESTS=DIR, setup.sh and run_autograder.
# ZIP=$(TARGET_DIR)/gradescope.zip, VISIBILITY=visible (after_published for hidden tests),
# GRADER= a prebuilt homework-grade instead of building one.
.PHONY: gradescope-zip
gradescope-zip:
	@[ -n "$(TESTS)" ] || { echo "make gradescope-zip: TESTS=DIR is required (the tests to grade with)" >&2; exit 2; }
	$(if $(GRADER),,$(CARGO) build --release --quiet --bin homework-grade)
	checker/gradescope/make-zip "$(TESTS)" "$(or $(ZIP),$(TARGET_DIR)/gradescope.zip)" \
	  "$(or $(GRADER),$(RELEASE)/homework-grade)" "$(or $(VISIBILITY),visible)" $(OPTIONS)
