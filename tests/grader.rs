//! `homework-grade` on the fixtures of `checker/fixtures/`: each broken
//! submission gets exactly the statuses and points its one defect deserves,
//! on the project's 22 checker tests (`checker/tests`); the hostile ones of
//! `checker/fixtures/hostile/` get nothing from the grader's bubblewrap
//! sandbox and leave nothing behind. Fails (saying why) when `make`, a C
//! compiler or bubblewrap is missing (the grader sandboxes by default); the
//! valgrind case is ignored by a plain `cargo test` and needs valgrind when
//! run (`make test` runs it).

use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

mod support;

/// The grader builds submissions with make and cc, and sandboxes them
/// with bubblewrap: all are required.
fn require_tools() {
    support::require_tool("make");
    support::require_tool("cc");
    require_bwrap();
}

/// Fails (never skips) without bubblewrap: every grading below runs in it.
fn require_bwrap() {
    assert!(
        support::have("bwrap"),
        "bubblewrap (bwrap) is not installed, and the grader sandboxes submissions with it: \
         `make setup` installs it (apt-get install bubblewrap)"
    );
}

/// The honest fixtures (every directory of `checker/fixtures` but `hostile`).
fn honest_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir() && e.file_name() != "hostile")
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
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

/// The honest fixtures as a course hands them in: `checker/fixtures` (but
/// `hostile`) copied once per run with every link replaced by the file it
/// names. The broken fixtures share `correct`'s sources through links, and the
/// grader copies a link that leaves its submission as a link only.
fn fixtures() -> &'static Path {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let (path, name) = (entry.path(), entry.file_name());
            if path.is_dir() {
                if name != "hostile" {
                    copy(&path, &to.join(&name));
                }
            } else {
                std::fs::copy(&path, to.join(&name)).unwrap();
            }
        }
    }
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grader-fixtures");
        let _ = std::fs::remove_dir_all(&dir);
        copy(&root().join("checker/fixtures"), &dir);
        dir
    })
}

fn fixture(name: &str) -> String {
    fixtures().join(name).display().to_string()
}

fn tests_dir() -> String {
    root().join("checker/tests").display().to_string()
}

/// Grades a fixture on the 22 tests without valgrind, 1 s per test.
fn grade_fixture(name: &str) -> Value {
    grade_quickly(&fixture(name))
}

/// Grades the submission at `path` on the 22 tests without valgrind, 1 s per test.
fn grade_quickly(path: &str) -> Value {
    grade(&[
        path,
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
    some_tests(&[
        ("tests_amestecare", "test1"),
        ("tests_amestecare", "test2"),
        ("tests_razboi", "razboi1"),
        ("tests_razboi", "razboi2"),
        ("tests_rolling_stone", "rollingstone1"),
        ("tests_scarabei", "scarabei1"),
    ])
}

/// The checker's tests `(folder, stem)` in a directory of their own.
fn some_tests(tests: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = root().join("checker/tests");
    for &(sub, stem) in tests {
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
    // A run rule that removes the logs where they used to lie (the submission's temporary
    // folder), or that removes that folder (which used to drop the submission from the
    // results), still pays for every leaking test (the sweep of 2026-11-27, defects 02 and
    // 07); so does one that writes clean logs wherever valgrind's command line says it logs
    // (which a log per process in a folder of the submission's let through), and one that
    // names its program so that it looked like the machine's (a bare name found through an
    // empty PATH entry, a path through /usr and back, or run by the dynamic loader), or that
    // runs its code inside a machine program (a library preloaded into /bin/true), beside a
    // clean program of its own as a decoy.
    // The forger's lines do arrive: the correct fixture with a forger that writes 7 errors
    // for every process pays for its test. No process of the submission can read the log
    // (to take it out and write back a clean one): the same forger, writing only if it could
    // read it, leaves the correct fixture clean. One test each (a War game, where the leak
    // fixture loses memory).
    let one = some_tests(&[("tests_razboi", "razboi1")]);
    let one = one.path().display().to_string();
    let work = tempfile::tempdir().unwrap();
    for (name, base, run, expected) in [
        (
            "erase",
            "leak",
            "./homework; rm -f $$TMPDIR/valgrind-*/*.log",
            1,
        ),
        ("drop", "leak", "./homework; rm -rf $$TMPDIR/valgrind-*", 1),
        ("forge", "leak", "./homework; sh forge.sh", 1),
        (
            "bare",
            "leak",
            "cp /bin/true decoy && ./decoy; PATH=:/usr/bin:/bin homework",
            1,
        ),
        (
            "dotdot",
            "leak",
            "cp /bin/true decoy && ./decoy; /usr/../sub/homework",
            1,
        ),
        (
            "loader",
            "leak",
            "cp /bin/true decoy && ./decoy; $$(ls /lib*/ld-linux*.so.* | head -n 1) ./homework",
            1,
        ),
        (
            "preload",
            "leak",
            "cp /bin/true decoy && ./decoy; [ -f libhw.so ] || { printf 'int hw_main(void); \
             __attribute__((constructor)) static void go(void) { hw_main(); }' > go.c && cc \
             -shared -fPIC -DBUG_LEAK -Dmain=hw_main -o libhw.so homework.c go.c; } && \
             LD_PRELOAD=./libhw.so /bin/true",
            1,
        ),
        ("forge-errors", "correct", "./homework; sh forge.sh 7", 1),
        // Valgrind's own options, from the submission: a `.valgrindrc` beside the program
        // (valgrind trusts it, the copy being the sandbox user's) or `VALGRIND_OPTS` in the run
        // rule, suppressing every leak (the audit of 2026-11-29).
        ("valgrindrc", "leak", "./homework", 1),
        (
            "valgrind-opts",
            "leak",
            "VALGRIND_OPTS=--suppressions=all.supp ./homework",
            1,
        ),
        // A Makefile that picks its own shell, where the grader gives make a valgrind
        // wrapper as its shell: no log of the program, counted as errors.
        ("own-shell", "leak", "./homework", 1),
        // A run rule that runs a clean decoy when make only lists its commands (`make -n`,
        // which the grader used to run under valgrind instead of `make run`).
        (
            "dry-run",
            "leak",
            "cp /bin/true decoy; case \"$(firstword -$(MAKEFLAGS))\" in *n*) ./decoy;; *) ./homework;; esac",
            1,
        ),
        (
            "read",
            "correct",
            "./homework; sh forge.sh 7 if-readable",
            0,
        ),
    ] {
        let sub = work.path().join(name);
        std::fs::create_dir(&sub).unwrap();
        let base = Path::new(&fixture(base)).to_path_buf();
        for file in ["bug.mk", "homework.c"] {
            if base.join(file).exists() {
                std::fs::copy(base.join(file), sub.join(file)).unwrap();
            }
        }
        std::fs::copy(
            root().join("tests/support/forge-valgrind-log.sh"),
            sub.join("forge.sh"),
        )
        .unwrap();
        let suppress_all = "{\n leaks\n Memcheck:Leak\n fun:*\n ...\n}\n{\n reads\n Memcheck:Addr4\n fun:*\n ...\n}\n";
        std::fs::write(sub.join("all.supp"), suppress_all).unwrap();
        if name == "valgrindrc" {
            std::fs::write(sub.join(".valgrindrc"), "--suppressions=all.supp\n").unwrap();
        }
        let makefile = std::fs::read_to_string(base.join("Makefile")).unwrap();
        let makefile = makefile.replace("\t./homework\n", &format!("\t{run}\n"));
        let makefile = if name == "own-shell" {
            format!("override SHELL := /bin/sh\n{makefile}")
        } else {
            makefile
        };
        assert!(makefile.contains(run), "{makefile}");
        std::fs::write(sub.join("Makefile"), makefile).unwrap();
        let r = grade(&[&sub.display().to_string(), "--tests", &one]);
        assert_eq!(r["points"], 100.0, "{name}: {r}");
        assert_eq!(r["valgrind"]["tests_with_errors"], expected, "{name}: {r}");
    }
}

#[test]
fn all_fixtures_in_parallel_with_summary_json_and_csv() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let subs = work.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    let fixtures = fixtures();
    let names = honest_fixtures();
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
    // Limits too large to hold: a time that overflowed the clock (a panic) and sizes that
    // wrapped to a limit of 0 bytes (every test failed) are refused (the sweep of 2026-11-27).
    for (option, value) in [
        ("--timeout", "1e19"),
        ("--build-timeout", "1e12"),
        ("--memory", "17592186044416"),
        ("--file-size", "17592186044416"),
        ("--disk", "17592186044416"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
            .arg(fixture("correct"))
            .args(["--tests", &tests_dir(), "--no-valgrind", option, value])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option} {value}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&option[2..]), "{stderr}");
    }
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
/// `-j 2` finish within the hung tests' limits / 2 plus the build time plus
/// half the other runs' time (sandboxed runs cost milliseconds each), and
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
    let fixtures = fixtures();
    let names = honest_fixtures();
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
    // The other runs, two at a time: about 30 ms each in the sandbox
    // (docs/grading.md, "The cost"), a few seconds over 360 runs.
    let runs: f64 = stdout
        .split("make run ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the summary gives the run time");
    let others = (runs - hung.iter().sum::<f64>()).max(0.0);
    let bound = hung.len() as f64 * limit / 2.0 + build + others / 2.0;
    println!(
        "wall {wall:.1} s, bound {bound:.1} s ({} hung tests x {limit} s / 2 + build {build:.1} s \
         + other runs {others:.1} s / 2)",
        hung.len()
    );
    assert!(wall <= bound, "wall {wall:.1} s > bound {bound:.1} s");
}

