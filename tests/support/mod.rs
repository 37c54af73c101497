//! Prerequisites of the tests that need something outside the repository, and a
//! program run for its outcome ([`run_in`]).
//!
//! No test passes by skipping. A test whose prerequisite is optional on a
//! developer's machine (`../shared/hw-tests`, valgrind, the real Calculator) is
//! `#[ignore = "needs ..."]`, so a plain `cargo test` lists it as ignored with
//! its reason; `make test` (and so CI, `.ci/run`) runs the ignored tests too
//! (`cargo test -- --ignored`), and there a missing prerequisite fails the test
//! through [`require`]. Tools every build of this project needs (make, cc,
//! python3 for `checker/model.py`) are required by the tests that use them,
//! ignored or not.
//!
//! Each test file includes this module with `mod support;` and uses what it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Panics with a clear message unless `present`: `what` names the missing
/// prerequisite and how to get it.
pub fn require(what: &str, present: bool) {
    assert!(
        present,
        "missing prerequisite: {what}. This test never passes by skipping: provide it, or \
         leave the test out (a plain `cargo test` ignores the tests with optional prerequisites)"
    );
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
/// checker's tests, outside the repository); panics when it is absent.
pub fn shared_hw_tests() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hw-tests/tests");
    require(
        &format!(
            "{} not found (the original checker tests live outside the repository)",
            dir.display()
        ),
        dir.is_dir(),
    );
    dir
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
