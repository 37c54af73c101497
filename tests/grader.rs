//! `homework-grade` on the fixtures of `checker/fixtures/`: each broken
//! submission gets exactly the statuses and points its one defect deserves,
//! on the project's 22 checker tests (`checker/tests`). Fails (saying why)
//! when `make` or a C compiler is missing; the valgrind case is ignored by a
//! plain `cargo test` and needs valgrind when run (`make test` runs it).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

mod support;

/// The grader builds submissions with make and cc: both are required.
fn require_tools() {
    support::require_tool("make");
    support::require_tool("cc");
}

/// Runs the grader with `args` and returns its JSON.
fn grade(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("result.json");
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args(args)
        .arg("--json")
        .arg(&json)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

fn fixture(name: &str) -> String {
    root()
        .join("checker/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn tests_dir() -> String {
    root().join("checker/tests").display().to_string()
}

/// Grades a fixture on the 22 tests without valgrind, 1 s per test.
fn grade_fixture(name: &str) -> Value {
    grade(&[
        &fixture(name),
        "--tests",
        &tests_dir(),
        "--timeout",
        "1",
        "--no-valgrind",
    ])
}

/// Every test's status is `expected(test name)`; the points are the sum of
/// 4 per passed shuffle test and 5 per passed game test (100 in all).
fn assert_statuses(result: &Value, expected: impl Fn(&str) -> &'static str) {
    let tests = result["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 22);
    let mut points = 0.0;
    for t in tests {
        let name = t["name"].as_str().unwrap();
        let status = t["status"].as_str().unwrap();
        assert_eq!(status, expected(name), "{name}: {t}");
        let worth = if name.starts_with("tests_amestecare") {
            4.0
        } else {
            5.0
        };
        let earned = if status == "passed" { worth } else { 0.0 };
        assert_eq!(t["points"].as_f64().unwrap(), earned, "{name}");
        points += earned;
    }
    assert_eq!(result["points"].as_f64().unwrap(), points);
    assert_eq!(result["max_points"].as_f64().unwrap(), 100.0);
}

fn task_is(name: &str, task: &str, bad: &'static str) -> &'static str {
    if name.contains(task) {
        bad
    } else {
        "passed"
    }
}

#[test]
fn correct_submission_scores_100_with_readme_and_clean() {
    require_tools();
    let r = grade_fixture("correct");
    assert_statuses(&r, |_| "passed");
    assert_eq!(r["points"], 100.0);
    assert_eq!(r["readme"], true);
    assert_eq!(r["clean"], true);
    assert!(r["valgrind"].is_null());
}

#[test]
fn wrong_answers_on_rolling_stone_only() {
    require_tools();
    let r = grade_fixture("wrong-answer");
    assert_statuses(&r, |n| task_is(n, "rollingstone", "wrong_answer"));
    assert_eq!(r["points"], 80.0);
}

#[test]
fn a_looping_game_times_out_and_costs_exactly_its_limit() {
    require_tools();
    let r = grade_fixture("looping-war");
    assert_statuses(&r, |n| task_is(n, "razboi", "timed_out"));
    for t in r["tests"].as_array().unwrap() {
        if t["status"] == "timed_out" {
            let s = t["seconds"].as_f64().unwrap();
            assert!((1.0..1.5).contains(&s), "{t}");
        }
    }
    assert_eq!(
        r["clean"], true,
        "the killed program left nothing behind make clean"
    );
}

#[test]
fn a_segfault_is_a_crash_with_its_signal() {
    require_tools();
    let r = grade_fixture("segfault");
    assert_statuses(&r, |n| task_is(n, "scarabei", "crashed"));
    for t in r["tests"].as_array().unwrap() {
        if t["status"] == "crashed" {
            assert_eq!(t["signal"], "SIGSEGV", "{t}");
        } else {
            assert!(t.get("signal").is_none(), "{t}");
        }
    }
}

#[test]
fn a_stale_out_never_passes_a_test_that_wrote_none() {
    require_tools();
    // The fixture ships `out` = razboi1's reference and writes no out for War.
    let stale = std::fs::read_to_string(root().join("checker/fixtures/stale-out/out")).unwrap();
    let reference =
        std::fs::read_to_string(root().join("checker/tests/tests_razboi/razboi1.ref")).unwrap();
    assert_eq!(stale.trim(), reference.trim());
    let r = grade_fixture("stale-out");
    assert_statuses(&r, |n| task_is(n, "razboi", "no_output"));
}

#[test]
fn missing_run_rule_gives_no_output_and_a_dirty_clean() {
    require_tools();
    let r = grade_fixture("no-run-rule");
    assert_statuses(&r, |_| "no_output");
    assert_eq!(r["points"], 0.0);
    assert_eq!(r["clean"], false, "its clean rule leaves the program");
}

#[test]
fn failing_build_fails_every_test() {
    require_tools();
    let r = grade_fixture("build-fails");
    assert_statuses(&r, |_| "build_failed");
    assert_eq!(r["points"], 0.0);
    assert!(r["clean"].is_null());
}

/// Six tests (two shuffles, one of each game, and one more War) in a
/// directory of their own: enough to reach the 5-point valgrind cap.
fn six_tests() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = root().join("checker/tests");
    for (sub, stem) in [
        ("tests_amestecare", "test1"),
        ("tests_amestecare", "test2"),
        ("tests_razboi", "razboi1"),
        ("tests_razboi", "razboi2"),
        ("tests_rolling_stone", "rollingstone1"),
        ("tests_scarabei", "scarabei1"),
    ] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for ext in ["in", "ref"] {
            let file = format!("{stem}.{ext}");
            std::fs::copy(src.join(sub).join(&file), dir.path().join(sub).join(&file)).unwrap();
        }
    }
    dir
}

#[test]
#[ignore = "needs valgrind (make setup installs it); make test runs it"]
fn valgrind_deducts_one_point_per_leaking_test_up_to_5() {
    require_tools();
    support::require_tool("valgrind");
    let tests = six_tests();
    let tests = tests.path().display().to_string();
    let leak = grade(&[&fixture("leak"), "--tests", &tests]);
    assert_eq!(leak["points"], 100.0);
    assert_eq!(leak["valgrind"]["tests_with_errors"], 6);
    assert_eq!(leak["valgrind"]["deduction"], 5);
    assert_eq!(leak["readme"], false);
    let correct = grade(&[&fixture("correct"), "--tests", &tests]);
    assert_eq!(correct["valgrind"]["tests_with_errors"], 0);
    assert_eq!(correct["valgrind"]["deduction"], 0);
}

#[test]
fn all_fixtures_in_parallel_with_summary_json_and_csv() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let subs = work.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    let fixtures = root().join("checker/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        std::os::unix::fs::symlink(fixtures.join(name), subs.join(name)).unwrap();
    }
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args(["--all", &subs.display().to_string(), "-j", "2"])
        .args(["--tests", &tests_dir(), "--timeout", "1", "--no-valgrind"])
        .current_dir(work.path())
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The hung fixture's 4 War tests cost 4 s; everything else is quick.
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("grades.json")).unwrap())
            .unwrap();
    let csv = std::fs::read_to_string(work.path().join("grades.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(json.as_array().unwrap().len(), names.len());
    assert_eq!(rows.len(), names.len() + 1);
    assert!(rows[0].starts_with("submission,points,max_points,valgrind_tests_with_errors"));
    let expected_points = |name: &str| match name {
        "correct" | "leak" => 100.0,
        "build-fails" | "no-run-rule" => 0.0,
        _ => 80.0,
    };
    for result in json.as_array().unwrap() {
        for t in result["tests"].as_array().unwrap() {
            if t["status"] == "timed_out" {
                let s = t["seconds"].as_f64().unwrap();
                assert!((1.0..1.5).contains(&s), "a hung test costs its limit: {t}");
            }
        }
    }
    for (name, (result, row)) in names
        .iter()
        .zip(json.as_array().unwrap().iter().zip(&rows[1..]))
    {
        assert!(result["submission"]
            .as_str()
            .unwrap()
            .ends_with(name.as_str()));
        assert_eq!(
            result["points"].as_f64().unwrap(),
            expected_points(name),
            "{name}"
        );
        assert!(
            row.contains(&format!("{name},{:.2},100,", expected_points(name))),
            "{row}"
        );
        assert!(stdout.contains(name.as_str()), "{stdout}");
    }
}

#[test]
fn bad_arguments_give_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing");
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .arg(&missing)
        .args(["--tests", &tests_dir()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no submission directory"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .arg(dir.path())
        .args(["--tests", &missing.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read tests directory"));
}

#[test]
fn the_c_submission_agrees_with_freshly_generated_tests() {
    require_tools();
    // homework-gen checks its tests with checker/model.py.
    support::require_tool("python3");
    // Tests made from this project's engines and checked by model.py; the C
    // fixture is a third implementation of the rules.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_homework-gen"))
        .args(["--seed", "2027", "--count", "12", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tests = dir.path().display().to_string();
    let r = grade(&[&fixture("correct"), "--tests", &tests, "--no-valgrind"]);
    assert_eq!(r["tests"].as_array().unwrap().len(), 48);
    assert!(
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "passed"),
        "{r}"
    );
    assert_eq!(r["points"], 100.0);
}

/// The acceptance measurement, not run in CI (about a minute on 2 busy
/// cores): 20 copies of the fixtures (cycling through them) graded with
/// `-j 2` finish within the hung tests' limits / 2 plus the build time, and
/// each hung test costs its limit:
/// `cargo test --test grader -- --ignored --nocapture`
#[test]
#[ignore]
fn twenty_fixture_copies_with_j2_within_half_the_limits_plus_builds() {
    require_tools();
    let limit = 2.0;
    let work = tempfile::tempdir().unwrap();
    let subs = work.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    let fixtures = root().join("checker/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for i in 0..20 {
        let name = &names[i % names.len()];
        std::os::unix::fs::symlink(fixtures.join(name), subs.join(format!("{i:02}-{name}")))
            .unwrap();
    }
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args([
            "--all",
            &subs.display().to_string(),
            "-j",
            "2",
            "--timeout",
            "2",
        ])
        .args(["--tests", &tests_dir(), "--no-valgrind"])
        .current_dir(work.path())
        .output()
        .unwrap();
    let wall = start.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(out.status.success());
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("grades.json")).unwrap())
            .unwrap();
    let hung: Vec<f64> = json
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["tests"].as_array().unwrap().clone())
        .filter(|t| t["status"] == "timed_out")
        .map(|t| t["seconds"].as_f64().unwrap())
        .collect();
    assert_eq!(hung.len(), 12, "3 looping copies x 4 War tests");
    assert!(
        hung.iter().all(|s| (limit..limit + 0.5).contains(s)),
        "{hung:?}"
    );
    let build: f64 = stdout
        .split("make build + clean ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the summary gives the build time");
    let bound = hung.len() as f64 * limit / 2.0 + build;
    println!(
        "wall {wall:.1} s, bound {bound:.1} s ({} hung tests x {limit} s / 2 + build {build:.1} s)",
        hung.len()
    );
    assert!(wall <= bound, "wall {wall:.1} s > bound {bound:.1} s");
}
