//! `homework-grade`: grades homework submissions (a directory with a Makefile
//! whose `build`, `run` and `clean` rules follow `docs/rules/homework.md` §7, §9) the way
//! the original checker does, in a temporary copy with time and memory limits,
//! and measures the statement's deductions (valgrind, README, `make clean`)
//! apart from the test points. Every command of a submission runs in a
//! bubblewrap sandbox unless `--no-sandbox` or `--in-place` says the code is
//! trusted. See `docs/grading.md`.

mod export;
mod grade;
mod html;
mod runner;
mod text;
mod valgrind;

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cardgames::child::{self, OutputError};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use grade::{Options, Private, Report, Shard, Status, TestCase, TestResult};
use runner::{Limits, Sandbox};
use text::shown;

/// Grades homework submissions with the checker's workflow: `make build` once,
/// then per test `cp X.in in; rm -f out; make run; diff -w out X.ref`, each
/// command in a temporary copy of the submission, in its own process group,
/// killed at its time limit. Points: 4 per shuffle test, 5 per game test,
/// scaled to 100. Deductions reported apart: valgrind (1 point per test with
/// memory errors or definite/indirect leaks, at most 5), README present,
/// `make clean` removing what `make build` made. Every command of a
/// submission runs in a bubblewrap sandbox (see docs/grading.md): it sees its
/// copy and the system, not the tests, the other submissions or the network.
#[derive(Debug, Parser)]
#[command(
    name = "homework-grade",
    version,
    after_help = "Sharded runs (--all DIR --shard K/N) are joined with\n  \
                  homework-grade merge SHARD.json... --json OUT.json [--html DIR]\n\
                  (homework-grade merge --help; docs/grading.md)."
)]
struct Args {
    /// The submission directory (with its Makefile).
    #[arg(required_unless_present_any = ["all", "from_json"], conflicts_with = "all")]
    submission: Option<PathBuf>,
    /// Grade every directory inside DIR, each as one submission (hidden ones,
    /// whose names start with '.', such as .git, are skipped).
    #[arg(long, value_name = "DIR")]
    all: Option<PathBuf>,
    /// Submissions graded at the same time (with --all).
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
    /// The tests: a directory in the original layout (X.in and X.ref files, shuffle tests under tests_amestecare).
    #[arg(long, value_name = "DIR", default_value = "checker/tests")]
    tests: PathBuf,
    /// Time limit of one `make run`, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    timeout: f64,
    /// Time limit of `make build` and of `make clean`, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 300.0)]
    build_timeout: f64,
    /// Time limit of one `make run` under valgrind, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    valgrind_timeout: f64,
    /// Virtual memory per process of `make run`, in MiB (ulimit -v); 0 for none.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    memory: u64,
    /// Virtual memory per process of `make build` and `make clean`, in MiB; 0 for none.
    #[arg(long, value_name = "MIB", default_value_t = 0)]
    build_memory: u64,
    /// Largest file one `make run` may write, in MiB (ulimit -f); 0 for none.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    file_size: u64,
    /// Largest file `make build` and `make clean` may write, in MiB (ulimit -f); 0 for none.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    build_file_size: u64,
    /// Skip the valgrind measurement.
    #[arg(long)]
    no_valgrind: bool,
    /// Skip the `make clean` check (it may delete a shared CARGO_TARGET_DIR).
    #[arg(long)]
    no_clean: bool,
    /// Top-level names of a submission not copied (repeatable).
    #[arg(long, value_name = "NAME", default_values = [".git", "target"])]
    exclude: Vec<String>,
    /// Directory for the temporary copies (default: the system's).
    #[arg(long, value_name = "DIR")]
    work_dir: Option<PathBuf>,
    /// Grade the submission directory itself, not a copy, and skip the
    /// `make clean` check: for trusted code only, such as your own project
    /// (its build stays incremental). Never sandboxed.
    #[arg(long, conflicts_with = "all")]
    in_place: bool,
    /// Run the submissions' commands unconfined, as the grading user, with
    /// its files and network: for trusted code only.
    #[arg(long)]
    no_sandbox: bool,
    /// A folder of this machine shown read-only in the sandbox at the same
    /// path (repeatable): a course's toolchain outside the system's folders
    /// (~/.cargo, ~/.rustup, /opt/...). Its `bin` folder goes first on the
    /// sandbox's PATH.
    #[arg(long, value_name = "DIR")]
    sandbox_bind: Vec<PathBuf>,
    /// A variable set in the sandbox (repeatable): NAME takes the grader's
    /// own value (PATH, RUSTUP_HOME, CARGO_HOME), NAME=VALUE this value.
    #[arg(long, value_name = "NAME[=VALUE]")]
    sandbox_env: Vec<String>,
    /// Processes (and threads) one sandboxed command may have at once.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(8..))]
    processes: u64,
    /// Disk one sandboxed command may fill, the copy and its /tmp together,
    /// in MiB; 0 for no limit.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    disk: u64,
    /// With --all: keep the submissions the JSON file (--json, grades.json)
    /// already holds whose fingerprint (their files, the tests, the options)
    /// is unchanged, and grade only the others (missing, changed, cut short).
    // `conflicts_with` too: clap lets a missing `--all` pass when SUBMISSION is given (as
    // for --shard).
    #[arg(long, requires = "all", conflicts_with = "submission")]
    resume: bool,
    /// Exit with status 1 when a submission's points less its valgrind
    /// deduction are below POINTS.
    #[arg(long, value_name = "POINTS")]
    fail_under: Option<f64>,
    /// Write the result as JSON (one object; an array with --all).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write one CSV row per submission.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write a JUnit XML report (CI test reporters: GitLab, Jenkins): a
    /// testsuite per submission, a testcase per test, a failure with the
    /// status and first difference per failed test.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Also write Gradescope's autograder results.json of the submission
    /// (one submission only): a test entry per test, the deductions as
    /// entries of their own; see checker/gradescope/ and docs/grading.md.
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    gradescope: Option<PathBuf>,
    /// Also write the result as a GitHub Classroom autograding runner gives it
    /// (one submission only; base64 it into the step's `result` output for
    /// autograding-grading-reporter): see checker/classroom/.
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    classroom: Option<PathBuf>,
    /// Who sees the Gradescope test entries (after_published for hidden tests).
    #[arg(long, value_enum, default_value = "visible", requires = "gradescope")]
    visibility: export::Visibility,
    /// A note added to every submission's result (its notes, the Gradescope
    /// output): how it was graded, say (repeatable).
    #[arg(long, value_name = "TEXT")]
    note: Vec<String>,
    /// Also write HTML pages into DIR: one per submission (DIR/NAME.html)
    /// and, with --all, the course page DIR/index.html; see docs/grading.md.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Grade nothing: write the --html pages from a saved --json result (an
    /// object for one submission, an array for a course). --tests names the
    /// tests whose .debug traces the pages link.
    #[arg(long, value_name = "FILE", requires = "html", conflicts_with_all = ["submission", "all", "shard"])]
    from_json: Option<PathBuf>,
    /// With --all: grade shard K of N only (K from 1), the submissions whose
    /// place in name order is K-1 modulo N; join the shards' JSON with
    /// `homework-grade merge`. Default outputs grades-K-of-N.json and .csv.
    // `conflicts_with` as well: clap lets a missing `--all` pass when SUBMISSION (which
    // conflicts with it) is given, so `SUB --shard 1/2` was silently unsharded.
    #[arg(long, value_name = "K/N", requires = "all", conflicts_with = "submission", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected K/N with 1 <= K <= N (such as 2/3), got {text:?}");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Joins the JSON of a sharded run's shards (`homework-grade --all DIR
/// --shard K/N --json shard-K.json`, one per K) into the result one
/// unsharded run gives: the same array in the same order (by submission
/// name), without the shards' `shard` fields. Checks that every shard 1..N
/// of one run is there once and that no submission is graded twice. Files
/// without `shard` fields (unsharded runs) are joined as they are.
#[derive(Debug, Parser)]
#[command(name = "homework-grade merge", version)]
struct MergeArgs {
    /// The shards' JSON files (each an array, as --all writes it).
    #[arg(required = true, value_name = "SHARD.json")]
    shards: Vec<PathBuf>,
    /// Where to write the merged JSON.
    #[arg(long, value_name = "FILE", required = true)]
    json: PathBuf,
    /// Also write one CSV row per submission.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write the HTML pages (course page and one per submission) into DIR.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// The tests whose .debug traces the HTML pages link.
    #[arg(long, value_name = "DIR", default_value = "checker/tests")]
    tests: PathBuf,
}

/// The longest limit a time option takes: a week (beyond it a deadline could overflow the
/// clock; the sweep of 2026-11-27 found `--timeout 1e19` panicking).
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// The largest size a MiB option takes (2^30 MiB, a pebibyte): its bytes must fit the
/// kernel's limits (`2^44` MiB and more wrapped to a limit of 0 bytes).
const MAX_MIB: u64 = 1 << 30;

fn seconds(s: f64, what: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero() && s <= MAX_SECONDS)
        .ok_or_else(|| {
            format!("--{what} must be a positive number of seconds up to {MAX_SECONDS} (a week), got {s}")
        })
}

