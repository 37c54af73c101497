//! Prerequisites of the tests that need something outside the repository, and a
//! program run for its outcome ([`run_in`]).
//!
//! No test passes by skipping silently. Two kinds of prerequisite:
//!
//! - what `make setup` installs, and the tools every build of this project needs
//!   (valgrind, bubblewrap, make, cc, python3 for `checker/model.py`): required
//!   ([`require`], [`require_tool`]); a test without it fails, everywhere;
//! - what lies outside the repository (`../shared/...`: the original checker
//!   tests, the contest's arbiter): [`outside`] (and [`shared`], [`shared_hw_tests`]).
//!   When it is absent, outside CI (`CI` unset or empty) the test does not run:
//!   it says so on stderr in one line that the test harness does not capture
//!   ("not run: CRATE::TEST needs WHAT; CI runs it"), records itself in the file
//!   `$CARDGAMES_NOT_RUN` names (`make test` sets it and lists the records,
//!   grouped and counted, at its end: `scripts/not-run`), and returns early;
//!   under `CI` it fails.
//!
//! The slower tests with such a prerequisite are also `#[ignore = "needs ..."]`,
//! so that a plain `cargo test` lists them as ignored with their reason;
//! `make test` (and so CI, `.ci/run`) runs the ignored tests too
//! (`cargo test -- --ignored`).
//!
//! Each test file includes this module with `mod support;` and uses what it needs.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Panics with a clear message unless `present`: `what` names the missing
/// prerequisite and how to get it. For what the repository's own tooling
/// installs or needs; a prerequisite outside the repository is [`outside`]'s.
pub fn require(what: &str, present: bool) {
    assert!(
        present,
        "missing prerequisite: {what}. This test never passes by skipping: provide it, or \
         leave the test out (a plain `cargo test` ignores the tests with optional prerequisites)"
    );
}

/// The environment variable naming the file where the tests that did not run
/// record themselves, one line each: what they need, a tab, `CRATE::TEST`
/// (`make test` sets it, and `scripts/not-run summary` reads the file).
pub const NOT_RUN_FILE: &str = "CARDGAMES_NOT_RUN";

/// Whether CI runs us: `CI` set and not empty (as the Makefile's `[ -n "$CI" ]`).
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Whether the test may go on, for a prerequisite outside the repository:
/// `needs` names it (the summary of `make test` groups the tests by it, so
/// tests needing the same thing use the same words), `present` says whether it
/// is there. Present: `true`. Absent outside CI: says on stderr (uncaptured)
/// "not run: CRATE::TEST needs NEEDS; CI runs it", records the test in the file
/// [`NOT_RUN_FILE`] names when set, and returns `false`: the test returns.
/// Absent under CI: panics. Also panics when the record cannot be written.
/// The test's name is its thread's, which the test harness sets.
pub fn outside(needs: &str, present: bool) -> bool {
    if present {
        return true;
    }
    assert!(
        !in_ci(),
        "missing prerequisite: {needs} (CI runs every test: provide it)"
    );
    let thread = std::thread::current();
    let test = format!(
        "{}::{}",
        env!("CARGO_CRATE_NAME"),
        thread.name().unwrap_or("?")
    );
    // Straight to the file descriptor: `eprintln!` would be captured, and shown
    // only if the test failed.
    let _ = writeln!(
        std::io::stderr(),
        "not run: {test} needs {needs}; CI runs it"
    );
    if let Some(file) = std::env::var_os(NOT_RUN_FILE) {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .and_then(|mut f| f.write_all(format!("{needs}\t{test}\n").as_bytes()))
            .unwrap_or_else(|e| panic!("{NOT_RUN_FILE}={}: {e}", Path::new(&file).display()));
    }
    false
}

/// `../shared/{path}` beside the project when it exists; otherwise [`outside`]
/// decides (the test does not run outside CI: `None`; CI fails). `what` says
/// what it is, in a few words ("the original checker tests").
pub fn shared(path: &str, what: &str) -> Option<PathBuf> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(path);
    outside(&format!("../shared/{path} ({what})"), full.exists()).then_some(full)
}

/// Whether `program --version` runs and succeeds.
pub fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Requires the program `program` on PATH (`program --version` succeeds).
pub fn require_tool(program: &str) {
    require(&format!("{program} is not installed"), have(program));
}

/// The directory `../shared/hw-tests/tests` beside the project (the original
/// checker's tests, outside the repository), or `None` when the test does not
/// run ([`shared`]).
pub fn shared_hw_tests() -> Option<PathBuf> {
    shared("hw-tests/tests", "the original checker tests")
}

/// Runs `program` with `args` in `dir`: its exit status, stdout and stderr (lossy UTF-8).
pub fn run_in(dir: &Path, program: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
