//! `homework-gen`: a new year's checker tests in the original layout
//! (`tests_amestecare/testK.in|.ref`, `tests_razboi/razboiK.in|.ref|.debug`, ...),
//! from a seed, with references from this project's engines, each checked
//! against the independent `checker/model.py` before anything is written.
//! See `cardgames::homework::gen` for what the tests cover.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

use cardgames::homework::gen::{self, Generated};
use cardgames::homework::Task;

/// Writes COUNT tests per task into OUT in the homework checker's layout:
/// shuffle tests with every shuffle kind and n-piles over every divisor of 52,
/// and game tests that first cover the rare paths of each game (one test
/// each), then random deals. The same seed writes the same tests. Every
/// reference is this project's answer and must equal checker/model.py's.
#[derive(Debug, Parser)]
#[command(name = "homework-gen", version)]
struct Args {
    /// Seed of the tests (ChaCha8).
    #[arg(long)]
    seed: u64,
    /// Tests per task.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// Output directory (created; must not already hold tests unless --force).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Tasks to generate, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_task,
          default_values = ["amestecare", "razboi", "rollingstone", "scarabei"])]
    tasks: Vec<Task>,
    /// Deals tried by the search for one rare path before giving up on it.
    #[arg(long, default_value_t = 200_000)]
    budget: usize,
    /// The independent model that checks every reference.
    #[arg(long, value_name = "FILE", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/checker/model.py"))]
    model: PathBuf,
    /// Python interpreter for the model.
    #[arg(long, default_value = "python3")]
    python: String,
    /// Replace the tests already in OUT: every earlier test of each task folder is removed
    /// (the files named like its tests), so OUT holds exactly this run's.
    #[arg(long)]
    force: bool,
}

/// Runs the model on every pending `.in` (one Python process) and returns its
/// answers in the same order.
const DRIVER: &str = r#"
import contextlib, importlib.util, io, sys
spec = importlib.util.spec_from_file_location("model", sys.argv[1])
if spec is None:
    sys.exit("not a Python module (a .py file)")
model = importlib.util.module_from_spec(spec)
spec.loader.exec_module(model)
for path in sys.stdin.read().splitlines():
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            model.main(path)
        answer = " ".join(buf.getvalue().split())
    except Exception as e:
        answer = "model error: %s" % e
    print(answer)
"#;

fn model_answers(args: &Args, paths: &[PathBuf]) -> Result<Vec<String>, String> {
    if !args.model.is_file() {
        return Err(format!(
            "no model at {} (give --model FILE)",
            args.model.display()
        ));
    }
    let mut child = Command::new(&args.python)
        .arg("-c")
        .arg(DRIVER)
        .arg(&args.model)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {} for the model: {e}", args.python))?;
    let list: String = paths.iter().map(|p| format!("{}\n", p.display())).collect();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("model: {e}"))?;
    let _ = writer.join();
    if !out.status.success() {
        // The last line of a traceback says what went wrong.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!(
            "the model {} failed ({}): {}",
            args.model.display(),
            out.status,
            why.trim()
        ));
    }
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    if answers.len() != paths.len() {
        return Err(format!(
            "the model answered {} of {} tests",
            answers.len(),
            paths.len()
        ));
    }
    Ok(answers)
}

/// The extensions of a test's files: its input, its reference output, its trace.
const TEST_FILES: [&str; 3] = ["in", "ref", "debug"];

/// Removes the earlier tests of a task folder (`--force`): the files named like its tests,
/// `STEM<number>.in`, `.ref` and `.debug`, so the folder holds exactly the new run's tests
/// and not an earlier, larger run's beyond them. Other files stay.
fn remove_tests(dir: &Path, stem: &str) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| io_err(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| io_err(dir, e))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let is_test = name.strip_prefix(stem).is_some_and(|rest| {
            rest.split_once('.').is_some_and(|(k, ext)| {
                !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && TEST_FILES.contains(&ext)
            })
        });
        if is_test {
            fs::remove_file(&path).map_err(|e| io_err(&path, e))?;
        }
    }
    Ok(())
}

fn io_err(path: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", path.display())
}