/// Copies the hostile fixtures (each directory of
/// `checker/fixtures/hostile`) into `subs`.
fn copy_hostile(subs: &Path) -> Vec<String> {
    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    let hostile = root().join("checker/fixtures/hostile");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&hostile).unwrap().flatten() {
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &subs.join(entry.file_name()));
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    names
}

/// Command lines of the machine's processes that contain `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(bytes) = std::fs::read(entry.path().join("cmdline")) {
            let line = String::from_utf8_lossy(&bytes).replace('\0', " ");
            if line.contains(needle) {
                found.push(format!("{}: {line}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// Connections accepted so far on a non-blocking listener.
fn accepts(listener: &TcpListener) -> usize {
    let mut n = 0;
    loop {
        match listener.accept() {
            Ok(_) => n += 1,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return n,
            Err(e) => panic!("accept: {e}"),
        }
    }
}

/// Where the `outside` fixture writes on the machine.
const OUTSIDE: [&str; 3] = [
    "/tmp/cardgames-hostile-outside",
    "/var/tmp/cardgames-hostile-outside",
    "/root/cardgames-hostile-outside",
];

/// Held by the tests that grade the `outside` fixture: unconfined, it
/// writes the very files the sandboxed test checks for.
static OUTSIDE_FILES: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Grades the submissions in `subs` (a listener's port in `net/port`) with
/// `extra` arguments, from `work`, and returns the reports by name and what
/// it printed.
fn grade_all(work: &Path, subs: &Path, extra: &[&str]) -> (Vec<(String, Value)>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args(["--all", &subs.display().to_string(), "-j", "2"])
        .args(["--tests", &tests_dir(), "--timeout", "2", "--no-valgrind"])
        .args(extra)
        .current_dir(work)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("grades.json")).unwrap()).unwrap();
    let reports = json
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let name = r["submission"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap();
            (name.to_owned(), r.clone())
        })
        .collect();
    (reports, stdout.into_owned())
}

#[test]
fn hostile_submissions_get_nothing_and_leave_nothing() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let subs = work.path().join("subs");
    let names = copy_hostile(&subs);
    assert_eq!(names.len(), 11, "{names:?}");
    let _outside = OUTSIDE_FILES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::fs::write(subs.join("net/port"), format!("{port}\n")).unwrap();
    for path in OUTSIDE {
        let _ = std::fs::remove_file(path);
    }
    let sentinel = work.path().join("grades.html");
    std::fs::write(&sentinel, "the grader's own\n").unwrap();
    let makefile = std::fs::read(subs.join("self-edit/Makefile")).unwrap();

    let (reports, stdout) = grade_all(work.path(), &subs, &["--disk", "128"]);
    assert!(stdout.contains("\nsandbox: bubblewrap\n"), "{stdout}");

    assert_eq!(reports.len(), names.len());
    for (name, r) in &reports {
        assert_eq!(r["sandbox"], "bubblewrap", "{name}");
        assert_eq!(r["points"], 0.0, "{name}: {r}");
        // What each run leaves as `out` says what the attack achieved.
        let expected = match name.as_str() {
            // No reference found, no submission read, no process seen, the
            // fork storm stopped before its `cp in out`.
            // No user namespace made.
            "refs" | "peek" | "proc-reader" | "grader-output" | "fork-storm" | "userns" => {
                "no_output"
            }
            "disk-filler" => "crashed",
            _ => "wrong_answer",
        };
        for t in r["tests"].as_array().unwrap() {
            assert_eq!(t["status"], expected, "{name}: {t}");
            if name == "disk-filler" {
                assert_eq!(t["signal"], "SIGXFSZ", "{t}");
            }
        }
    }
    assert_eq!(accepts(&listener), 0, "the net fixture reached 127.0.0.1");
    for sleeper in ["sleep 977", "sleep 978"] {
        let left = processes_with(sleeper);
        assert!(left.is_empty(), "left running: {left:?}");
    }
    for path in OUTSIDE {
        assert!(
            !Path::new(path).exists(),
            "written outside the copy: {path}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&sentinel).unwrap(),
        "the grader's own\n",
        "grader-output wrote the grader's files"
    );
    assert_eq!(
        std::fs::read(subs.join("self-edit/Makefile")).unwrap(),
        makefile,
        "self-edit edited the submission itself, not its copy"
    );
}

/// The attacks are real: unconfined (`--no-sandbox`), refs takes 100 points
/// from the tests it finds, net connects on every run, outside writes the
/// machine's /tmp. Only these three: the others would leave processes,
/// gigabytes or overwritten files behind.
#[test]
fn unconfined_the_attacks_work() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let all = work.path().join("all");
    copy_hostile(&all);
    let subs = work.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    for name in ["refs", "net", "outside"] {
        std::fs::rename(all.join(name), subs.join(name)).unwrap();
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::fs::write(subs.join("net/port"), format!("{port}\n")).unwrap();
    let _outside = OUTSIDE_FILES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = std::fs::remove_file(OUTSIDE[0]);

    let (reports, stdout) = grade_all(work.path(), &subs, &["--no-sandbox"]);
    assert!(stdout.contains("\nsandbox: none (--no-sandbox"), "{stdout}");

    let outside_written = Path::new(OUTSIDE[0]).exists();
    let _ = std::fs::remove_file(OUTSIDE[0]);
    for (name, r) in &reports {
        assert_eq!(r["sandbox"], "none", "{name}");
        let points = if name == "refs" { 100.0 } else { 0.0 };
        assert_eq!(r["points"], points, "{name}: {r}");
    }
    assert_eq!(accepts(&listener), 22, "one connection per run");
    assert!(outside_written, "outside could not write {}", OUTSIDE[0]);
}

#[test]
fn without_bubblewrap_grading_stops_with_one_line() {
    // No PATH: bwrap cannot be found (nor anything else).
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .arg(fixture("correct"))
        .args(["--tests", &tests_dir(), "--no-valgrind"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the sandbox cannot start: bubblewrap (bwrap) is not installed")
            && stderr.contains("make setup")
            && stderr.contains("--no-sandbox"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing graded");
}

/// A course graded once for the tests below: `correct`, `wrong-answer`,
/// `segfault`, `stale-out`, `no-run-rule` and `build-fails` (links in a
/// directory of their own), `--all -j 2 --timeout 1 --no-valgrind --html`.
struct Course {
    work: tempfile::TempDir,
    names: Vec<&'static str>,
}

impl Course {
    fn subs(&self) -> PathBuf {
        self.work.path().join("subs")
    }
    fn html(&self) -> PathBuf {
        self.work.path().join("html")
    }
    fn json(&self) -> Value {
        let text = std::fs::read_to_string(self.work.path().join("grades.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
    fn page(&self, name: &str) -> String {
        read_page(&self.html().join(name))
    }
}

/// A page's text with the entities the templates' escaping writes decoded
/// (minijinja writes `/` as `&#x2f;`), so texts and links read as written.
fn read_page(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Runs the grader in `dir` with `args`; panics with its output unless it
/// exits 0, else returns stdout.
fn run_grader(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn course() -> &'static Course {
    static COURSE: std::sync::OnceLock<Course> = std::sync::OnceLock::new();
    COURSE.get_or_init(|| {
        require_tools();
        let work = tempfile::tempdir().unwrap();
        let course = Course {
            work,
            names: vec![
                "build-fails",
                "correct",
                "no-run-rule",
                "segfault",
                "stale-out",
                "wrong-answer",
            ],
        };
        std::fs::create_dir(course.subs()).unwrap();
        for name in &course.names {
            let from = fixtures().join(name);
            std::os::unix::fs::symlink(from, course.subs().join(name)).unwrap();
        }
        let subs = course.subs().display().to_string();
        let html = course.html().display().to_string();
        run_grader(
            course.work.path(),
            &[
                "--all",
                &subs,
                "-j",
                "2",
                "--tests",
                &tests_dir(),
                "--timeout",
                "1",
                "--no-valgrind",
                "--html",
                &html,
            ],
        );
        course
    })
}

/// The part of a submission's page about one test: from its row to the
/// next test's row.
fn test_section<'a>(page: &'a str, test: &str) -> &'a str {
    let id: String = test
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let start = page
        .find(&format!("<tr id=\"t-{id}\""))
        .unwrap_or_else(|| panic!("no row for {test}"));
    let rest = &page[start + 1..];
    let end = rest.find("<tr id=").unwrap_or(rest.len());
    &rest[..end]
}

/// The first line of a test's reference, trimmed.
fn reference_line(test: &str) -> String {
    let path = root().join("checker/tests").join(format!("{test}.ref"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn html_pages_show_the_first_difference_and_link_every_test_and_submission() {
    let course = course();
    let index = course.page("index.html");
    assert!(index.contains("<main data-page-ok>"));
    assert!(index.contains("<svg"), "the points chart is inline SVG");
    let tests = grade::discovered_names();
    for name in &course.names {
        assert!(
            index.contains(&format!("href=\"{name}.html\"")),
            "the course page links {name}"
        );
        let page = course.page(&format!("{name}.html"));
        assert!(page.contains("<main data-page-ok>"));
        assert!(page.contains("href=\"index.html\""), "{name} links back");
        for test in &tests {
            assert!(
                page.contains(&format!("<code>{test}</code>")),
                "{name}'s page lists {test}"
            );
            assert!(
                index.contains(&format!("<code>{test}</code>")),
                "pass rate of {test}"
            );
        }
    }
    // wrong-answer numbers Rolling Stone's winner from 0: the reference's
    // winner, and one less, on line 1 of each Rolling Stone test.
    let json = course.json();
    let wrong = json
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["submission"].as_str().unwrap().ends_with("wrong-answer"))
        .unwrap();
    let page = course.page("wrong-answer.html");
    for k in 1..=4 {
        let test = format!("tests_rolling_stone/rollingstone{k}");
        let expected = reference_line(&test);
        let actual = (expected.parse::<u32>().unwrap() - 1).to_string();
        let section = test_section(&page, &test);
        assert!(section.contains("wrong_answer"), "{section}");
        assert!(section.contains("First difference: line 1"), "{section}");
        let row = |class: &str| {
            let at = section.find(&format!("<tr class=\"{class}\">")).unwrap();
            &section[at..at + section[at..].find("</tr>").unwrap()]
        };
        assert!(
            row("exp").contains(&format!("<mark>{expected}</mark>")),
            "{section}"
        );
        assert!(
            row("act").contains(&format!("<mark>{actual}</mark>")),
            "{section}"
        );
        let t = wrong["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == test.as_str())
            .unwrap();
        assert_eq!(t["first_difference"]["line"], 1);
        assert_eq!(t["first_difference"]["expected"], expected.as_str());
        assert_eq!(t["first_difference"]["actual"], actual.as_str());
    }
    // Passed tests carry no difference.
    assert!(!test_section(&page, "tests_razboi/razboi1").contains("First difference"));
    // The trace of a game: the one `homework --debug` writes for its input.
    let traced = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("checker/tests/tests_razboi/razboi1.in"),
        traced.path().join("in"),
    )
    .unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_homework"))
        .arg("--debug")
        .current_dir(traced.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(test_section(&page, "tests_razboi/razboi1")
        .contains("href=\"traces/tests_razboi/razboi1.debug\""));
    assert_eq!(
        std::fs::read(course.html().join("traces/tests_razboi/razboi1.debug")).unwrap(),
        std::fs::read(traced.path().join("out.debug")).unwrap()
    );
    let segfault = course.page("segfault.html");
    assert!(test_section(&segfault, "tests_scarabei/scarabei1").contains("SIGSEGV"));
    assert!(course
        .page("build-fails.html")
        .contains("make build failed"));
    // The same pages again from the saved JSON.
    let again = course.work.path().join("again");
    run_grader(
        course.work.path(),
        &[
            "--from-json",
            "grades.json",
            "--html",
            &again.display().to_string(),
            "--tests",
            &tests_dir(),
        ],
    );
    for name in course
        .names
        .iter()
        .map(|n| format!("{n}.html"))
        .chain(["index.html".into()])
    {
        assert!(
            read_page(&again.join(&name)) == course.page(&name),
            "{name} from --from-json differs from the graded run's"
        );
    }
}

/// The JSON without its timings (every `seconds`).
fn without_timings(mut value: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("seconds");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

#[test]
fn three_shards_merged_equal_the_unsharded_run() {
    let course = course();
    let work = course.work.path();
    let subs = course.subs().display().to_string();
    let mut shards = Vec::new();
    for k in 1..=3 {
        let json = format!("shard-{k}.json");
        let shard = format!("{k}/3");
        run_grader(
            work,
            &[
                "--all",
                &subs,
                "-j",
                "2",
                "--shard",
                &shard,
                "--tests",
                &tests_dir(),
                "--timeout",
                "1",
                "--no-valgrind",
                "--json",
                &json,
                "--csv",
                &format!("shard-{k}.csv"),
            ],
        );
        let value: Value =
            serde_json::from_str(&std::fs::read_to_string(work.join(&json)).unwrap()).unwrap();
        // 6 submissions: names 1 and 4 in shard 1, and so on.
        let got: Vec<&str> = value
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["submission"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(got, [course.names[k - 1], course.names[k + 2]], "shard {k}");
        assert_eq!(value[0]["shard"]["count"], 3);
        shards.push(json);
    }
    let mut args = vec!["merge"];
    args.extend(shards.iter().rev().map(String::as_str));
    args.extend(["--json", "merged.json", "--html", "merged-html", "--tests"]);
    let tests = tests_dir();
    args.push(&tests);
    let stdout = run_grader(work, &args);
    assert!(stdout.contains("6 submissions"), "{stdout}");
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("merged.json")).unwrap()).unwrap();
    assert_eq!(without_timings(merged), without_timings(course.json()));
    for name in &course.names {
        assert!(work.join(format!("merged-html/{name}.html")).is_file());
    }
    // A missing shard, or one given twice, is refused.
    for bad in [
        vec!["merge", "shard-1.json", "shard-2.json", "--json", "x.json"],
        vec![
            "merge",
            "shard-1.json",
            "shard-1.json",
            "shard-2.json",
            "--json",
            "x.json",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
            .args(&bad)
            .current_dir(work)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("homework-grade merge: "), "{err}");
    }
    assert!(!work.join("x.json").exists());
}

#[test]
#[ignore = "needs valgrind (make setup installs it); make test runs it"]
fn valgrind_first_error_with_its_stack_in_json_terminal_and_html() {
    require_tools();
    support::require_tool("valgrind");
    let tests = six_tests();
    let work = tempfile::tempdir().unwrap();
    let html = work.path().join("html");
    let stdout = run_grader(
        work.path(),
        &[
            &fixture("segfault"),
            "--tests",
            &tests.path().display().to_string(),
            "--json",
            "segfault.json",
            "--html",
            &html.display().to_string(),
        ],
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("segfault.json")).unwrap())
            .unwrap();
    let scarabs = json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "tests_scarabei/scarabei1")
        .unwrap();
    assert_eq!(scarabs["status"], "crashed");
    let first = &scarabs["memcheck"]["first_error"];
    let what = first["what"].as_str().unwrap();
    assert!(what.starts_with("Invalid "), "{scarabs}");
    let frame = first["stack"][0].as_str().unwrap();
    assert!(frame.starts_with("at 0x"), "{scarabs}");
    assert!(stdout.contains(what) && stdout.contains(frame), "{stdout}");
    let page = read_page(&html.join("segfault.html"));
    let section = test_section(&page, "tests_scarabei/scarabei1");
    assert!(
        section.contains(&format!("<strong>{what}</strong>")),
        "{section}"
    );
    // Only the crashed test has findings.
    let with: Vec<&Value> = json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("memcheck").is_some())
        .collect();
    assert_eq!(with.len(), 1, "{json}");
}

/// Names of the project's checker tests, as the grader names them.
mod grade {
    pub fn discovered_names() -> Vec<String> {
        let mut names = Vec::new();
        let dir = super::root().join("checker/tests");
        for sub in std::fs::read_dir(&dir).unwrap().flatten() {
            for f in std::fs::read_dir(sub.path()).unwrap().flatten() {
                let p = f.path();
                if p.extension().is_some_and(|e| e == "in") {
                    let rel = p.with_extension("");
                    names.push(rel.strip_prefix(&dir).unwrap().display().to_string());
                }
            }
        }
        assert_eq!(names.len(), 22);
        names
    }
}

/// A link that leaves the submission stays a link, dangling in the sandbox (the adversarial
/// sweep of 2026-11-27, its first defect: the grader, running as root, copied in any file a
/// link named). A submission of a Makefile and a link to the project's own solution gets no
/// point; one that links to a file only the grader's side holds cannot read it, while a link
/// to one of its own files is copied as that file.
#[test]
fn links_leaving_the_submission_give_it_nothing() {
    use std::os::unix::fs::symlink;
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let solution = work.path().join("solution");
    std::fs::create_dir(&solution).unwrap();
    symlink(env!("CARGO_BIN_EXE_homework"), solution.join("prog")).unwrap();
    std::fs::write(
        solution.join("Makefile"),
        "build:\n\ttrue\nrun:\n\t./prog\nclean:\n\ttrue\n",
    )
    .unwrap();
    let r = grade_quickly(&solution.display().to_string());
    assert_eq!(r["points"], 0.0, "{r}");

    let secret = work.path().join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET-1234\n").unwrap();
    let reader = work.path().join("reader");
    std::fs::create_dir(&reader).unwrap();
    symlink(&secret, reader.join("secret")).unwrap();
    std::fs::write(reader.join("own.txt"), "mine\n").unwrap();
    symlink(reader.join("own.txt"), reader.join("own")).unwrap();
    std::fs::write(
        reader.join("Makefile"),
        "build:\n\ttrue\nrun:\n\tcat secret own > out 2>/dev/null || true\nclean:\n\ttrue\n",
    )
    .unwrap();
    let r = grade_quickly(&reader.display().to_string());
    let text = r.to_string();
    assert!(!text.contains("TOP-SECRET"), "{text}");
    assert_eq!(
        r["tests"][0]["first_difference"]["actual"], "mine",
        "{text}"
    );
}

/// A course folder with `names` as submissions, each a link to the fixture of that name.
fn linked_course(work: &Path, names: &[&str]) -> PathBuf {
    let subs = work.join("subs");
    std::fs::create_dir(&subs).unwrap();
    for name in names {
        std::os::unix::fs::symlink(fixtures().join(name), subs.join(name)).unwrap();
    }
    subs
}

#[test]
fn hidden_folders_are_not_submissions() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let subs = linked_course(work.path(), &["correct"]);
    // A course kept in git, and a hidden copy of a real submission: neither is graded.
    std::fs::create_dir_all(subs.join(".git/objects")).unwrap();
    std::fs::write(subs.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::os::unix::fs::symlink(fixtures().join("correct"), subs.join(".hidden")).unwrap();
    let (reports, stdout) = grade_all(work.path(), &subs, &["--html", "pages"]);
    let graded: Vec<&str> = reports.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(graded, ["correct"], "{graded:?}");
    let csv = std::fs::read_to_string(work.path().join("grades.csv")).unwrap();
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(
        !stdout.contains(".git") && !stdout.contains(".hidden"),
        "{stdout}"
    );
    let pages: Vec<String> = std::fs::read_dir(work.path().join("pages"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".html"))
        .collect();
    assert_eq!(pages.len(), 2, "index and correct only: {pages:?}");
}

/// Waits (at most a minute) until `ready`, polling.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(60), "never {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The `grade-*` folders (the grader's temporary copies) in `tmp`.
fn copies_in(tmp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("grade-")
        })
        .collect()
}

/// Sends `signal` to the grader once one of its copies in `tmp` has run a test (its `in`
/// exists) and a second has passed, so the looping War test is running; returns its
/// output, which must come within 20 s (the test's limit is 60 s).
fn interrupt_grader(
    mut cmd: Command,
    tmp: &Path,
    signal: nix::sys::signal::Signal,
) -> std::process::Output {
    let child = cmd
        .env("TMPDIR", tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("a test started", || {
        copies_in(tmp)
            .iter()
            .any(|c| c.join("submission/in").exists())
    });
    std::thread::sleep(Duration::from_secs(1));
    let start = Instant::now();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?} after the signal",
        start.elapsed()
    );
    out
}

#[test]
fn ctrl_c_stops_grading_writes_the_partial_result_and_leaves_no_copy() {
    require_tools();
    use nix::sys::signal::Signal;
    // A shuffle test that passes, then a War test the fixture loops on (limit 60 s).
    let tests = some_tests(&[
        ("tests_amestecare", "test1"),
        ("tests_razboi", "razboi1"),
        ("tests_scarabei", "scarabei1"),
    ]);
    let tests = tests.path().display().to_string();
    let common = ["--tests", &tests, "--timeout", "60", "--no-valgrind"];

    // One submission, SIGINT: its JSON object, marked partial, holds the test that finished.
    let work = tempfile::tempdir().unwrap();
    let tmp = work.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_homework-grade"));
    cmd.arg(fixture("looping-war"))
        .args(common)
        .args(["--json", "r.json", "--csv", "r.csv"])
        .current_dir(work.path());
    let out = interrupt_grader(cmd, &tmp, Signal::SIGINT);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("interrupted: 1 of 3 tests ran"),
        "{stdout}"
    );
    assert_eq!(stderr.trim(), "homework-grade: interrupted");
    assert_eq!(copies_in(&tmp), Vec::<PathBuf>::new(), "a copy was left");
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("r.json")).unwrap())
            .unwrap();
    assert_eq!(r["partial"], true, "{r}");
    let tests_run = r["tests"].as_array().unwrap();
    assert_eq!(tests_run.len(), 1, "the killed War test is dropped: {r}");
    assert_eq!(tests_run[0]["status"], "passed", "{r}");
    // 4 of the 14 points of the three tests, on the scale of 100.
    assert_eq!(r["points"], 28.57, "{r}");
    assert!(r["clean"].is_null(), "make clean did not run: {r}");
    let csv = std::fs::read_to_string(work.path().join("r.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",partial"), "{csv}");
    assert!(lines[1].ends_with(",true"), "{csv}");

    // A course, SIGTERM: the default grades.json holds the cut submission, marked partial.
    let work = tempfile::tempdir().unwrap();
    let tmp = work.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let subs = linked_course(work.path(), &["looping-war"]);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_homework-grade"));
    cmd.args(["--all", &subs.display().to_string()])
        .args(common)
        .args(["--html", "pages"])
        .current_dir(work.path());
    let out = interrupt_grader(cmd, &tmp, Signal::SIGTERM);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.starts_with("interrupted: 0 of 1 submissions graded, 1 cut short"),
        "{stdout}"
    );
    assert_eq!(copies_in(&tmp), Vec::<PathBuf>::new(), "a copy was left");
    let all: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("grades.json")).unwrap())
            .unwrap();
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["partial"], true);
    assert_eq!(all[0]["tests"].as_array().unwrap().len(), 1);
    let page = read_page(&work.path().join("pages/looping-war.html"));
    assert!(page.contains("the grading was interrupted"), "{page}");
    // A partial shard is not merged as if it were a result.
    let merged = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args(["merge", "grades.json", "--json", "merged.json"])
        .current_dir(work.path())
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&merged.stderr).contains("interrupted run (partial)"));
    assert!(!work.path().join("merged.json").exists());
}

