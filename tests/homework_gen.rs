//! `homework-gen`: the original layout, seeded reproducibility, references and
//! traces equal to this project's program, every reference checked by
//! `checker/model.py` before anything is written, and the rare paths covered.
//! The model needs python3: the program tests fail (saying why) without it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cardgames::homework::gen;
use cardgames::homework::{self, Task};

mod support;

/// The generator checks every test with `checker/model.py`: python3 is required.
fn require_python() {
    support::require_tool("python3");
}

fn generate(out: &Path, seed: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_homework-gen"))
        .args(["--seed", seed, "--count", "3", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Every file below `dir`, by relative path.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, found: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, found);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                found.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(dir, dir, &mut found);
    found
}

#[test]
fn original_layout_with_references_and_traces_of_this_project() {
    require_python();
    let dir = tempfile::tempdir().unwrap();
    let out = generate(dir.path(), "11", &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found = files(dir.path());
    let mut expected = Vec::new();
    for (sub, stem, debug) in [
        ("tests_amestecare", "test", false),
        ("tests_razboi", "razboi", true),
        ("tests_rolling_stone", "rollingstone", true),
        ("tests_scarabei", "scarabei", true),
    ] {
        for k in 1..=3 {
            let exts: &[&str] = if debug {
                &["debug", "in", "ref"]
            } else {
                &["in", "ref"]
            };
            for ext in exts {
                expected.push(PathBuf::from(format!("{sub}/{stem}{k}.{ext}")));
            }
        }
    }
    expected.sort();
    assert_eq!(found.keys().cloned().collect::<Vec<_>>(), expected);
    for (path, bytes) in &found {
        if path.extension().unwrap() != "in" {
            continue;
        }
        let text = String::from_utf8(bytes.clone()).unwrap();
        // As the original tests: CRLF line ends, no final line end.
        assert!(text.contains("\r\n") && !text.ends_with('\n'), "{path:?}");
        let traced = homework::trace(&text).unwrap();
        assert_eq!(traced.out, homework::run(&text).unwrap());
        assert_eq!(
            found[&path.with_extension("ref")],
            traced.out.as_bytes(),
            "{path:?}"
        );
        if let Some(debug) = found.get(&path.with_extension("debug")) {
            assert_eq!(debug, traced.debug.as_bytes(), "{path:?}");
        }
    }
}

#[test]
fn same_seed_same_tests_other_seed_other_tests() {
    require_python();
    let (a, b, c) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let tasks = ["--tasks", "amestecare,scarabei"];
    assert!(generate(a.path(), "5", &tasks).status.success());
    assert!(generate(b.path(), "5", &tasks).status.success());
    assert!(generate(c.path(), "6", &tasks).status.success());
    assert_eq!(files(a.path()), files(b.path()));
    assert_ne!(files(a.path()), files(c.path()));
    // Not over existing tests without --force.
    let again = generate(a.path(), "5", &tasks);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    // With --force, seed 6 over seed 5 (with a note of the course's beside the tests): the
    // folder holds exactly seed 6's tests, as written into an empty one, and the note.
    let note = a.path().join("tests_amestecare/README.txt");
    std::fs::write(&note, "kept").unwrap();
    let forced = generate(a.path(), "6", &[tasks[0], tasks[1], "--force"]);
    assert!(forced.status.success(), "{forced:?}");
    std::fs::remove_file(&note).unwrap();
    assert_eq!(files(a.path()), files(c.path()));
    // And a smaller run over a larger one leaves none of the larger run's tests beyond it.
    let one = Command::new(env!("CARGO_BIN_EXE_homework-gen"))
        .args(["--seed", "6", "--count", "1", "--force", "--out"])
        .arg(a.path())
        .args(tasks)
        .output()
        .unwrap();
    assert!(one.status.success(), "{one:?}");
    let left: Vec<_> = files(a.path()).into_keys().collect();
    assert!(
        left.iter().all(|p| p
            .file_stem()
            .is_some_and(|s| s.to_string_lossy().ends_with('1'))),
        "{left:?}"
    );
}

#[test]
fn a_model_that_disagrees_stops_everything_before_writing() {
    require_python();
    let dir = tempfile::tempdir().unwrap();
    let liar = dir.path().join("liar.py");
    std::fs::write(&liar, "def main(path):\n    print('4')\n").unwrap();
    let out_dir = dir.path().join("tests");
    let out = generate(
        &out_dir,
        "1",
        &["--tasks", "razboi", "--model", liar.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("model.py answers \"4\""), "{stderr}");
    assert!(
        !out_dir.exists() || files(&out_dir).is_empty(),
        "nothing may be written"
    );
}

#[test]
fn a_model_that_fails_is_one_line_that_says_why() {
    require_python();
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("tests");
    let broken = dir.path().join("broken.py");
    std::fs::write(&broken, "import no_such_module_here\n").unwrap();
    let not_python = dir.path().join("notes.txt");
    std::fs::write(&not_python, "hello\n").unwrap();
    for (model, says) in [
        (&broken, "No module named 'no_such_module_here'"),
        (&not_python, "not a Python module"),
    ] {
        let out = generate(
            &out_dir,
            "1",
            &["--tasks", "razboi", "--model", model.to_str().unwrap()],
        );
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(!out_dir.exists() || files(&out_dir).is_empty());
    }
}

#[test]
fn every_rare_path_is_found() {
    let war = gen::generate(Task::War, 3, 40, 200_000, &mut || {});
    let rolling = gen::generate(Task::RollingStone, 3, 40, 200_000, &mut || {});
    let scarabs = gen::generate(Task::Scarabs, 3, 40, 200_000, &mut || {});
    for (task, (tests, coverage), features) in [
        ("razboi", war, 30),
        ("rollingstone", rolling, 11),
        ("scarabei", scarabs, 10),
    ] {
        assert!(
            coverage.missing.is_empty(),
            "{task}: {:?}",
            coverage.missing
        );
        assert_eq!(coverage.covered.len(), features, "{task}");
        assert_eq!(tests.len(), 40);
        // Each targeted test's reference is this project's answer to its `in`.
        for t in &tests[..features] {
            assert!(t.feature.is_some());
            assert_eq!(homework::run(&t.input).unwrap(), t.reference);
        }
    }
}

#[test]
fn shuffle_tests_use_every_kind_and_every_divisor_of_52() {
    let (tests, _) = gen::generate(Task::Shuffle, 9, 12, 0, &mut || {});
    let text: String = tests.iter().map(|t| t.input.clone() + "\n").collect();
    for kind in ["inversare", "intercalare", "mongean"] {
        assert!(text.contains(kind), "{kind}");
    }
    for k in gen::DIVISORS {
        assert!(text.contains(&format!("npiles {k} ")), "npiles {k}");
    }
}