/// A size option in MiB: `None` for 0 (no limit).
fn mib(n: u64, what: &str) -> Result<Option<u64>, String> {
    if n > MAX_MIB {
        return Err(format!("--{what} takes at most {MAX_MIB} MiB, got {n}"));
    }
    Ok((n > 0).then_some(n))
}

fn options(args: &Args) -> Result<Options, String> {
    let valgrind_runs = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !args.no_valgrind && !valgrind_runs {
        return Err("valgrind is not installed: install it, or pass --no-valgrind".to_owned());
    }
    let tests = grade::discover_tests(&args.tests)?;
    let sandbox = if args.no_sandbox || args.in_place {
        None
    } else {
        let disk = mib(args.disk, "disk")?;
        let mut sandbox = Sandbox::for_this_user(args.processes, disk.map(|m| m << 20));
        for dir in &args.sandbox_bind {
            let dir = std::path::absolute(dir)
                .map_err(|e| format!("--sandbox-bind {}: {e}", dir.display()))?;
            sandbox.check_bind(&dir)?;
            sandbox.binds.push(dir);
        }
        for item in &args.sandbox_env {
            let (name, value) = match item.split_once('=') {
                Some((name, value)) => (name.to_owned(), value.to_owned()),
                None => (
                    item.clone(),
                    std::env::var(item).map_err(|_| {
                        format!("--sandbox-env {item}: the grader has no such variable (NAME=VALUE sets one)")
                    })?,
                ),
            };
            if name.is_empty() || name.contains('\0') {
                return Err(format!("--sandbox-env {item:?}: not a variable's name"));
            }
            sandbox.env.push((name, value));
        }
        sandbox.probe(args.work_dir.as_deref())?;
        Some(sandbox)
    };
    if sandbox.is_none() && !(args.sandbox_bind.is_empty() && args.sandbox_env.is_empty()) {
        return Err(
            "--sandbox-bind and --sandbox-env need the sandbox (not --no-sandbox or --in-place)"
                .to_owned(),
        );
    }
    Ok(Options {
        tests,
        run: Limits {
            time: seconds(args.timeout, "timeout")?,
            memory_mib: mib(args.memory, "memory")?,
            file_mib: mib(args.file_size, "file-size")?,
        },
        build: Limits {
            time: seconds(args.build_timeout, "build-timeout")?,
            memory_mib: mib(args.build_memory, "build-memory")?,
            file_mib: mib(args.build_file_size, "build-file-size")?,
        },
        valgrind: if args.no_valgrind {
            None
        } else {
            Some(seconds(args.valgrind_timeout, "valgrind-timeout")?)
        },
        clean: !args.no_clean,
        exclude: args.exclude.clone(),
        work_dir: args.work_dir.clone(),
        in_place: args.in_place,
        sandbox,
        private: Private {
            tests: fs::canonicalize(&args.tests).ok(),
            all: args.all.as_deref().and_then(|d| fs::canonicalize(d).ok()),
        },
    })
}

