//! `homework-grade`: grades homework submissions (a directory with a Makefile
//! whose `build`, `run` and `clean` rules follow `docs/rules/homework.md` §7, §9) the way
//! the original checker does, in a temporary copy with time and memory limits,
//! and measures the statement's deductions (valgrind, README, `make clean`)
//! apart from the test points. Every command of a submission runs in a
//! bubblewrap sandbox unless `--no-sandbox` or `--in-place` says the code is
//! trusted. See `docs/grading.md`.

mod grade;
mod runner;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use grade::{Options, Private, Report, Status};
use runner::{Limits, Sandbox};

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
#[command(name = "homework-grade", version)]
struct Args {
    /// The submission directory (with its Makefile).
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    submission: Option<PathBuf>,
    /// Grade every directory inside DIR, each as one submission.
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
    /// Processes (and threads) one sandboxed command may have at once.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(8..))]
    processes: u64,
    /// Disk one sandboxed command may fill, the copy and its /tmp together,
    /// in MiB; 0 for no limit.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    disk: u64,
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
}

fn seconds(s: f64, what: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("--{what} must be a positive number of seconds, got {s}"))
}

fn mib(n: u64) -> Option<u64> {
    (n > 0).then_some(n)
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
        let sandbox = Sandbox::for_this_user(args.processes, mib(args.disk).map(|m| m << 20));
        sandbox.probe(args.work_dir.as_deref())?;
        Some(sandbox)
    };
    Ok(Options {
        tests,
        run: Limits {
            time: seconds(args.timeout, "timeout")?,
            memory_mib: mib(args.memory),
            file_mib: mib(args.file_size),
        },
        build: Limits {
            time: seconds(args.build_timeout, "build-timeout")?,
            memory_mib: mib(args.build_memory),
            file_mib: None,
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

fn print_one(report: &Report) {
    for t in &report.tests {
        let status = match &t.signal {
            Some(sig) => format!("{} ({sig})", t.status.name()),
            None => t.status.name().to_owned(),
        };
        println!(
            "{:<44} {:>6.2}  {:<22} {:>6.2} s",
            t.name, t.points, status, t.seconds
        );
    }
    for note in &report.notes {
        println!("note: {note}");
    }
    println!(
        "{}: {:.2}/{:.0} points ({}); valgrind deduction {}; README {}; make clean {}",
        report.submission,
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
            "{:<width$}  {:>7.2}  {:>14}  {:>6}  {:>5}  {}",
            r.submission,
            r.points,
            deduction(r),
            yes_no(Some(r.readme)),
            yes_no(r.clean),
            statuses(r)
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

fn csv(reports: &[Report]) -> String {
    let mut text = String::from(
        "submission,points,max_points,valgrind_tests_with_errors,valgrind_deduction,readme,clean",
    );
    for s in Status::ALL {
        text += ",";
        text += s.name();
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
        text += "\n";
    }
    text
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn submissions(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
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

/// Grades as asked; `Ok(false)` when a submission is below `--fail-under`.
fn main_result(args: &Args) -> Result<bool, String> {
    // A wrong path is reported before the sandbox is even tried.
    if let Some(dir) = args.submission.as_ref().filter(|d| !d.is_dir()) {
        return Err(format!("no submission directory {}", dir.display()));
    }
    let options = options(args)?;
    let start = Instant::now();
    if let Some(dir) = &args.all {
        let dirs = submissions(dir)?;
        // At most -j commands at once; more submissions in flight than that,
        // so a hung test holds one slot while the others keep the rest busy.
        let jobs = usize::from(args.jobs);
        runner::limit_parallel(jobs);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads((4 * jobs).min(dirs.len()))
            .build()
            .map_err(|e| format!("cannot start {} threads: {e}", 4 * jobs))?;
        let bar = ProgressBar::new(dirs.len() as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} submissions, {elapsed} {msg}")
                .map_err(|e| e.to_string())?,
        );
        let results: Vec<Result<Report, String>> = pool.install(|| {
            dirs.par_iter()
                .with_max_len(1)
                .map(|d| {
                    let r = grade::grade(d, &options).map_err(|e| format!("{}: {e}", d.display()));
                    bar.inc(1);
                    r
                })
                .collect()
        });
        bar.finish_and_clear();
        let mut reports = Vec::new();
        for r in results {
            match r {
                Ok(report) => reports.push(report),
                Err(e) => eprintln!("homework-grade: {e}"),
            }
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
            "{} submissions graded in {:.1} s with -j {} (commands: make build + clean {build:.1} s, \
             make run {test_seconds:.1} s of which {} timed out costing {:.1} s)",
            reports.len(),
            start.elapsed().as_secs_f64(),
            args.jobs,
            hung.len(),
            hung.iter().sum::<f64>() + 0.0,
        );
        let json_path = args.json.clone().unwrap_or_else(|| "grades.json".into());
        let csv_path = args.csv.clone().unwrap_or_else(|| "grades.csv".into());
        let json = serde_json::to_string_pretty(&reports).map_err(|e| e.to_string())?;
        write(&json_path, &(json + "\n"))?;
        write(&csv_path, &csv(&reports))?;
        println!("written: {} {}", json_path.display(), csv_path.display());
        if reports.len() < dirs.len() {
            return Err(format!(
                "{} submissions could not be graded",
                dirs.len() - reports.len()
            ));
        }
    } else if let Some(dir) = &args.submission {
        let report = grade::grade(dir, &options)?;
        print_one(&report);
        println!("{}", sandbox_line(args));
        println!("graded in {:.1} s", start.elapsed().as_secs_f64());
        if let Some(path) = &args.json {
            let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            write(path, &(json + "\n"))?;
        }
        if let Some(path) = &args.csv {
            write(path, &csv(std::slice::from_ref(&report)))?;
        }
        if let Some(message) = below(std::slice::from_ref(&report), args.fail_under) {
            eprintln!("homework-grade: {message}");
            return Ok(false);
        }
    }
    Ok(true)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match main_result(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("homework-grade: {message}");
            ExitCode::from(2)
        }
    }
}
