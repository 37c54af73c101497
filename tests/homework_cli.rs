//! The `homework` program as the checker runs it: `in` and `out` in the
//! current directory, one line on stderr and no `out` on bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

fn run_in(dir: &Path, in_text: Option<&[u8]>) -> Output {
    if let Some(text) = in_text {
        std::fs::write(dir.join("in"), text).unwrap();
    }
    Command::new(env!("CARGO_BIN_EXE_homework"))
        .current_dir(dir)
        .output()
        .unwrap()
}

fn refused(in_text: Option<&[u8]>, expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), in_text);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(
        stderr.contains(expected),
        "{stderr:?} should mention {expected:?}"
    );
    assert!(out.stdout.is_empty());
    assert!(!dir.path().join("out").exists(), "no out on error");
}

#[test]
fn bad_input_gives_one_line_exit_1_and_no_out() {
    refused(None, "cannot read in");
    refused(Some(b"poker\n1\nmongean\n"), "unknown task \"poker\"");
    refused(Some(b"amestecare\n1\nshuffle\n"), "in:3: unknown shuffle");
    refused(
        Some(b"amestecare\n1\nnpiles 5 1 2 3 4 5\n"),
        "cannot cut a deck of 52",
    );
    refused(
        Some(b"amestecare\n1\nnpiles 4 1 2 3\n"),
        "npiles 4 needs 4 pile numbers",
    );
    refused(
        Some(b"amestecare\n1\nnpiles 4 1 2 3 3\n"),
        "not a permutation",
    );
    refused(
        Some(b"amestecare\n3\nmongean\n"),
        "expected 3 shuffle lines",
    );
    refused(Some(b"amestecare\nmany\n"), "number of shuffles");
    refused(Some(b"\xff\xfe"), "cannot read in");
}

#[test]
fn help_and_stray_arguments() {
    let help = Command::new(env!("CARGO_BIN_EXE_homework"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8(help.stdout)
        .unwrap()
        .contains("usage: homework"));
    let stray = Command::new(env!("CARGO_BIN_EXE_homework"))
        .arg("x")
        .output()
        .unwrap();
    assert_eq!(stray.status.code(), Some(2));
}

/// Runs every `X.in` below `root` and compares `out` with `X.ref` as `diff -w`
/// does (all white space ignored). Returns how many tests ran.
fn run_checker_tests(root: &Path) -> usize {
    let mut inputs = Vec::new();
    for game in std::fs::read_dir(root).unwrap() {
        for file in std::fs::read_dir(game.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "in") {
                inputs.push(path);
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    for input in &inputs {
        let out = run_in(dir.path(), Some(&std::fs::read(input).unwrap()));
        assert!(
            out.status.success(),
            "{}: {}",
            input.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let squeeze = |s: String| s.split_whitespace().collect::<String>();
        let got = squeeze(std::fs::read_to_string(dir.path().join("out")).unwrap());
        let want = squeeze(std::fs::read_to_string(input.with_extension("ref")).unwrap());
        assert_eq!(got, want, "{}", input.display());
    }
    inputs.len()
}

#[test]
fn our_checker_tests_pass() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("checker/tests");
    assert_eq!(run_checker_tests(&root), 22);
}

#[test]
#[ignore = "needs ../shared/hw-tests (outside the repository); make test runs it, or lists it as not run"]
fn the_original_checker_tests_pass() {
    let Some(tests) = support::shared_hw_tests() else {
        return;
    };
    assert_eq!(run_checker_tests(&tests), 22);
}