/// The report's line on confinement.
fn sandbox_line(args: &Args) -> &'static str {
    if args.in_place {
        "sandbox: none (--in-place: trusted code, run unconfined)"
    } else if args.no_sandbox {
        "sandbox: none (--no-sandbox: trusted code, run unconfined)"
    } else {
        "sandbox: bubblewrap"
    }
}

fn yes_no(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    }
}

fn statuses(report: &Report) -> String {
    let parts: Vec<String> = Status::ALL
        .iter()
        .filter_map(|&s| {
            let n = report.count(s);
            (n > 0).then(|| format!("{} {n}", s.name()))
        })
        .collect();
    parts.join(", ")
}

fn deduction(report: &Report) -> String {
    report
        .valgrind
        .as_ref()
        .map_or("-".to_owned(), |v| match v.deduction {
            0 => "0".to_owned(),
            d => format!("-{d} ({} tests)", v.tests_with_errors),
        })
}

/// Under a test's line: where its `out` first differs from the reference,
/// and valgrind's first error with its stack.
fn print_details(t: &TestResult) {
    for line in text::details(t) {
        println!("{line}");
    }
}

fn print_one(report: &Report) {
    for t in &report.tests {
        let status = text::outcome(t);
        println!(
            "{:<44} {:>6.2}  {:<22} {:>6.2} s",
            shown(&t.name),
            t.points,
            status,
            t.seconds
        );
        print_details(t);
    }
    for note in &report.notes {
        println!("note: {}", shown(note));
    }
    println!(
        "{}: {:.2}/{:.0} points ({}); valgrind deduction {}; README {}; make clean {}",
        shown(&report.submission),
        report.points,
        report.max_points,
        statuses(report),
        deduction(report),
        yes_no(Some(report.readme)),
        yes_no(report.clean),
    );
}