/// Runs the grader with `args` in `dir`; its exit status, stdout and stderr.
fn grader_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    support::run_in(dir, env!("CARGO_BIN_EXE_homework-grade"), args)
}

#[test]
fn outputs_are_checked_before_any_grading() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let tests = tests_dir();
    let sub = fixture("correct");
    let subs = linked_course(dir, &["correct"]);
    let subs = subs.display().to_string();
    let quick = ["--tests", tests.as_str(), "--no-valgrind"];
    std::fs::write(dir.join("old.json"), "kept").unwrap();
    std::fs::write(dir.join("file"), "").unwrap();
    // (arguments, exit status, the message after `homework-grade: `)
    let cases: [(Vec<&str>, i32, &str); 6] = [
        (
            vec![&sub, "--json", "old.json", "--csv", "old.json"],
            2,
            "--json and --csv name the same file old.json",
        ),
        // --all writes grades.json unless told otherwise.
        (
            vec!["--all", &subs, "--csv", "grades.json"],
            2,
            "--json and --csv name the same file grades.json",
        ),
        (
            vec![&sub, "--json", "no/such/folder/r.json"],
            1,
            "cannot write no/such/folder/r.json: No such file",
        ),
        (
            vec!["--all", &subs, "--csv", "."],
            1,
            "cannot write .: it is a folder",
        ),
        (
            vec![&sub, "--html", "file/pages"],
            1,
            "cannot write the pages into file/pages: file is not a folder",
        ),
        (
            vec!["--all", &subs, "--json", "pages", "--html", "pages"],
            2,
            "--json and --html name the same path pages",
        ),
    ];
    for (args, code, message) in cases {
        let all: Vec<&str> = args.iter().copied().chain(quick).collect();
        let (status, stdout, stderr) = grader_in(dir, &all);
        assert_eq!(status, Some(code), "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("homework-grade: {message}")),
            "{args:?}: {stderr}"
        );
        assert_eq!(stdout, "", "{args:?}: graded before the check");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("old.json")).unwrap(),
        "kept"
    );
    assert!(!dir.join("grades.json").exists() && !dir.join("grades.csv").exists());
}