fn parse_task(name: &str) -> Result<Task, String> {
    Task::from_name(name).ok_or_else(|| {
        format!("unknown task {name:?} (amestecare, razboi, rollingstone, scarabei)")
    })
}

fn run(args: &Args) -> Result<(), String> {
    let tasks = args.tasks.as_slice();
    // The model is checked before any folder is made.
    fs::File::open(&args.model)
        .and_then(|f| f.metadata())
        .and_then(|m| {
            if m.is_file() {
                Ok(())
            } else {
                Err(std::io::Error::other("not a file"))
            }
        })
        .map_err(|e| format!("cannot read the model {}: {e}", args.model.display()))?;
    for &task in tasks {
        let dir = args.out.join(gen::layout(task).0);
        let busy = fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some());
        if busy && !args.force {
            return Err(format!(
                "{} already holds tests (use --force to overwrite)",
                dir.display()
            ));
        }
    }
    let count = args.count as usize;
    let bar = ProgressBar::new((count * tasks.len()) as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} tests, {elapsed} {msg}")
            .map_err(|e| e.to_string())?,
    );
    let mut all: Vec<(Task, Vec<Generated>)> = Vec::new();
    let mut coverage = BTreeMap::new();
    for &task in tasks {
        bar.set_message(gen::task_name(task));
        let (tests, cov) = gen::generate(task, args.seed, count, args.budget, &mut || bar.inc(1));
        coverage.insert(gen::task_name(task), cov);
        all.push((task, tests));
    }
    bar.finish_and_clear();

    // Stage every .in, have the model answer them all, compare, then write.
    let pending = args.out.join(".pending");
    fs::create_dir_all(&pending).map_err(|e| io_err(&pending, e))?;
    let mut paths = Vec::new();
    for (task, tests) in &all {
        for (k, t) in tests.iter().enumerate() {
            let path = pending.join(format!("{}{}.in", gen::layout(*task).1, k + 1));
            fs::write(&path, &t.input).map_err(|e| io_err(&path, e))?;
            paths.push(path);
        }
    }
    let answers = model_answers(args, &paths);
    let _ = fs::remove_dir_all(&pending);
    let answers = answers?;
    let mut answers = answers.iter();
    for (task, tests) in &all {
        let (dir, stem) = gen::layout(*task);
        for (k, t) in tests.iter().enumerate() {
            let model = answers.next().map_or("", String::as_str);
            let ours = t.reference.split_whitespace().collect::<Vec<_>>().join(" ");
            if model != ours {
                return Err(format!(
                    "{dir}/{stem}{}: checker/model.py answers {model:?}, this project {ours:?}; nothing written\n{}",
                    k + 1,
                    t.input
                ));
            }
        }
    }
    let mut written = 0;
    for (task, tests) in &all {
        let (dir, stem) = gen::layout(*task);
        let dir = args.out.join(dir);
        fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
        remove_tests(&dir, stem)?;
        for (k, t) in tests.iter().enumerate() {
            let base = dir.join(format!("{stem}{}", k + 1));
            let texts = [Some(&t.input), Some(&t.reference), t.debug.as_ref()];
            for (ext, text) in TEST_FILES.into_iter().zip(texts) {
                if let Some(text) = text {
                    let path = base.with_extension(ext);
                    fs::write(&path, text).map_err(|e| io_err(&path, e))?;
                }
            }
            written += 1;
        }
    }
    println!(
        "{written} tests written to {} (seed {}), every reference equal to {}",
        args.out.display(),
        args.seed,
        args.model.display()
    );
    for (task, cov) in &coverage {
        if cov.covered.is_empty() && cov.missing.is_empty() {
            continue;
        }
        println!("{task}: {} rare paths covered", cov.covered.len());
        for (k, name) in cov.covered.iter().enumerate() {
            println!("  test {:>3}: {name}", k + 1);
        }
        for name in &cov.missing {
            println!("  not covered: {name}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = cardgames::child::parse_args::<Args>();
    let made_out = !args.out.exists();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // A failed run leaves no folder of its own making behind.
            if made_out {
                let _ = fs::remove_dir_all(&args.out);
            }
            cardgames::diag!("homework-gen: {message}");
            ExitCode::FAILURE
        }
    }
}