fn print_table(reports: &[Report]) {
    let width = reports
        .iter()
        .map(|r| r.submission.len())
        .max()
        .unwrap_or(10)
        .max(10);
    println!(
        "{:<width$}  {:>7}  {:>14}  {:>6}  {:>5}  statuses",
        "submission", "points", "valgrind", "README", "clean"
    );
    for r in reports {
        println!(
            "{:<width$}  {:>7.2}  {:>14}  {:>6}  {:>5}  {}{}",
            shown(&r.submission),
            r.points,
            deduction(r),
            yes_no(Some(r.readme)),
            yes_no(r.clean),
            statuses(r),
            if r.partial { " (partial)" } else { "" }
        );
    }
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The CSV of `reports`, one row each. When a grading was interrupted (a
/// report is [`Report::partial`]) a last column `partial` says which rows
/// are incomplete; a finished run's CSV has no such column.
fn csv(reports: &[Report]) -> String {
    let partial = reports.iter().any(|r| r.partial);
    let mut text = String::from(
        "submission,points,max_points,valgrind_tests_with_errors,valgrind_deduction,readme,clean",
    );
    for s in Status::ALL {
        text += ",";
        text += s.name();
    }
    if partial {
        text += ",partial";
    }
    text += "\n";
    for r in reports {
        let (bad, cut) = r
            .valgrind
            .as_ref()
            .map_or((String::new(), String::new()), |v| {
                (v.tests_with_errors.to_string(), v.deduction.to_string())
            });
        let clean = r.clean.map_or(String::new(), |c| c.to_string());
        text += &format!(
            "{},{:.2},{:.0},{bad},{cut},{},{clean}",
            csv_field(&r.submission),
            r.points,
            r.max_points,
            r.readme
        );
        for s in Status::ALL {
            text += &format!(",{}", r.count(s));
        }
        if partial {
            text += &format!(",{}", r.partial);
        }
        text += "\n";
    }
    text
}

/// Writes `text` to `path` atomically: into a temporary file beside it,
/// then renamed over it, so a crash or a full disk never leaves half a file
/// (the file keeps its permissions; a new one is 0644). A path that is not
/// a regular file (`/dev/stdout`) is written directly.
fn write(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let existing = fs::metadata(path).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return fs::write(path, text).map_err(fail);
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut file = tempfile::Builder::new()
        .prefix(".homework-grade-")
        .tempfile_in(dir)
        .map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    let mode = existing.map_or(0o644, |m| m.permissions().mode());
    fs::set_permissions(file.path(), fs::Permissions::from_mode(mode)).map_err(fail)?;
    file.as_file().sync_all().map_err(fail)?;
    file.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The JSON of `reports` as `--json` writes it (an array with `--all`).
fn json_text<T: serde::Serialize + ?Sized>(reports: &T) -> Result<String, String> {
    serde_json::to_string_pretty(reports)
        .map(|j| j + "\n")
        .map_err(|e| e.to_string())
}

/// What `--resume` keeps of a previous run's JSON `path`: for each of `dirs`,
/// its finished result when the fingerprint of its files, the tests and the
/// options is unchanged. Says on stdout how many are kept.
///
/// # Errors
/// A message when `path` exists but is not an `--all` result.
fn resume_from(
    path: &Path,
    dirs: &[PathBuf],
    options: &Options,
) -> Result<Vec<Option<Report>>, String> {
    let mut kept = vec![None; dirs.len()];
    if !path.exists() {
        println!(
            "resume: no {} yet: grading every submission",
            path.display()
        );
        return Ok(kept);
    }
    let (reports, course) = read_reports(path)?;
    if !course {
        return Err(format!(
            "{} holds one submission, not the array of an --all run: cannot resume from it",
            path.display()
        ));
    }
    let mut stored: std::collections::HashMap<String, Report> = reports
        .into_iter()
        .filter(|r| !r.partial && r.fingerprint.is_some())
        .map(|r| (r.submission.clone(), r))
        .collect();
    for (dir, slot) in dirs.iter().zip(&mut kept) {
        let Some(report) = stored.remove(&dir.display().to_string()) else {
            continue;
        };
        if grade::fingerprint(dir, options).ok() == report.fingerprint {
            *slot = Some(report);
        }
    }
    let n = kept.iter().flatten().count();
    println!(
        "resume: {n} of {} submissions kept from {} (files, tests and options unchanged), {} to grade",
        dirs.len(),
        path.display(),
        dirs.len() - n
    );
    Ok(kept)
}

/// `report` with the `--note` texts added to its notes.
fn with_notes(mut report: Report, notes: &[String]) -> Report {
    report.notes.extend(notes.iter().cloned());
    report
}

/// The submissions of `--all DIR`: its directories (or links to them) in name
/// order, hidden ones (`.git`, `.cache`: a name starting with '.') left out.
fn submissions(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .filter(|e| !e.file_name().as_encoded_bytes().starts_with(b"."))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(format!("no submission directories in {}", dir.display()));
    }
    Ok(found)
}

/// The submissions below `--fail-under`, as one message.
fn below(reports: &[Report], threshold: Option<f64>) -> Option<String> {
    let threshold = threshold?;
    let low: Vec<String> = reports
        .iter()
        .filter_map(|r| {
            let net = r.points - r.valgrind.as_ref().map_or(0.0, |v| f64::from(v.deduction));
            (net < threshold).then(|| format!("{} ({net:.2})", r.submission))
        })
        .collect();
    (!low.is_empty()).then(|| format!("below {threshold} points: {}", low.join(", ")))
}

/// Reads a result the grader wrote with `--json`: an array (a course, `true`)
/// or one object.
fn read_reports(path: &Path) -> Result<(Vec<Report>, bool), String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let course = value.is_array();
    let reports = if course {
        serde_json::from_value(value)
    } else {
        serde_json::from_value(value).map(|r| vec![r])
    }
    .map_err(|e| {
        format!(
            "{} is not a result of homework-grade --json: {e}",
            path.display()
        )
    })?;
    Ok((reports, course))
}

/// The tests whose traces the pages link, when `dir` holds tests; a note
/// on stderr otherwise (the pages are written without trace links).
fn tests_for_traces(dir: &Path) -> Vec<TestCase> {
    grade::discover_tests(dir).unwrap_or_else(|e| {
        cardgames::diag!("homework-grade: no .debug traces linked ({e})");
        Vec::new()
    })
}

/// Writes the pages and says where.
fn write_html(
    dir: &Path,
    reports: &[Report],
    course: bool,
    tests: &[TestCase],
) -> Result<(), String> {
    let written = html::write(dir, reports, course, tests)?;
    let main = written
        .course
        .as_ref()
        .or(written.submissions.first())
        .map_or(dir.display().to_string(), |p| p.display().to_string());
    println!(
        "html: {main} ({} submission pages, {} traces in {})",
        written.submissions.len(),
        written.traces,
        dir.display()
    );
    Ok(())
}

/// `homework-grade merge`: joins shards (see [`MergeArgs`]).
fn merge(args: &MergeArgs) -> Result<(), String> {
    let mut all: Vec<Report> = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    let mut seen_shards = vec![];
    for path in &args.shards {
        let (reports, course) = read_reports(path)?;
        if !course {
            return Err(format!(
                "{} holds one submission, not the array of an --all run",
                path.display()
            ));
        }
        if reports.iter().any(|r| r.partial) {
            return Err(format!(
                "{} is the result of an interrupted run (partial): grade its shard again",
                path.display()
            ));
        }
        let shards: Vec<Option<Shard>> = reports.iter().map(|r| r.shard).collect();
        if let Some(first) = shards.iter().flatten().next() {
            if shards.iter().any(|s| s.as_ref() != Some(first)) {
                return Err(format!(
                    "{}: its submissions come from different shards",
                    path.display()
                ));
            }
            let this = (first.count, first.submissions);
            if run.is_some_and(|r| r != this) {
                return Err(format!(
                    "{} is shard {}/{} of a run of {} submissions, unlike the files before it",
                    path.display(),
                    first.index,
                    first.count,
                    first.submissions
                ));
            }
            run = Some(this);
            if seen_shards.contains(&first.index) {
                return Err(format!(
                    "shard {}/{} is given twice ({})",
                    first.index,
                    first.count,
                    path.display()
                ));
            }
            seen_shards.push(first.index);
        }
        all.extend(reports);
    }
    if let Some((count, submissions)) = run {
        if all.iter().any(|r| r.shard.is_none()) {
            return Err("some files come from sharded runs and some not".to_owned());
        }
        let missing: Vec<String> = (1..=count)
            .filter(|k| !seen_shards.contains(k))
            .map(|k| format!("{k}/{count}"))
            .collect();
        // An empty shard (more shards than submissions) has no report to
        // carry its number: only the count of submissions can tell.
        if all.len() != submissions {
            return Err(format!(
                "the shards hold {} submissions, the run had {submissions}{}",
                all.len(),
                if missing.is_empty() {
                    String::new()
                } else {
                    format!(" (missing: {})", missing.join(", "))
                }
            ));
        }
    }
    // The unsharded run's order: by name within the graded directory.
    all.sort_by(|a, b| {
        let name = |r: &Report| Path::new(&r.submission).file_name().map(|n| n.to_owned());
        name(a)
            .cmp(&name(b))
            .then_with(|| a.submission.cmp(&b.submission))
    });
    for pair in all.windows(2) {
        if pair[0].submission == pair[1].submission {
            return Err(format!(
                "{} is graded in more than one file",
                pair[0].submission
            ));
        }
    }
    for r in &mut all {
        r.shard = None;
    }
    print_table(&all);
    write(&args.json, &json_text(&all)?)?;
    let mut written = vec![args.json.display().to_string()];
    if let Some(path) = &args.csv {
        write(path, &csv(&all))?;
        written.push(path.display().to_string());
    }
    println!(
        "merged {} files: {} submissions; written: {}",
        args.shards.len(),
        all.len(),
        written.join(" ")
    );
    if let Some(dir) = &args.html {
        write_html(dir, &all, true, &tests_for_traces(&args.tests))?;
    }
    Ok(())
}

/// The JSON and CSV files a grading writes: `--json` and `--csv` as given,
/// and with `--all` the defaults for those not given (`grades.json` and
/// `grades.csv`, `grades-K-of-N.*` for a shard); none from `--from-json`.
fn output_files(args: &Args) -> (Option<PathBuf>, Option<PathBuf>) {
    if args.from_json.is_some() {
        return (None, None);
    }
    if args.all.is_none() {
        return (args.json.clone(), args.csv.clone());
    }
    let stem = match args.shard {
        Some((k, n)) => format!("grades-{k}-of-{n}"),
        None => "grades".to_owned(),
    };
    (
        Some(
            args.json
                .clone()
                .unwrap_or_else(|| format!("{stem}.json").into()),
        ),
        Some(
            args.csv
                .clone()
                .unwrap_or_else(|| format!("{stem}.csv").into()),
        ),
    )
}

/// Checks, before any work, that a run's outputs can be written: the `files`
/// (flag and path; [`cardgames::child::check_outputs`]) and the folder of the
/// `--html` pages, which is created when missing, so its nearest existing
/// ancestor must be a folder that takes a file, and which must not be one of
/// the files.
///
/// # Errors
/// Why not, with its exit status ([`OutputError::status`]: 2 when two flags
/// name one path, a usage error).
fn check_outputs(files: &[(&str, Option<&Path>)], html: Option<&Path>) -> Result<(), OutputError> {
    cardgames::child::check_outputs(files)?;
    let Some(dir) = html else {
        return Ok(());
    };
    let same = |p: &Path| std::path::absolute(p).ok() == std::path::absolute(dir).ok();
    if let Some((flag, _)) = files.iter().find(|(_, p)| p.is_some_and(same)) {
        return Err(OutputError {
            message: format!("{flag} and --html name the same path {}", dir.display()),
            same_file: true,
        });
    }
    let mut existing = dir.to_path_buf();
    while !existing.as_os_str().is_empty() && fs::symlink_metadata(&existing).is_err() {
        existing = existing.parent().map(Path::to_path_buf).unwrap_or_default();
    }
    if existing.as_os_str().is_empty() {
        existing = PathBuf::from(".");
    }
    let cannot = |why: String| OutputError {
        message: format!("cannot write the pages into {}: {why}", dir.display()),
        same_file: false,
    };
    if !existing.is_dir() {
        return Err(cannot(format!("{} is not a folder", existing.display())));
    }
    tempfile::tempfile_in(&existing).map_err(|e| cannot(e.to_string()))?;
    Ok(())
}

/// Grades as asked; `Ok(false)` when a submission is below `--fail-under`.
/// Once interrupted (Ctrl-C, SIGTERM) it stops grading, writes and prints
/// what finished (marked partial), then returns the error `interrupted`.
fn main_result(args: &Args) -> Result<bool, String> {
    if let Some(path) = &args.from_json {
        let (reports, course) = read_reports(path)?;
        let dir = args.html.as_deref().unwrap_or(Path::new("."));
        write_html(dir, &reports, course, &tests_for_traces(&args.tests))?;
        return Ok(true);
    }
    // A wrong path is reported before the sandbox is even tried.
    if let Some(dir) = args.submission.as_ref().filter(|d| !d.is_dir()) {
        return Err(format!("no submission directory {}", dir.display()));
    }
    // From now on the first SIGINT or SIGTERM kills the running command and
    // stops the grading, which unwinds (its temporary copies removed) to
    // write what finished; a second one exits at once.
    child::install_interrupt()?;
    let options = options(args).map_err(|e| {
        if child::interrupted() {
            "interrupted".to_owned()
        } else {
            e
        }
    })?;
    let start = Instant::now();
    let (json_path, csv_path) = output_files(args);
    if let Some(dir) = &args.all {
        let mut dirs = submissions(dir)?;
        let total = dirs.len();
        if let Some((k, n)) = args.shard {
            dirs = dirs
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % n == k - 1)
                .map(|(_, d)| d)
                .collect();
        }
        let Some(json_path) = json_path else {
            return Err("--all names no JSON file".to_owned());
        };
        let kept = if args.resume {
            resume_from(&json_path, &dirs, &options)?
        } else {
            vec![None; dirs.len()]
        };
        let todo: Vec<usize> = (0..dirs.len()).filter(|&i| kept[i].is_none()).collect();
        // At most -j commands at once; more submissions in flight than that,
        // so a hung test holds one slot while the others keep the rest busy.
        let jobs = usize::from(args.jobs);
        runner::limit_parallel(jobs);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads((4 * jobs).min(todo.len()).max(1))
            .build()
            .map_err(|e| format!("cannot start {} threads: {e}", 4 * jobs))?;
        let bar = ProgressBar::new(todo.len() as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} submissions, {elapsed} {msg}")
                .map_err(|e| e.to_string())?,
        );
        let shard = args.shard.map(|(index, count)| Shard {
            index,
            count,
            submissions: total,
        });
        // The finished submissions, kept in the JSON file as they finish (in name order,
        // written atomically), so an interrupted run can be resumed; a failed write is
        // said once, and the final write says it again.
        let finished = std::sync::Mutex::new((kept.clone(), false));
        let keep = |i: usize, report: &Report| {
            let mut guard = finished
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (done, warned) = &mut *guard;
            done[i] = Some(report.clone());
            let so_far: Vec<&Report> = done.iter().flatten().collect();
            if let Err(e) = json_text(&so_far).and_then(|j| write(&json_path, &j)) {
                if !*warned {
                    bar.suspend(|| cardgames::diag!("homework-grade: {e}"));
                    *warned = true;
                }
            }
        };
        // `None`: not started, as the run was interrupted before.
        let graded: Vec<Option<Result<Report, String>>> = pool.install(|| {
            todo.par_iter()
                .with_max_len(1)
                .map(|&i| {
                    let d = &dirs[i];
                    if child::interrupted() {
                        return None;
                    }
                    let r = grade::grade(d, &options)
                        .map(|r| with_notes(Report { shard, ..r }, &args.note))
                        .map_err(|e| format!("{}: {e}", d.display()));
                    if let Some(report) = r.as_ref().ok().filter(|r| !r.partial) {
                        keep(i, report);
                    }
                    bar.inc(1);
                    Some(r)
                })
                .collect()
        });
        let mut results: Vec<Option<Result<Report, String>>> =
            kept.into_iter().map(|k| k.map(Ok)).collect();
        for (&i, r) in todo.iter().zip(graded) {
            results[i] = r;
        }
        bar.finish_and_clear();
        let interrupted = child::interrupted();
        let mut reports = Vec::new();
        let (mut failed, mut not_started) = (0, 0);
        for r in results {
            match r {
                Some(Ok(report)) => reports.push(report),
                Some(Err(e)) => {
                    failed += 1;
                    cardgames::diag!("homework-grade: {e}");
                }
                None => not_started += 1,
            }
        }
        if interrupted {
            let cut = reports.iter().filter(|r| r.partial).count();
            println!(
                "interrupted: {} of {} submissions graded, {cut} cut short (marked partial), \
                 {not_started} not started",
                reports.len() - cut,
                dirs.len()
            );
        }
        print_table(&reports);
        println!("{}", sandbox_line(args));
        let build: f64 = reports.iter().map(|r| r.build_seconds).sum();
        let tests = reports.iter().flat_map(|r| &r.tests);
        let test_seconds: f64 = tests.clone().map(|t| t.seconds).sum();
        let hung: Vec<f64> = tests
            .filter(|t| t.status == Status::TimedOut)
            .map(|t| t.seconds)
            .collect();
        println!(
            "{} submissions {} in {:.1} s with -j {} (commands: make build + clean {build:.1} s, \
             make run {test_seconds:.1} s of which {} timed out costing {:.1} s)",
            reports.len(),
            if interrupted { "reported" } else { "graded" },
            start.elapsed().as_secs_f64(),
            args.jobs,
            hung.len(),
            hung.iter().sum::<f64>() + 0.0,
        );
        let Some(csv_path) = csv_path else {
            return Err("--all names no CSV file".to_owned());
        };
        write(&json_path, &json_text(&reports)?)?;
        write(&csv_path, &csv(&reports))?;
        println!("written: {} {}", json_path.display(), csv_path.display());
        if let Some((k, n)) = args.shard {
            println!("shard {k}/{n}: {} of {total} submissions", dirs.len());
        }
        if let Some(path) = &args.junit {
            write(path, &export::junit(&reports)?)?;
            println!("junit: {}", path.display());
        }
        if let Some(html) = &args.html {
            write_html(html, &reports, true, &options.tests)?;
        }
        if interrupted {
            return Err("interrupted".to_owned());
        }
        if failed > 0 {
            return Err(format!("{failed} submissions could not be graded"));
        }
    } else if let Some(dir) = &args.submission {
        let report = with_notes(grade::grade(dir, &options)?, &args.note);
        if child::interrupted() {
            println!(
                "interrupted: {} of {} tests ran, reported below (partial)",
                report.tests.len(),
                options.tests.len()
            );
        }
        print_one(&report);
        println!("{}", sandbox_line(args));
        println!("graded in {:.1} s", start.elapsed().as_secs_f64());
        if let Some(path) = &json_path {
            write(path, &json_text(&report)?)?;
        }
        if let Some(path) = &csv_path {
            write(path, &csv(std::slice::from_ref(&report)))?;
        }
        if let Some(path) = &args.junit {
            write(path, &export::junit(std::slice::from_ref(&report))?)?;
        }
        if let Some(path) = &args.classroom {
            write(path, &export::classroom(&report)?)?;
        }
        if let Some(path) = &args.gradescope {
            let results = export::gradescope(
                &report,
                &options.tests,
                args.visibility,
                start.elapsed().as_secs_f64(),
            )?;
            write(path, &results)?;
        }
        if let Some(html) = &args.html {
            write_html(html, std::slice::from_ref(&report), false, &options.tests)?;
        }
        if child::interrupted() {
            return Err("interrupted".to_owned());
        }
        if let Some(message) = below(std::slice::from_ref(&report), args.fail_under) {
            cardgames::diag!("homework-grade: {message}");
            return Ok(false);
        }
    }
    Ok(true)
}