#[test]
fn misplaced_options_are_usage_errors_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let sub = fixture("correct");
    for (flag, args) in [
        ("--shard", vec![sub.as_str(), "--shard", "1/2"]),
        ("--shard", vec!["--shard", "1/2", sub.as_str()]),
        ("--resume", vec![sub.as_str(), "--resume"]),
        (
            "--gradescope",
            vec!["--all", sub.as_str(), "--gradescope", "r.json"],
        ),
        (
            "--classroom",
            vec!["--all", sub.as_str(), "--classroom", "r.json"],
        ),
        (
            "--gradescope",
            vec![sub.as_str(), "--visibility", "after_published"],
        ),
    ] {
        let (status, stdout, stderr) = grader_in(dir.path(), &args);
        assert_eq!(status, Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(stdout, "");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("homework-grade: ")
                && stderr.contains(flag)
                && stderr.trim_end().ends_with("(see --help)"),
            "{stderr}"
        );
    }
    // The sandbox's options, refused in one line before any grading.
    let tests = tests_dir();
    for (args, says) in [
        (
            vec!["--sandbox-env", "NO_SUCH_VARIABLE_72"],
            "the grader has no such variable",
        ),
        (
            vec!["--sandbox-bind", "/no/such/folder"],
            "--sandbox-bind /no/such/folder: No such file",
        ),
        (
            vec!["--no-sandbox", "--sandbox-bind", "/usr"],
            "need the sandbox",
        ),
    ] {
        let mut all = vec![sub.as_str(), "--tests", &tests, "--no-valgrind"];
        all.extend(args);
        let (status, stdout, stderr) = grader_in(dir.path(), &all);
        assert_eq!(status, Some(2), "{all:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}

/// A JUnit `testcase` read back: its name, time, and failure (type, message) if any.
type Case = (String, f64, Option<(String, String)>);

/// Writes the program `path` (a script, mode 0755), its folders made.
fn write_program(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, script).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Copies the honest fixture `name` (its links replaced by their files) to `to`, a
/// submission of its own that a test may change.
fn copy_fixture(name: &str, to: &Path) {
    let (code, _, err) = support::run_in(
        fixtures(),
        "cp",
        &["-r", &fixture(name), to.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{err}");
}

/// One `testsuite` of a JUnit report as read back: its attributes and its
/// test cases `(name, time, failure type and message)`.
#[derive(Debug, Default)]
struct Suite {
    name: String,
    tests: usize,
    failures: usize,
    properties: Vec<(String, String)>,
    cases: Vec<Case>,
}

/// Reads a JUnit report with quick-xml (attributes unescaped and normalized
/// as an XML 1.0 reader does): its suites.
fn read_junit(text: &str) -> Vec<Suite> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut suites: Vec<Suite> = Vec::new();
    let attr = |e: &quick_xml::events::BytesStart, key: &str| -> String {
        e.try_get_attribute(key)
            .unwrap()
            .unwrap_or_else(|| panic!("no {key} in {e:?}"))
            .normalized_value(quick_xml::XmlVersion::Explicit1_0)
            .unwrap()
            .into_owned()
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() as &str {
                "testsuite" => suites.push(Suite {
                    name: attr(&e, "name"),
                    tests: attr(&e, "tests").parse().unwrap(),
                    failures: attr(&e, "failures").parse().unwrap(),
                    ..Suite::default()
                }),
                "property" => {
                    let p = (attr(&e, "name"), attr(&e, "value"));
                    suites.last_mut().unwrap().properties.push(p);
                }
                "testcase" => {
                    let case = (attr(&e, "name"), attr(&e, "time").parse().unwrap(), None);
                    suites.last_mut().unwrap().cases.push(case);
                }
                "failure" => {
                    let suite = suites.last_mut().unwrap();
                    let case = suite.cases.last_mut().unwrap();
                    assert!(case.2.is_none(), "two failures in {}", case.0);
                    case.2 = Some((attr(&e, "type"), attr(&e, "message")));
                }
                _ => {}
            },
            _ => {}
        }
    }
    suites
}

#[test]
fn junit_report_has_a_suite_per_submission_and_a_failure_per_failed_test() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let names = ["build-fails", "correct", "segfault", "wrong-answer"];
    let subs = linked_course(work.path(), &names);
    let (reports, stdout) = grade_all(work.path(), &subs, &["--junit", "junit.xml"]);
    assert!(stdout.contains("junit: junit.xml"), "{stdout}");
    let text = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    let suites = read_junit(&text);
    let got: Vec<&str> = suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(got, names);
    // What the fixtures' defects give, on the 22 tests: 22, 0, 4 and 4 failures.
    let known = [
        ("build-fails", 22, "build_failed"),
        ("correct", 0, ""),
        ("segfault", 4, "crashed"),
        ("wrong-answer", 4, "wrong_answer"),
    ];
    for ((suite, (name, json)), (_, failures, status)) in suites.iter().zip(&reports).zip(known) {
        assert_eq!(&suite.name, name);
        let tests = json["tests"].as_array().unwrap();
        assert_eq!(
            (suite.tests, suite.cases.len()),
            (tests.len(), tests.len()),
            "{name}"
        );
        assert_eq!(suite.failures, failures, "{name}");
        let failed: Vec<_> = suite.cases.iter().filter_map(|c| c.2.as_ref()).collect();
        assert_eq!(failed.len(), failures, "{name}");
        for (case, t) in suite.cases.iter().zip(tests) {
            assert_eq!(case.0, t["name"].as_str().unwrap());
            assert_eq!(
                case.1,
                (t["seconds"].as_f64().unwrap() * 1000.0).round() / 1000.0
            );
            match &case.2 {
                None => assert_eq!(t["status"], "passed", "{name} {}", case.0),
                Some((kind, message)) => {
                    assert_eq!(kind, status, "{name} {}", case.0);
                    assert_eq!(t["status"], status);
                    assert!(message.starts_with(status), "{message}");
                }
            }
        }
        let points = suite.properties.iter().find(|p| p.0 == "points").unwrap();
        assert_eq!(
            points.1.parse::<f64>().unwrap(),
            json["points"].as_f64().unwrap()
        );
    }
    // A wrong answer's message names the first difference (Rolling Stone's winner, numbered
    // from 0 instead of 1), a crash its signal.
    let wrong = &suites[3].cases.iter().find(|c| c.2.is_some()).unwrap();
    let message = &wrong.2.as_ref().unwrap().1;
    let reference = reference_line(&wrong.0);
    assert!(
        message.starts_with("wrong_answer: line 1: expected "),
        "{message}"
    );
    assert!(
        message.contains(&format!("expected {reference:?}")),
        "{message} / {reference}"
    );
    let crash = suites[2].cases.iter().find_map(|c| c.2.as_ref()).unwrap();
    assert_eq!(crash.1, "crashed (SIGSEGV)");
    // The schema of the format, with a real validator when there is one.
    let schema = root().join("checker/schemas/junit.xsd");
    if support::outside(
        "xmllint (apt-get install libxml2-utils), for the JUnit schema check",
        support::have("xmllint"),
    ) {
        let (code, out, err) = support::run_in(
            work.path(),
            "xmllint",
            &[
                "--noout",
                "--schema",
                &schema.display().to_string(),
                "junit.xml",
            ],
        );
        assert_eq!(code, Some(0), "{out}{err}");
    }
}

#[test]
fn junit_escapes_what_a_submission_writes() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let sub = work.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    // An answer with markup, quotes and a control character XML cannot carry.
    std::fs::write(
        sub.join("Makefile"),
        "build:\n\ttrue\nrun:\n\tprintf '</failure>&\"\\033<x>\\n' > out\nclean:\n\ttrue\n",
    )
    .unwrap();
    let tests = some_tests(&[("tests_razboi", "razboi1")]);
    let tests = tests.path().display().to_string();
    let (code, _, err) = grader_in(
        work.path(),
        &[
            sub.to_str().unwrap(),
            "--tests",
            &tests,
            "--no-valgrind",
            "--junit",
            "j.xml",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(work.path().join("j.xml")).unwrap();
    let suites = read_junit(&text);
    let (kind, message) = suites[0].cases[0].2.clone().unwrap();
    assert_eq!(kind, "wrong_answer");
    assert!(
        message.contains(r#"got "</failure>&\"\\u{1b}<x>""#),
        "{message}"
    );
}

/// Whether `program` is installed; when it is not, the test does not run, saying so
/// (`support::outside`: recorded for `make test`'s summary, a failure under CI).
fn have_or_skip(program: &str, package: &str, what: &str) -> bool {
    let found = std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success());
    support::outside(
        &format!("{program} (apt-get install {package}), for {what}"),
        found,
    )
}

/// The fields Gradescope's autograder specification gives results.json and each of its
/// tests, and the values it allows for `status` and `visibility`.
const GRADESCOPE_TOP: [&str; 11] = [
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
];
const GRADESCOPE_TEST: [&str; 11] = [
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
];
const GRADESCOPE_VISIBILITY: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];
const GRADESCOPE_FORMATS: [&str; 5] = ["text", "html", "simple_format", "md", "ansi"];

/// Checks `results` field by field against Gradescope's specification, and its points
/// against the grader's own JSON `json` of the same grading: the test entries' scores add
/// up to its points, the valgrind entry takes its deduction, and `score` is what is left.
fn assert_gradescope(results: &Value, json: &Value, visibility: &str) {
    let top = results.as_object().unwrap();
    for key in top.keys() {
        assert!(
            GRADESCOPE_TOP.contains(&key.as_str()),
            "unknown field {key}"
        );
    }
    assert!(
        top["score"].is_number() && top["execution_time"].is_u64(),
        "{results}"
    );
    assert!(top["output"].is_string());
    assert!(GRADESCOPE_FORMATS.contains(&top["output_format"].as_str().unwrap()));
    let tests = top["tests"].as_array().unwrap();
    let mut sum = 0.0;
    for t in tests {
        let t = t.as_object().unwrap();
        for key in t.keys() {
            assert!(
                GRADESCOPE_TEST.contains(&key.as_str()),
                "unknown test field {key}"
            );
        }
        let (score, max) = (
            t["score"].as_f64().unwrap(),
            t["max_score"].as_f64().unwrap(),
        );
        assert!(score <= max, "{t:?}");
        assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
        assert!(GRADESCOPE_VISIBILITY.contains(&t["visibility"].as_str().unwrap()));
        assert_eq!(t["visibility"], visibility);
        assert!(t["name"].is_string() && t["output"].is_string());
        sum += score;
    }
    let graded = json["tests"].as_array().unwrap();
    let points: f64 = tests[..graded.len()]
        .iter()
        .map(|t| t["score"].as_f64().unwrap())
        .sum();
    // The JSON rounds a submission's points to cents, not each test's.
    assert!(
        (points - json["points"].as_f64().unwrap()).abs() < 0.01,
        "{points} vs {}",
        json["points"]
    );
    for (entry, t) in tests.iter().zip(graded) {
        assert_eq!(entry["name"], t["name"]);
        let passed = t["status"] == "passed";
        assert_eq!(entry["status"], if passed { "passed" } else { "failed" });
        if !passed {
            assert!(
                entry["output"]
                    .as_str()
                    .unwrap()
                    .starts_with(t["status"].as_str().unwrap()),
                "{entry}"
            );
        }
    }
    let deduction = json["valgrind"]["deduction"].as_f64().unwrap_or(0.0);
    let valgrind = tests
        .iter()
        .find(|t| t["name"].as_str().unwrap().starts_with("valgrind"))
        .unwrap();
    assert_eq!(valgrind["score"].as_f64().unwrap(), -deduction);
    assert!(
        (sum - top["score"].as_f64().unwrap()).abs() < 0.01,
        "{sum} vs {}",
        top["score"]
    );
    let max: f64 = tests.iter().map(|t| t["max_score"].as_f64().unwrap()).sum();
    assert!(
        (max - json["max_points"].as_f64().unwrap()).abs() < 1e-9,
        "{max}"
    );
}

#[test]
fn gradescope_zip_and_run_autograder_give_the_json_points() {
    require_tools();
    if !have_or_skip("zip", "zip", "the Gradescope zip test")
        || !have_or_skip("unzip", "unzip", "the Gradescope zip test")
    {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let tests = six_tests();
    let options = work.path().join("options");
    std::fs::write(&options, "--no-valgrind\n--timeout\n1\n").unwrap();
    let zip = work.path().join("autograder.zip");
    let (code, out, err) = support::run_in(
        &root(),
        "make",
        &[
            "--no-print-directory",
            "gradescope-zip",
            &format!("TESTS={}", tests.path().display()),
            &format!("ZIP={}", zip.display()),
            concat!("GRADER=", env!("CARGO_BIN_EXE_homework-grade")),
            "VISIBILITY=after_published",
            &format!("OPTIONS={}", options.display()),
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let (_, listing, _) = support::run_in(work.path(), "unzip", &["-Z1", "autograder.zip"]);
    let mut files: Vec<&str> = listing.lines().filter(|l| !l.ends_with('/')).collect();
    files.sort();
    assert_eq!(
        files,
        [
            "homework-grade",
            "options",
            "run_autograder",
            "setup.sh",
            "tests/tests_amestecare/test1.in",
            "tests/tests_amestecare/test1.ref",
            "tests/tests_amestecare/test2.in",
            "tests/tests_amestecare/test2.ref",
            "tests/tests_razboi/razboi1.in",
            "tests/tests_razboi/razboi1.ref",
            "tests/tests_razboi/razboi2.in",
            "tests/tests_razboi/razboi2.ref",
            "tests/tests_rolling_stone/rollingstone1.in",
            "tests/tests_rolling_stone/rollingstone1.ref",
            "tests/tests_scarabei/scarabei1.in",
            "tests/tests_scarabei/scarabei1.ref",
            "visibility",
        ],
        "{listing}"
    );
    // Gradescope's layout in a scratch root: the zip in source/, the student's files in
    // submission/, the results written to results/.
    for (case, fixture_name, fake_bwrap) in [(0, "wrong-answer", false), (1, "segfault", true)] {
        let root_dir = work.path().join(format!("autograder{case}"));
        let source = root_dir.join("source");
        std::fs::create_dir_all(&source).unwrap();
        let (code, _, err) = support::run_in(&source, "unzip", &["-q", zip.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
        copy_fixture(fixture_name, &root_dir.join("submission"));
        let mut cmd = Command::new(source.join("run_autograder"));
        cmd.env("AUTOGRADER_ROOT", &root_dir).current_dir(&root_dir);
        if fake_bwrap {
            // A container that refuses user namespaces, as Docker's default profile does.
            let bin = work.path().join("fake-bin");
            write_program(
                &bin.join("bwrap"),
                "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
            );
            let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
            cmd.env("PATH", path);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let read = |name: &str| -> Value {
            serde_json::from_str(
                &std::fs::read_to_string(root_dir.join("results").join(name)).unwrap(),
            )
            .unwrap()
        };
        let (results, json) = (read("results.json"), read("grades.json"));
        assert_gradescope(&results, &json, "after_published");
        // 6 tests: 2 shuffles (4 points), 4 games (5 points), 28 in all; one of each
        // fixture's defective task fails.
        let lost = 5.0 * 100.0 / 28.0;
        assert!(
            (json["points"].as_f64().unwrap() - (100.0 - lost)).abs() < 0.01,
            "{json}"
        );
        let output = results["output"].as_str().unwrap();
        if fake_bwrap {
            assert_eq!(json["sandbox"], "none");
            assert!(
                output.contains("graded without the bubblewrap sandbox"),
                "{output}"
            );
            assert!(
                output.contains("No permissions to create new namespace"),
                "{output}"
            );
        } else {
            assert_eq!(json["sandbox"], "bubblewrap");
            assert!(output.contains("sandbox: bubblewrap"), "{output}");
        }
    }
}

/// `text` with every time the pages print (a number with 3 decimals) replaced by `#`.
fn without_times(text: &str) -> String {
    let mut out = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        let timed = token.split_once('.').is_some_and(|(a, b)| {
            !a.is_empty() && b.len() == 3 && b.bytes().all(|c| c.is_ascii_digit())
        });
        out.push_str(if timed { "#" } else { token });
        token.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || c == '.' {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

#[test]
fn a_killed_course_run_resumes_to_what_an_uninterrupted_run_gives() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let (dir, tmp) = (work.path(), work.path().join("tmp"));
    std::fs::create_dir(&tmp).unwrap();
    let subs = dir.join("subs");
    std::fs::create_dir(&subs).unwrap();
    let names = [
        "build-fails",
        "correct",
        "looping-war",
        "segfault",
        "wrong-answer",
    ];
    for name in names {
        copy_fixture(name, &subs.join(name));
    }
    let tests = six_tests();
    let tests = tests.path().display().to_string();
    let subs_arg = subs.display().to_string();
    let common = [
        "--all",
        &subs_arg,
        "-j",
        "1",
        "--tests",
        &tests,
        "--timeout",
        "1",
        "--no-valgrind",
    ];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = common.iter().chain(extra).copied().collect();
        let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
            .args(&args)
            .env("TMPDIR", &tmp)
            .current_dir(dir)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{args:?}\n{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    run(&[
        "--json",
        "full.json",
        "--csv",
        "full.csv",
        "--html",
        "full-html",
    ]);
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    let full = read("full.json");

    // Killed (SIGKILL: nothing of the grader runs after it) once a submission is kept in the
    // file; the file is whole JSON whenever it is there.
    let mut child = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
        .args(common)
        .args(["--json", "run.json", "--csv", "run.csv"])
        .env("TMPDIR", &tmp)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut kept = 0;
    wait_until("a submission kept in run.json", || {
        if let Ok(text) = std::fs::read_to_string(dir.join("run.json")) {
            let value: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            kept = value.as_array().unwrap().len();
        }
        kept > 0
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let before = read("run.json").as_array().unwrap().len();
    assert!(
        (1..names.len()).contains(&before),
        "{before} submissions finished before the kill"
    );
    assert!(
        !dir.join("run.csv").exists(),
        "the CSV is written at the end only"
    );

    let stdout = run(&[
        "--json", "run.json", "--csv", "run.csv", "--html", "run-html", "--resume",
    ]);
    assert!(
        stdout.contains(&format!(
            "resume: {before} of 5 submissions kept from run.json"
        )),
        "{stdout}"
    );
    assert_eq!(
        without_timings(read("run.json")),
        without_timings(full.clone())
    );
    let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(text("run.csv"), text("full.csv"));
    for name in names {
        let page = format!("{name}.html");
        assert_eq!(
            without_times(&text(&format!("run-html/{page}"))),
            without_times(&text(&format!("full-html/{page}"))),
            "{page}"
        );
    }

    // One entry removed, one submission's file changed: those two are graded again.
    let mut value = read("run.json");
    value
        .as_array_mut()
        .unwrap()
        .retain(|r| !r["submission"].as_str().unwrap().ends_with("/correct"));
    std::fs::write(dir.join("run.json"), value.to_string()).unwrap();
    let readme = subs.join("segfault/README");
    let mut words = std::fs::read_to_string(&readme).unwrap();
    words.push_str("(resubmitted)\n");
    std::fs::write(&readme, words).unwrap();
    let stdout = run(&["--json", "run.json", "--csv", "run.csv", "--resume"]);
    assert!(
        stdout.contains("resume: 3 of 5 submissions kept from run.json"),
        "{stdout}"
    );
    let graded = stdout
        .lines()
        .filter(|l| l.contains("submissions graded"))
        .collect::<Vec<_>>();
    assert_eq!(graded.len(), 1, "{stdout}");
    let mut again = read("run.json");
    let mut expected = full.clone();
    for v in [&mut again, &mut expected] {
        for r in v.as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("fingerprint");
        }
    }
    assert_eq!(without_timings(again), without_timings(expected));
    assert_eq!(text("run.csv"), text("full.csv"));
    // The changed submission has a new fingerprint, the others their old one.
    let fingerprints = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["fingerprint"].as_str().unwrap().to_owned())
            .collect()
    };
    let (now, then) = (fingerprints(&read("run.json")), fingerprints(&full));
    let changed: Vec<usize> = (0..5).filter(|&i| now[i] != then[i]).collect();
    assert_eq!(changed, [3], "only segfault's files changed");
}

#[test]
fn a_toolchain_outside_the_system_folders_is_let_in_by_sandbox_bind() {
    use std::os::unix::fs::PermissionsExt;
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    // Readable by every user: the sandbox runs as uid 65534 when the grader is root.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A course's compiler in a folder of its own, which needs a variable of the course's.
    let tools = dir.join("course-tools");
    let cc = tools.join("bin/course-cc");
    write_program(
        &cc,
        "#!/bin/sh\n[ \"$COURSE_MODE\" = strict ] || { echo 'course-cc: COURSE_MODE is not strict' >&2; exit 1; }\nexec cc \"$@\"\n",
    );
    let sub = dir.join("sub");
    copy_fixture("correct", &sub);
    std::fs::write(sub.join("bug.mk"), "CC = course-cc\n").unwrap();
    let tests = six_tests();
    let tests = tests.path().display().to_string();
    let path = format!(
        "{}:{}",
        tools.join("bin").display(),
        std::env::var("PATH").unwrap()
    );
    let grade_with = |extra: &[&str]| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_homework-grade"))
            .args([
                sub.to_str().unwrap(),
                "--tests",
                &tests,
                "--timeout",
                "2",
                "--no-valgrind",
                "--json",
                "r.json",
            ])
            .args(extra)
            .env("PATH", &path)
            .env("COURSE_MODE", "strict")
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap()
    };
    let build_note = |r: &Value| -> String {
        r["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .find(|n| n.starts_with("make build failed"))
            .unwrap_or_else(|| panic!("{r}"))
            .to_owned()
    };
    // Not shown: the build fails, and the note says why and which option lets it in.
    let r = grade_with(&[]);
    assert_eq!(r["points"], 0.0);
    assert!(r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["status"] == "build_failed"));
    let note = build_note(&r);
    assert!(
        note.contains(&format!(
            "course-cc was not found in the sandbox, which shows only the system's folders (/usr, /bin, /etc); it is {} here: let it in with --sandbox-bind {}",
            cc.display(),
            tools.display()
        )),
        "{note}"
    );
    // Shown, without its variable: the compiler runs and says what it misses.
    let bind = tools.display().to_string();
    let r = grade_with(&["--sandbox-bind", &bind]);
    assert_eq!(r["points"], 0.0);
    assert!(
        build_note(&r).contains("course-cc: COURSE_MODE is not strict"),
        "{r}"
    );
    // Shown with its variable (the grader's own value): full points.
    let r = grade_with(&["--sandbox-bind", &bind, "--sandbox-env", "COURSE_MODE"]);
    assert_eq!(r["points"], 100.0, "{r}");
    assert_eq!(r["sandbox"], "bubblewrap");
    // As root, a folder uid 65534 cannot reach is refused in one line.
    if nix::unistd::geteuid().is_root() {
        let closed = dir.join("closed");
        std::fs::create_dir_all(closed.join("tools")).unwrap();
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
        let (code, _, err) = grader_in(
            dir,
            &[
                sub.to_str().unwrap(),
                "--tests",
                &tests,
                "--no-valgrind",
                "--sandbox-bind",
                closed.join("tools").to_str().unwrap(),
            ],
        );
        assert_eq!(code, Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("cannot reach it") && err.contains("is not searchable by others"),
            "{err}"
        );
    }
}

#[test]
fn a_link_leaving_the_submission_is_named_as_the_builds_cause() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let tests = six_tests();
    let tests = tests.path().display().to_string();
    // The fixture as it is in the repository: its Makefile links ../correct/Makefile.
    let segfault = root()
        .join("checker/fixtures/segfault")
        .display()
        .to_string();
    let (code, stdout, err) = grader_in(
        work.path(),
        &[
            &segfault,
            "--tests",
            &tests,
            "--no-valgrind",
            "--json",
            "r.json",
            "--html",
            "pages",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let said = "Makefile is a link to ../correct/Makefile, outside the submission: not copied";
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("r.json")).unwrap())
            .unwrap();
    assert!(
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "build_failed"),
        "{r}"
    );
    let notes: Vec<&str> = r["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes[0].starts_with(&format!("make build failed (exit status 2): {said}")),
        "{notes:?}"
    );
    assert!(
        notes[0].contains("homework.c is a link to ../correct/homework.c"),
        "{notes:?}"
    );
    assert!(stdout.contains(said), "{stdout}");
    assert!(read_page(&work.path().join("pages/segfault.html")).contains(said));
    // A link inside the submission is copied as the file it names, and says nothing.
    let sub = work.path().join("sub");
    copy_fixture("correct", &sub);
    std::fs::rename(sub.join("Makefile"), sub.join("Makefile.real")).unwrap();
    std::os::unix::fs::symlink("Makefile.real", sub.join("Makefile")).unwrap();
    let r = grade(&[sub.to_str().unwrap(), "--tests", &tests, "--no-valgrind"]);
    assert_eq!(r["points"], 100.0, "{r}");
    assert!(r["notes"].as_array().unwrap().is_empty(), "{r}");
}

#[test]
fn classroom_workflow_reports_the_points_as_the_reporter_reads_them() {
    require_tools();
    let workflow = root().join("checker/classroom/.github/workflows/classroom.yml");
    // The workflow as YAML, with python3's yaml module where it is installed.
    let parsed = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
        ])
        .arg(&workflow)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&parsed.stderr);
    let no_yaml = err.contains("No module named 'yaml'");
    assert!(
        parsed.status.success() || no_yaml,
        "the workflow is not YAML: {err}"
    );
    if !support::outside(
        "python3's yaml module (pip install pyyaml), for the workflow's YAML check",
        !no_yaml,
    ) {
        return;
    }
    let flow: Value = serde_json::from_slice(&parsed.stdout).unwrap();
    let job = &flow["jobs"]["run-autograding-tests"];
    // The reporter finds its check run by this name.
    assert_eq!(job["name"], "Autograding Tests");
    let steps = job["steps"].as_array().unwrap();
    let grade_step = steps.iter().find(|s| s["id"] == "grade").unwrap();
    let reporter = steps.last().unwrap();
    assert_eq!(
        reporter["uses"],
        "classroom-resources/autograding-grading-reporter@v1"
    );
    assert_eq!(reporter["with"]["runners"], "grade");
    assert_eq!(
        reporter["env"]["GRADE_RESULTS"],
        "${{ steps.grade.outputs.result }}"
    );
    let checkouts: Vec<&Value> = steps
        .iter()
        .filter(|s| s["uses"] == "actions/checkout@v4")
        .collect();
    assert_eq!(checkouts[0]["with"]["path"], "submission");
    assert_eq!(
        checkouts[1]["with"]["repository"],
        "${{ vars.GRADER_REPOSITORY }}"
    );

    // The grading step run here as the runner would: the course's checkout in grading/
    // (the grader built, the tests at TESTS_PATH), the student's in submission/.
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let release = dir.join("grading/target/release");
    std::fs::create_dir_all(&release).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_homework-grade"),
        release.join("homework-grade"),
    )
    .unwrap();
    let tests = six_tests();
    std::os::unix::fs::symlink(tests.path(), dir.join("grading/course-tests")).unwrap();
    copy_fixture("wrong-answer", &dir.join("submission"));
    let out = Command::new("bash")
        .args(["-e", "-c", grade_step["run"].as_str().unwrap()])
        .env("TESTS_PATH", "course-tests")
        .env("GRADE_OPTIONS", "--no-valgrind --timeout 1")
        .env("GITHUB_OUTPUT", dir.join("output"))
        .env("GITHUB_STEP_SUMMARY", dir.join("summary"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let output = std::fs::read_to_string(dir.join("output")).unwrap();
    let encoded = output.strip_prefix("result=").unwrap().trim();
    let mut decode = Command::new("base64")
        .arg("-d")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    decode
        .stdin
        .take()
        .unwrap()
        .write_all(encoded.as_bytes())
        .unwrap();
    let decoded = decode.wait_with_output().unwrap();
    let result: Value = serde_json::from_slice(&decoded.stdout).unwrap();
    let grades: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("grades.json")).unwrap()).unwrap();
    // What the reporter reads: version, status, max_score, and the tests whose scores it
    // adds up as the points.
    assert_eq!(result["version"], 1);
    assert_eq!(result["status"], "fail", "Rolling Stone's test fails");
    assert_eq!(result["max_score"], 100.0);
    let entries = result["tests"].as_array().unwrap();
    assert_eq!(entries.len(), 7, "six tests and valgrind");
    let total: f64 = entries.iter().map(|t| t["score"].as_f64().unwrap()).sum();
    assert!(
        (total - grades["points"].as_f64().unwrap()).abs() < 0.01,
        "{total} vs {grades}"
    );
    for t in entries {
        assert!(
            ["pass", "fail"].contains(&t["status"].as_str().unwrap()),
            "{t}"
        );
    }
    let failed = entries.iter().find(|t| t["status"] == "fail").unwrap();
    assert_eq!(failed["name"], "tests_rolling_stone/rollingstone1");
    assert!(
        failed["message"]
            .as_str()
            .unwrap()
            .starts_with("wrong_answer: line 1: expected"),
        "{failed}"
    );
    let summary = std::fs::read_to_string(dir.join("summary")).unwrap();
    assert!(summary.contains("82.14/100 points"), "{summary}");
}

/// Links (hard links: no copy, no access to the folders above the original) the parts of
/// the Rust toolchain running these tests that build a program (`bin`, `lib`, `libexec`,
/// `etc` of `rustc --print sysroot`) into `to`; `false` when they cannot be linked.
fn link_toolchain(to: &Path) -> bool {
    fn link(from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            let (path, target) = (entry.path(), to.join(entry.file_name()));
            let kind = entry.file_type()?;
            if kind.is_dir() {
                link(&path, &target)?;
            } else if kind.is_symlink() {
                std::os::unix::fs::symlink(std::fs::read_link(&path)?, &target)?;
            } else {
                std::fs::hard_link(&path, &target)?;
            }
        }
        Ok(())
    }
    let out = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .unwrap();
    let sysroot = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    ["bin", "lib", "libexec", "etc"]
        .iter()
        .filter(|d| sysroot.join(d).is_dir())
        .all(|d| link(&sysroot.join(d), &to.join(d)).is_ok())
}

#[test]
fn a_cargo_submission_builds_in_the_sandbox_with_its_toolchain_bound() {
    use std::os::unix::fs::PermissionsExt;
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let toolchain = dir.join("rust");
    if !support::outside(
        "a Rust toolchain that can be hard-linked into a temporary folder",
        link_toolchain(&toolchain),
    ) {
        return;
    }
    // A homework written in Rust: a cargo project, no dependencies, built offline; it
    // writes `in` upper-cased to `out`.
    let sub = dir.join("rusty");
    std::fs::create_dir_all(sub.join("src")).unwrap();
    std::fs::write(
        sub.join("Cargo.toml"),
        "[package]\nname = \"rusty\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    )
    .unwrap();
    std::fs::write(
        sub.join("src/main.rs"),
        "fn main() {\n    let text = std::fs::read_to_string(\"in\").unwrap();\n    std::fs::write(\"out\", text.to_uppercase()).unwrap();\n}\n",
    )
    .unwrap();
    std::fs::write(
        sub.join("Makefile"),
        "build:\n\tcargo build --release --offline --quiet\nrun:\n\t./target/release/rusty\nclean:\n\trm -rf target Cargo.lock\n",
    )
    .unwrap();
    let tests = dir.join("tests");
    std::fs::create_dir_all(tests.join("tests_upper")).unwrap();
    std::fs::write(tests.join("tests_upper/upper1.in"), "rolling stone\n").unwrap();
    std::fs::write(tests.join("tests_upper/upper1.ref"), "ROLLING STONE\n").unwrap();
    let tests = tests.display().to_string();
    let grade_rust = |extra: &[&str]| -> Value {
        let mut args = vec![
            sub.to_str().unwrap(),
            "--tests",
            &tests,
            "--no-valgrind",
            "--json",
            "r.json",
        ];
        args.extend(extra);
        let (code, out, err) = grader_in(dir, &args);
        assert_eq!(code, Some(0), "{out}{err}");
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap()
    };
    // Without the toolchain: build_failed, and when the grader's own cargo lies outside the
    // system's folders (rustup's ~/.cargo/bin), the note names it and the option.
    let r = grade_rust(&[]);
    assert_eq!(r["tests"][0]["status"], "build_failed", "{r}");
    let note = r["notes"][0].as_str().unwrap();
    assert!(note.contains("cargo: No such file or directory"), "{note}");
    let which = Command::new("sh")
        .args(["-c", "command -v cargo"])
        .output()
        .unwrap();
    let cargo = String::from_utf8_lossy(&which.stdout).trim().to_owned();
    if !["/usr/", "/bin/"].iter().any(|d| cargo.starts_with(d)) {
        assert!(
            note.contains(&format!("cargo was not found in the sandbox, which shows only the system's folders (/usr, /bin, /etc); it is {cargo} here: let it in with --sandbox-bind")),
            "{note}"
        );
    }
    // With it: built by cargo in the sandbox, full points, and `make clean` removes what
    // the build made (target/, Cargo.lock).
    let r = grade_rust(&["--sandbox-bind", toolchain.to_str().unwrap()]);
    assert_eq!(r["points"], 100.0, "{r}");
    assert_eq!(r["sandbox"], "bubblewrap");
    assert_eq!(r["clean"], true, "{r}");
}