/// An output that cannot be written, found before any work: exit status 2
/// when two flags name one path (a usage error), else 1.
fn output_error(e: &OutputError) -> ExitCode {
    cardgames::diag!("homework-grade: {e}");
    ExitCode::from(e.status())
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    if argv.get(1).is_some_and(|a| a == "merge") {
        let args = cardgames::child::parse_args_from::<MergeArgs, _, _>(
            std::iter::once(OsString::from("homework-grade merge"))
                .chain(argv[2..].iter().cloned()),
        );
        let files = [
            ("--json", Some(args.json.as_path())),
            ("--csv", args.csv.as_deref()),
        ];
        if let Err(e) = check_outputs(&files, args.html.as_deref()) {
            cardgames::diag!("homework-grade merge: {e}");
            return ExitCode::from(e.status());
        }
        return match merge(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                cardgames::diag!("homework-grade merge: {message}");
                ExitCode::from(2)
            }
        };
    }
    let args = cardgames::child::parse_args::<Args>();
    let (json, csv) = output_files(&args);
    let files = [
        ("--json", json.as_deref()),
        ("--csv", csv.as_deref()),
        ("--junit", args.junit.as_deref()),
        ("--gradescope", args.gradescope.as_deref()),
        ("--classroom", args.classroom.as_deref()),
    ];
    if let Err(e) = check_outputs(&files, args.html.as_deref()) {
        return output_error(&e);
    }
    match main_result(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            cardgames::diag!("homework-grade: {message}");
            if child::interrupted() {
                ExitCode::from(130)
            } else {
                ExitCode::from(2)
            }
        }
    }
}
