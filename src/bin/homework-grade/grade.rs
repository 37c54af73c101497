//! Grading one submission: the original checker's workflow (`docs/rules/homework.md` §9) run in a temporary copy with limits,
//! plus the statement's deductions (valgrind, README, `make clean`) measured
//! and reported apart from the test points.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use cardgames::child::interrupted;

use crate::runner::{self, Exit, Limits, Outcome, Sandbox};
use crate::valgrind::{
    first_valgrind_error, foreign_options, logs_by_process, open_fifo_reader, parse_valgrind_log,
    read_fifo_while, MemCheck, ProcessLog, ValgrindError, GRADER_OPTIONS,
};

/// Points of a shuffle test (`tests_amestecare`) in the original checker.
pub const SHUFFLE_POINTS: u32 = 4;
/// Points of a game test in the original checker.
pub const GAME_POINTS: u32 = 5;
/// The most the valgrind deduction takes: one point per test with memory
/// errors or definite/indirect leaks, at most this many (the statement:
/// "memory not freed costs up to 5 points").
pub const VALGRIND_MAX_DEDUCTION: u32 = 5;
/// How the note on a failed build starts: `make build failed (exit status 2): ...`.
pub const BUILD_FAILED_NOTE: &str = "make build failed";
/// Bytes of `out` read for the comparison; a longer `out` is a wrong answer.
const OUT_CAP: u64 = 1 << 20;

/// One checker test: `X.in` and `X.ref`.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// Path below the tests directory without the extension, `tests_razboi/razboi3`.
    pub name: String,
    /// The `.in` file.
    pub input: PathBuf,
    /// The expected `out`.
    pub reference: Vec<u8>,
    /// 4 for a shuffle test, 5 for a game test.
    pub points: u32,
}

/// What one of the original checker's points is worth on the scale where
/// all of `tests` are worth 100.
pub fn points_scale(tests: &[TestCase]) -> f64 {
    let possible: u32 = tests.iter().map(|t| t.points).sum();
    100.0 / f64::from(possible.max(1))
}

/// Every test's worth on the scale where all of `tests` are worth 100, by name.
pub fn scaled_points(tests: &[TestCase]) -> std::collections::BTreeMap<String, f64> {
    let scale = points_scale(tests);
    tests
        .iter()
        .map(|t| (t.name.clone(), f64::from(t.points) * scale))
        .collect()
}

/// Natural order (`sort -V` for these names): digit runs compare as numbers.
fn natural_key(s: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut n = 0u64;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            key.push((std::mem::take(&mut text), n));
        } else {
            text.push(c);
            chars.next();
        }
    }
    key.push((text, 0));
    key
}

/// Finds every `X.in` with its `X.ref` below `dir`, in natural order.
///
/// # Errors
/// A message when `dir` cannot be read, a `.ref` is missing, or there is no test.
pub fn discover_tests(dir: &Path) -> Result<Vec<TestCase>, String> {
    // A folder reached twice (a link to a parent, or two links to one folder) is read once:
    // a link loop used to multiply the tests and re-weigh the points.
    fn walk(
        dir: &Path,
        found: &mut Vec<PathBuf>,
        seen: &mut BTreeSet<PathBuf>,
    ) -> std::io::Result<()> {
        if !seen.insert(fs::canonicalize(dir)?) {
            return Ok(());
        }
        for entry in fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, found, seen)?;
            } else if path.extension().is_some_and(|e| e == "in") {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut inputs = Vec::new();
    walk(dir, &mut inputs, &mut BTreeSet::new())
        .map_err(|e| format!("cannot read tests directory {}: {e}", dir.display()))?;
    let mut tests = Vec::new();
    for input in inputs {
        let stem = input.with_extension("");
        let name = stem
            .strip_prefix(dir)
            .unwrap_or(&stem)
            .to_string_lossy()
            .into_owned();
        let ref_path = input.with_extension("ref");
        let reference = fs::read(&ref_path)
            .map_err(|e| format!("test {name}: cannot read {}: {e}", ref_path.display()))?;
        let points = if name.contains("amestecare") {
            SHUFFLE_POINTS
        } else {
            GAME_POINTS
        };
        tests.push(TestCase {
            name,
            input,
            reference,
            points,
        });
    }
    if tests.is_empty() {
        return Err(format!("no tests (X.in with X.ref) in {}", dir.display()));
    }
    tests.sort_by_cached_key(|t| natural_key(&t.name));
    Ok(tests)
}

/// `diff -w` equality: the same lines once all white space is removed from
/// each (so CR, spaces and a missing final newline do not matter, but an
/// extra blank line does).
pub fn same_ignoring_white_space(a: &[u8], b: &[u8]) -> bool {
    fn lines(text: &[u8]) -> Vec<Vec<u8>> {
        let text = text.strip_suffix(b"\n").unwrap_or(text);
        if text.is_empty() {
            return Vec::new();
        }
        text.split(|&c| c == b'\n')
            .map(|l| {
                l.iter()
                    .copied()
                    .filter(|c| !c.is_ascii_whitespace())
                    .collect()
            })
            .collect()
    }
    lines(a) == lines(b)
}

/// Lines of context kept before and after the first difference.
pub const CONTEXT_LINES: usize = 3;
/// Characters kept of one line shown in a difference (a longer line is cut
/// around the place where it differs).
pub const LINE_CHARS: usize = 200;

/// The lines of `text` as `diff` splits them (a final newline ends the last
/// line rather than starting an empty one), `\r` dropped at their ends.
fn raw_lines(text: &[u8]) -> Vec<String> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split(|&c| c == b'\n')
        .map(|l| String::from_utf8_lossy(l.strip_suffix(b"\r").unwrap_or(l)).into_owned())
        .collect()
}

/// A line with all ASCII white space removed: what `diff -w` compares.
fn squeezed(line: &str) -> Vec<char> {
    line.chars().filter(|c| !c.is_ascii_whitespace()).collect()
}

/// Where `out` first differs from the reference under the checker's
/// comparison (`diff -w`, see [`same_ignoring_white_space`]), with the text
/// of both sides and [`CONTEXT_LINES`] lines of context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The 1-based number of the first line that differs (the same on both
    /// sides: the comparison goes line by line).
    pub line: usize,
    /// The reference's line; `None` when the reference has fewer lines.
    pub expected: Option<String>,
    /// `out`'s line; `None` when `out` has fewer lines.
    pub actual: Option<String>,
    /// The 1-based character of `expected` where it starts to differ
    /// (white space skipped as `diff -w` skips it); `None` with no line.
    pub expected_column: Option<usize>,
    /// The same in `actual`.
    pub actual_column: Option<usize>,
    /// Up to [`CONTEXT_LINES`] lines before, as `out` has them (the same as
    /// the reference's under the comparison).
    pub before: Vec<String>,
    /// Up to [`CONTEXT_LINES`] lines of the reference after the differing line.
    pub expected_after: Vec<String>,
    /// Up to [`CONTEXT_LINES`] lines of `out` after the differing line.
    pub actual_after: Vec<String>,
}

/// Cuts `line` to [`LINE_CHARS`] characters around the 1-based `column`,
/// marking a cut with `…`; returns the text and the column in it.
fn clip_line(line: &str, column: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= LINE_CHARS {
        return (line.to_owned(), column);
    }
    let start = column
        .saturating_sub(LINE_CHARS / 2)
        .min(chars.len() - LINE_CHARS);
    let mut text: String = chars[start..start + LINE_CHARS].iter().collect();
    let mut column = column - start;
    if start > 0 {
        text.insert(0, '…');
        column += 1;
    }
    if start + LINE_CHARS < chars.len() {
        text.push('…');
    }
    (text, column)
}

/// Cuts a context line to [`LINE_CHARS`] characters.
fn clip_context(line: &str) -> String {
    clip_line(line, 1).0
}

/// The 1-based character of `line` holding its `k`-th (0-based) non-white
/// character, or one past the end when it has fewer.
fn column_of(line: &str, k: usize) -> usize {
    line.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_ascii_whitespace())
        .nth(k)
        .map_or(line.chars().count() + 1, |(i, _)| i + 1)
}

/// The first difference between `actual` (`out`) and `expected` (the
/// reference) under `diff -w`; `None` when they are the same.
pub fn first_difference(actual: &[u8], expected: &[u8]) -> Option<Difference> {
    let (a, e) = (raw_lines(actual), raw_lines(expected));
    let i = (0..a.len().max(e.len()))
        .find(|&i| a.get(i).map(|l| squeezed(l)) != e.get(i).map(|l| squeezed(l)))?;
    let k = match (a.get(i), e.get(i)) {
        (Some(x), Some(y)) => {
            let (x, y) = (squeezed(x), squeezed(y));
            x.iter().zip(&y).take_while(|(p, q)| p == q).count()
        }
        _ => 0,
    };
    let side = |lines: &[String]| {
        lines.get(i).map(|l| {
            let (text, column) = clip_line(l, column_of(l, k));
            (text, column)
        })
    };
    let (expected_line, actual_line) = (side(&e), side(&a));
    let after = |lines: &[String]| {
        lines
            .iter()
            .skip(i + 1)
            .take(CONTEXT_LINES)
            .map(|l| clip_context(l))
            .collect()
    };
    Some(Difference {
        line: i + 1,
        expected_column: expected_line.as_ref().map(|l| l.1),
        actual_column: actual_line.as_ref().map(|l| l.1),
        expected: expected_line.map(|l| l.0),
        actual: actual_line.map(|l| l.0),
        before: a[i.saturating_sub(CONTEXT_LINES)..i.min(a.len())]
            .iter()
            .map(|l| clip_context(l))
            .collect(),
        expected_after: after(&e),
        actual_after: after(&a),
    })
}

/// What valgrind found in one test (only tests with findings carry it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestMemCheck {
    /// Memory errors (`ERROR SUMMARY`, leaks not counted there).
    pub errors: u64,
    /// Bytes definitely lost.
    pub definitely_lost: u64,
    /// Bytes indirectly lost.
    pub indirectly_lost: u64,
    /// The first error with its stack, from the first log that has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_error: Option<ValgrindError>,
}

/// How one test went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// `out` equals the reference under `diff -w`.
    Passed,
    /// `out` exists and differs.
    WrongAnswer,
    /// `make run` ended without writing `out`.
    NoOutput,
    /// A signal killed the program (or `make`).
    Crashed,
    /// The time limit was reached; the process group was killed.
    TimedOut,
    /// `make build` failed, so the test did not run.
    BuildFailed,
}

impl Status {
    /// The JSON spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::WrongAnswer => "wrong_answer",
            Status::NoOutput => "no_output",
            Status::Crashed => "crashed",
            Status::TimedOut => "timed_out",
            Status::BuildFailed => "build_failed",
        }
    }

    /// Every status, in report order.
    pub const ALL: [Status; 6] = [
        Status::Passed,
        Status::WrongAnswer,
        Status::NoOutput,
        Status::Crashed,
        Status::TimedOut,
        Status::BuildFailed,
    ];
}

/// One test's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestResult {
    /// The test's name, `tests_razboi/razboi3`.
    pub name: String,
    /// How it went.
    pub status: Status,
    /// Points earned, on the scale where the whole test set is worth 100.
    pub points: f64,
    /// Wall-clock seconds of `make run`.
    pub seconds: f64,
    /// For `crashed`: the signal's name (`SIGSEGV`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// For `wrong_answer`: where `out` first differs from the reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<Difference>,
    /// What valgrind found in this test, when it found anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memcheck: Option<TestMemCheck>,
}

/// The valgrind measurement over all tests that ran to completion.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Valgrind {
    /// Tests in which the submission's program had memory errors or
    /// definitely/indirectly lost blocks.
    pub tests_with_errors: u32,
    /// `min(tests_with_errors, 5)` points.
    pub deduction: u32,
}

/// Which part of a sharded `--all` run graded a submission (`--shard K/N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
    /// Submissions in the whole run (all shards together).
    pub submissions: usize,
}

/// A grading's result: the JSON of `--json`, plus details for the text report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// The submission directory as given.
    pub submission: String,
    /// Test points earned, scaled so that all tests are worth `max_points`.
    pub points: f64,
    /// 100.
    pub max_points: f64,
    /// Every test, in natural order.
    pub tests: Vec<TestResult>,
    /// `None` when valgrind was not run (`--no-valgrind`, no build).
    pub valgrind: Option<Valgrind>,
    /// A non-empty `README*` file at the top of the submission.
    pub readme: bool,
    /// `make clean` succeeded and removed everything `make build` created;
    /// `None` when not checked (`--no-clean`, no build).
    pub clean: Option<bool>,
    /// How the submission's commands were confined: `bubblewrap`, or `none`
    /// (`--no-sandbox`, `--in-place`).
    pub sandbox: String,
    /// Details for people: why the build failed, the valgrind counts per
    /// test, what `make clean` left.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The shard of a sharded run (`--shard`); `homework-grade merge`
    /// removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// What the result depends on, hashed ([`fingerprint`]): the
    /// submission's files, the tests and the grading options. `--resume`
    /// grades again a submission whose fingerprint changed. Absent in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// `true` when the grading was interrupted (Ctrl-C, SIGTERM) before it
    /// finished: `tests` holds the tests that ran to their end, and what did
    /// not run (valgrind, `make clean`) is `null`. Absent from the JSON of a
    /// finished grading.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// Wall-clock seconds of `make build` and `make clean` (not in the JSON).
    #[serde(skip)]
    pub build_seconds: f64,
}

impl Report {
    /// How many tests have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.tests.iter().filter(|t| t.status == status).count()
    }
}

/// How to grade.
#[derive(Debug, Clone)]
pub struct Options {
    /// The tests.
    pub tests: Vec<TestCase>,
    /// Limits of each `make run`.
    pub run: Limits,
    /// Limits of `make build` and `make clean`.
    pub build: Limits,
    /// Time limit of one `make run` under valgrind; `None` skips valgrind.
    pub valgrind: Option<Duration>,
    /// Check `make clean` (never in place).
    pub clean: bool,
    /// Top-level names not copied (`.git`, `target`).
    pub exclude: Vec<String>,
    /// Where the temporary copies go (the system's temp dir by default).
    pub work_dir: Option<PathBuf>,
    /// Grade the directory itself, not a copy (trusted code only).
    pub in_place: bool,
    /// The sandbox of every command; `None` runs them unconfined (trusted
    /// code only).
    pub sandbox: Option<Sandbox>,
    /// Where links in a submission are never followed when it is copied
    /// (canonical paths): the tests directory, and the directory of all
    /// submissions (less the submission itself).
    pub private: Private,
}

/// Places a submission's links must not reach when it is copied.
#[derive(Debug, Clone, Default)]
pub struct Private {
    /// The tests directory, canonical.
    pub tests: Option<PathBuf>,
    /// The directory of all submissions (`--all`), canonical.
    pub all: Option<PathBuf>,
}

impl Private {
    /// `true` when a link in `submission` (canonical) to `target`
    /// (canonical) must stay a link: it points into the tests, or into
    /// another submission.
    fn forbids(&self, submission: &Path, target: &Path) -> bool {
        self.tests.as_ref().is_some_and(|t| target.starts_with(t))
            || self
                .all
                .as_ref()
                .is_some_and(|a| target.starts_with(a) && !target.starts_with(submission))
    }
}

/// Copies `src` into `dst` (which exists): regular files with their
/// permissions, symbolic links to files inside the submission as the files
/// they point to; every other link (to a file outside the submission, which
/// the grader, often root, could read where the submission cannot: the
/// reference solution, the machine's secrets; to a directory; or forbidden
/// by `private`) stays a link, dangling in the sandbox. Top-level names in
/// `exclude` are skipped. `home` is the submission's canonical path. Each
/// link that leaves the submission (or names nothing) is put in `outside`
/// with what to say of it (its path, `is a link to ../correct/Makefile,
/// outside the submission: not copied`).
fn copy_tree(
    src: &Path,
    dst: &Path,
    exclude: &[String],
    top: bool,
    (home, private): (&Path, &Private),
    outside: &mut Vec<(PathBuf, String)>,
) -> std::io::Result<()> {
    for entry in fs::read_dir(src)? {
        let entry = entry?;
        let name = entry.file_name();
        if top && exclude.iter().any(|e| name.to_str() == Some(e.as_str())) {
            continue;
        }
        let from = entry.path();
        let to = dst.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            fs::create_dir(&to)?;
            copy_tree(&from, &to, exclude, false, (home, private), outside)?;
        } else if kind.is_symlink() {
            let target = fs::canonicalize(&from);
            let inside = target
                .as_ref()
                .is_ok_and(|t| t.starts_with(home) && !private.forbids(home, t));
            let text = fs::read_link(&from)?;
            match fs::metadata(&from) {
                Ok(meta) if meta.is_file() && inside => {
                    fs::copy(&from, &to)?;
                }
                _ => {
                    if !inside {
                        outside.push((
                            from.clone(),
                            format!(
                                "is a link to {}, {}: not copied",
                                text.display(),
                                if target.is_ok() {
                                    "outside the submission"
                                } else {
                                    "which names nothing"
                                }
                            ),
                        ));
                    }
                    std::os::unix::fs::symlink(&text, &to)?;
                }
            }
        } else if kind.is_file() {
            fs::copy(&from, &to)?;
        }
    }
    Ok(())
}

/// The command a failed build's messages say was not found: `make: cargo:
/// No such file or directory` (make ran it itself), `sh: 1: cargo: not
/// found` (dash), `bash: line 1: cargo: command not found`; a bare name only.
pub fn missing_command(log: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(log);
    text.lines().find_map(|line| {
        let head = [
            ": No such file or directory",
            ": command not found",
            ": not found",
        ]
        .iter()
        .find_map(|end| line.trim_end().strip_suffix(end))?;
        let name = head.rsplit(": ").next()?.trim();
        let bare =
            !name.is_empty() && !name.contains(['/', ' ', '*', '[', '\'']) && head.contains(": ");
        bare.then(|| name.to_owned())
    })
}

/// One line for a build that failed on a command the sandbox does not show
/// but the grader's `PATH` has outside the system's folders (a toolchain in
/// `~/.cargo`, a pyenv Python): where it is, and the options that let it in.
fn missing_command_hint(log: &[u8], sandbox: &Sandbox) -> Option<String> {
    let name = missing_command(log)?;
    let path = std::env::var_os("PATH")?;
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join(&name))
        .find(|p| p.is_file())?;
    let system = ["/usr", "/bin", "/sbin", "/lib"];
    if system.iter().any(|d| found.starts_with(d))
        || sandbox.binds.iter().any(|b| found.starts_with(b))
    {
        return None;
    }
    let bin = found.parent()?;
    let home = if bin.ends_with("bin") {
        bin.parent()?
    } else {
        bin
    };
    Some(format!(
        "{name} was not found in the sandbox, which shows only the system's folders (/usr, /bin, /etc); \
         it is {} here: let it in with --sandbox-bind {} (and --sandbox-env NAME for the \
         variables it needs, such as RUSTUP_HOME)",
        found.display(),
        home.display()
    ))
}

/// The SHA-256 (hex) of what a grading of `submission` depends on: every
/// file, folder and link the copy takes (its path, its kind, a file's bytes,
/// a link's text; top-level names of [`Options::exclude`] left out, in name
/// order), every test (its name, input and reference) and the options that
/// change a result (the limits, valgrind, the `make clean` check, the
/// sandbox). Two gradings with one fingerprint give the same result but for
/// timings (and what a time limit decides).
///
/// # Errors
/// A message when a file of the submission cannot be read.
pub fn fingerprint(submission: &Path, options: &Options) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    fn field(hash: &mut Sha256, bytes: &[u8]) {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    }
    fn walk(hash: &mut Sha256, dir: &Path, rel: &Path, exclude: &[String]) -> std::io::Result<()> {
        let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let name = entry.file_name();
            if rel.as_os_str().is_empty()
                && exclude.iter().any(|e| name.to_str() == Some(e.as_str()))
            {
                continue;
            }
            let path = rel.join(&name);
            field(hash, path.as_os_str().as_encoded_bytes());
            let kind = entry.file_type()?;
            if kind.is_dir() {
                field(hash, b"dir");
                walk(hash, &entry.path(), &path, exclude)?;
            } else if kind.is_symlink() {
                field(hash, b"link");
                field(
                    hash,
                    fs::read_link(entry.path())?.as_os_str().as_encoded_bytes(),
                );
            } else if kind.is_file() {
                field(hash, b"file");
                field(hash, &fs::read(entry.path())?);
            }
        }
        Ok(())
    }
    let mut hash = Sha256::new();
    walk(&mut hash, submission, Path::new(""), &options.exclude)
        .map_err(|e| format!("cannot read {}: {e}", submission.display()))?;
    for test in &options.tests {
        field(&mut hash, test.name.as_bytes());
        field(
            &mut hash,
            &fs::read(&test.input)
                .map_err(|e| format!("cannot read {}: {e}", test.input.display()))?,
        );
        field(&mut hash, &test.reference);
    }
    let settings = format!(
        "{:?} {:?} {:?} {} {:?}",
        options.run,
        options.build,
        options.valgrind,
        options.clean,
        options
            .sandbox
            .as_ref()
            .map(|s| (s.processes, s.disk_bytes, &s.binds, &s.env)),
    );
    field(&mut hash, settings.as_bytes());
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Every path below `dir`, relative to it (links not followed).
fn snapshot(dir: &Path) -> BTreeSet<PathBuf> {
    fn walk(root: &Path, dir: &Path, found: &mut BTreeSet<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if let Ok(rel) = path.strip_prefix(root) {
                found.insert(rel.to_path_buf());
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(root, &path, found);
            }
        }
    }
    let mut found = BTreeSet::new();
    walk(dir, dir, &mut found);
    found
}

/// The signal that killed a recipe, from GNU make's message
/// (`make: *** [Makefile:4: run] Segmentation fault (core dumped)`, or
/// `... Error 139` when a shell reported it as 128 + signal).
pub fn signal_from_make(stderr: &[u8]) -> Option<i32> {
    const NAMES: [(&str, i32); 17] = [
        ("Segmentation fault", libc_sig::SEGV),
        ("Aborted", libc_sig::ABRT),
        ("Floating point exception", libc_sig::FPE),
        ("Bus error", libc_sig::BUS),
        ("Illegal instruction", libc_sig::ILL),
        ("Killed", libc_sig::KILL),
        ("Terminated", libc_sig::TERM),
        ("File size limit exceeded", libc_sig::XFSZ),
        ("CPU time limit exceeded", libc_sig::XCPU),
        ("Trace/breakpoint trap", libc_sig::TRAP),
        ("Broken pipe", libc_sig::PIPE),
        ("Hangup", libc_sig::HUP),
        ("Interrupt", libc_sig::INT),
        ("User defined signal 1", libc_sig::USR1),
        ("User defined signal 2", libc_sig::USR2),
        ("Alarm clock", libc_sig::ALRM),
        ("Bad system call", libc_sig::SYS),
    ];
    let text = String::from_utf8_lossy(stderr);
    for line in text.lines() {
        if !(line.starts_with("make") && line.contains("*** [")) {
            continue;
        }
        let Some((_, what)) = line.rsplit_once("] ") else {
            continue;
        };
        if let Some(code) = what.strip_prefix("Error ") {
            let code: i32 = code.split_whitespace().next()?.parse().ok()?;
            return (129..=128 + 64).contains(&code).then_some(code - 128);
        }
        if let Some(&(_, sig)) = NAMES.iter().find(|(name, _)| what.starts_with(name)) {
            return Some(sig);
        }
    }
    None
}

/// Signal numbers of Linux, by name (the ones make describes).
mod libc_sig {
    use nix::sys::signal::Signal;
    pub const SEGV: i32 = Signal::SIGSEGV as i32;
    pub const ABRT: i32 = Signal::SIGABRT as i32;
    pub const FPE: i32 = Signal::SIGFPE as i32;
    pub const BUS: i32 = Signal::SIGBUS as i32;
    pub const ILL: i32 = Signal::SIGILL as i32;
    pub const KILL: i32 = Signal::SIGKILL as i32;
    pub const TERM: i32 = Signal::SIGTERM as i32;
    pub const XFSZ: i32 = Signal::SIGXFSZ as i32;
    pub const XCPU: i32 = Signal::SIGXCPU as i32;
    pub const TRAP: i32 = Signal::SIGTRAP as i32;
    pub const PIPE: i32 = Signal::SIGPIPE as i32;
    pub const HUP: i32 = Signal::SIGHUP as i32;
    pub const INT: i32 = Signal::SIGINT as i32;
    pub const USR1: i32 = Signal::SIGUSR1 as i32;
    pub const USR2: i32 = Signal::SIGUSR2 as i32;
    pub const ALRM: i32 = Signal::SIGALRM as i32;
    pub const SYS: i32 = Signal::SIGSYS as i32;
}

/// `SIGSEGV` for 11; `signal N` for numbers Linux does not name.
pub fn signal_name(sig: i32) -> String {
    nix::sys::signal::Signal::try_from(sig)
        .map(|s| s.as_str().to_owned())
        .unwrap_or_else(|_| format!("signal {sig}"))
}

/// Where a submission's commands run: its copy (or the directory itself,
/// in place), its private temporary directory, and the sandbox if any.
struct Place<'a> {
    sub: &'a Path,
    tmp: &'a Path,
    sandbox: Option<&'a Sandbox>,
}

impl Place<'_> {
    /// Runs `program args..` in the copy, sandboxed or not.
    fn run(&self, program: &str, args: &[&str], limits: &Limits) -> std::io::Result<Outcome> {
        self.run_showing(None, program, args, limits)
    }

    /// Runs `program args..` in the copy, sandboxed or not, with the grader's
    /// folder `logs` (if any) shown read-only (see [`Place::logs_inside`]).
    fn run_showing(
        &self,
        logs: Option<&Path>,
        program: &str,
        args: &[&str],
        limits: &Limits,
    ) -> std::io::Result<Outcome> {
        match self.sandbox {
            Some(sandbox) => sandbox.run(self.sub, self.tmp, logs, program, args, limits),
            // Unconfined: its own TMPDIR, the rest of the environment
            // inherited (less a calling make's variables).
            None => runner::run(self.sub, program, args, &[("TMPDIR", self.tmp)], limits),
        }
    }

    fn make(&self, args: &[&str], limits: &Limits) -> std::io::Result<Outcome> {
        self.run("make", args, limits)
    }

    /// The grader's folder `logs` as the commands see it.
    fn logs_inside(&self, logs: &Path) -> PathBuf {
        match self.sandbox {
            Some(_) => PathBuf::from(runner::INSIDE_LOGS),
            None => logs.to_path_buf(),
        }
    }

    /// Makes `path` the sandbox's (see [`Sandbox::hand_over`]).
    fn hand_over(&self, path: &Path) -> std::io::Result<()> {
        self.sandbox.map_or(Ok(()), |s| s.hand_over(path))
    }
}

/// Removes whatever is at `path` (a file, a link, a directory), so the
/// grader never writes through a link the submission left there.
fn remove_any(path: &Path) -> std::io::Result<()> {
    match path.symlink_metadata() {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Runs one test in the copy: `cp X.in in; rm -f out; make run`, then
/// compares `out` with the reference.
fn run_test(
    place: &Place,
    test: &TestCase,
    limits: &Limits,
) -> std::io::Result<(Status, Option<i32>, f64, Option<Difference>)> {
    let input = place.sub.join("in");
    remove_any(&input)?;
    fs::copy(&test.input, &input)?;
    place.hand_over(&input)?;
    let out_path = place.sub.join("out");
    remove_any(&out_path)?;
    let outcome = place.make(&["run"], limits)?;
    let seconds = outcome.elapsed.as_secs_f64();
    let signal = match outcome.exit {
        Exit::TimedOut => return Ok((Status::TimedOut, None, seconds, None)),
        Exit::Signal(sig) => Some(sig),
        Exit::Code(_) => signal_from_make(&outcome.stderr),
    };
    if signal.is_some() {
        return Ok((Status::Crashed, signal, seconds, None));
    }
    // Only a regular file counts: never a link (to the tests, say) the
    // grader would follow. Nothing of the command runs any more, so the
    // check cannot race with it.
    let regular = out_path.symlink_metadata().is_ok_and(|m| m.is_file());
    let Some(file) = regular.then(|| fs::File::open(&out_path).ok()).flatten() else {
        return Ok((Status::NoOutput, None, seconds, None));
    };
    let mut out = Vec::new();
    file.take(OUT_CAP + 1).read_to_end(&mut out)?;
    if out.len() as u64 <= OUT_CAP && same_ignoring_white_space(&out, &test.reference) {
        return Ok((Status::Passed, None, seconds, None));
    }
    // Only a wrong answer pays for this; past the cap, the first OUT_CAP
    // bytes are compared.
    out.truncate(OUT_CAP as usize);
    let difference = first_difference(&out, &test.reference);
    Ok((Status::WrongAnswer, None, seconds, difference))
}

/// Runs one test's `make run` under valgrind memcheck (every child traced)
/// and returns what the submission's processes did; `None` when it
/// timed out, or left no complete log of a program of its own (the caller
/// counts that against a submission whose program ran).
///
/// Every traced process writes to one FIFO, [`LogFifo`], shown read-only in
/// the sandbox, which the grader reads as the command runs
/// ([`read_fifo_while`]): the submission cannot remove or replace its log, as
/// it could a file of its own, nor read it (the FIFO is write-only). It can
/// open the FIFO and add lines, which [`parse_valgrind_log`] reads so that
/// they count for more, never less.
fn valgrind_test(
    place: &Place,
    test: &TestCase,
    logs: &LogFifo,
    limits: &Limits,
) -> std::io::Result<Option<(MemCheck, Option<ValgrindError>)>> {
    let input = place.sub.join("in");
    remove_any(&input)?;
    fs::copy(&test.input, &input)?;
    place.hand_over(&input)?;
    remove_any(&place.sub.join("out"))?;
    // `make run` itself, with make's shell the grader's valgrind wrapper
    // ([`VALGRIND_SHELL`]): every recipe line, and all it starts, runs under valgrind, make
    // does not. The commands `make -n run` listed could differ from those `make run` runs (a
    // Makefile can read the `n` in MAKEFLAGS), and a clean program listed beside a leaking
    // one run paid nothing. A Makefile that sets its own shell (`override SHELL`) leaves no
    // log of its program, which counts against it (the caller).
    let shell = format!(
        "SHELL={}",
        place.logs_inside(&logs.dir).join(VALGRIND_SHELL).display()
    );
    let make = system_path("make");
    let args = ["run", shell.as_str()];
    let (outcome, stream) = read_fifo_while(&logs.reader, || {
        place.run_showing(Some(&logs.dir), &make, &args, limits)
    });
    if outcome?.exit == Exit::TimedOut {
        return Ok(None);
    }
    let mut total: Option<MemCheck> = None;
    let mut first: Option<ValgrindError> = None;
    // In the order the processes started (their pids), so the first error
    // is the earliest process's.
    for log in logs_by_process(&String::from_utf8_lossy(&stream)).values() {
        match parse_valgrind_log(log) {
            ProcessLog::System => {}
            ProcessLog::Unfinished => return Ok(None),
            ProcessLog::Tampered => {
                // Options of the submission's (a `.valgrindrc`, `VALGRIND_OPTS`) can suppress
                // what valgrind finds: the test counts, with the options as its error.
                if first.is_none() {
                    first = Some(ValgrindError {
                        what: format!(
                            "valgrind ran with options the grader did not give ({}): the measurement cannot be trusted",
                            foreign_options(log).join(" ")
                        ),
                        stack: Vec::new(),
                    });
                }
                total.get_or_insert_with(MemCheck::default).errors += 1;
            }
            ProcessLog::Own(check) => {
                if first.is_none() && check.bad() {
                    first = first_valgrind_error(log);
                }
                let t = total.get_or_insert_with(MemCheck::default);
                t.errors += check.errors;
                t.definitely_lost += check.definitely_lost;
                t.indirectly_lost += check.indirectly_lost;
            }
        }
    }
    Ok(total.map(|t| (t, first)))
}

/// `program`'s path in the sandbox's `PATH` of system folders (the host's own,
/// shown read-only), or its bare name when none has it.
fn system_path(program: &str) -> String {
    ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .map(|dir| Path::new(dir).join(program))
        .find(|path| path.is_file())
        .map_or_else(|| program.to_owned(), |path| path.display().to_string())
}

/// The FIFO valgrind writes to, in the grader's log folder.
const LOG_FIFO: &str = "log";

/// Make's shell in the valgrind runs (`make run SHELL=...`), in the grader's log folder
/// (read-only in the sandbox): `valgrind OPTIONS /usr/bin/bash "$@"` (`/bin/sh` without
/// bash).
const VALGRIND_SHELL: &str = "valgrind-sh";

/// The FIFO valgrind writes to: its folder (outside the copy and its
/// temporary folder, shown read-only in the sandbox) and the grader's
/// reading end, open for the whole grading.
struct LogFifo {
    dir: PathBuf,
    reader: fs::File,
}

/// Makes the [`LogFifo`] in `root`: the FIFO is made, opened for reading,
/// then handed to the sandbox's uid with write permission only (mode 0200),
/// so no process of the submission can read it (it could take the log out
/// and write back a clean one) and, on the read-only folder, none can change
/// that mode or remove it.
fn make_log_fifo(place: &Place, root: &Path) -> std::io::Result<LogFifo> {
    use std::os::unix::fs::PermissionsExt;
    let dir = root.join("valgrind");
    fs::create_dir(&dir)?;
    let fifo = dir.join(LOG_FIFO);
    nix::unistd::mkfifo(
        &fifo,
        nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
    )
    .map_err(std::io::Error::from)?;
    let reader = open_fifo_reader(&fifo)?;
    place.hand_over(&fifo)?;
    fs::set_permissions(&fifo, fs::Permissions::from_mode(0o200))?;
    // `-v` for the files each process loads (`Reading syms from`, see `parse_valgrind_log`).
    let log = place.logs_inside(&dir).join(LOG_FIFO);
    // Bash where there is one: a recipe written for sh runs in it, and so does one
    // written for the bash a Makefile names as its `SHELL` (the command line's wins).
    let bash = system_path("bash");
    let recipe_shell = if bash.starts_with('/') {
        bash.as_str()
    } else {
        "/bin/sh"
    };
    let wrapper = format!(
        "#!/bin/sh\nexec {} {} --log-file={} {recipe_shell} \"$@\"\n",
        system_path("valgrind"),
        GRADER_OPTIONS.join(" "),
        log.display()
    );
    let shell = dir.join(VALGRIND_SHELL);
    fs::write(&shell, wrapper)?;
    fs::set_permissions(&shell, fs::Permissions::from_mode(0o555))?;
    Ok(LogFifo { dir, reader })
}

fn has_readme(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .to_ascii_lowercase()
                .starts_with("readme")
                && e.metadata().is_ok_and(|m| m.is_file() && m.len() > 0)
        })
    })
}

/// The grading's temporary folder, removed on drop even where the submission
/// took its own folders' permissions away (`chmod 300`: an ordinary user's
/// grader could not list them, and the copy stayed behind).
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        fn open_up(dir: &Path) {
            use std::os::unix::fs::PermissionsExt;
            let _ = fs::set_permissions(dir, fs::Permissions::from_mode(0o700));
            for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    open_up(&entry.path());
                }
            }
        }
        open_up(self.0.path());
    }
}

/// Grades `submission` with `options`.
///
/// Once the process is interrupted ([`cardgames::child::interrupted`]: the
/// handler has killed the running command) no further command starts: the
/// result of the command that was running is dropped, and the report holds
/// what finished before, marked [`Report::partial`]. The temporary copy is
/// removed as on any return.
///
/// # Errors
/// A message when the copy cannot be made or a command cannot be started
/// (`make` or `valgrind` missing); the submission's own failures are results.
pub fn grade(submission: &Path, options: &Options) -> Result<Report, String> {
    let fingerprint = if options.in_place {
        None
    } else {
        Some(fingerprint(submission, options)?)
    };
    let root = match &options.work_dir {
        Some(dir) => tempfile::Builder::new().prefix("grade-").tempdir_in(dir),
        None => tempfile::Builder::new().prefix("grade-").tempdir(),
    }
    .map(Scratch)
    .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let tmp = root.path().join("tmp");
    fs::create_dir(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    // The links that leave the submission, said in the notes (a failed build's cause).
    let mut links = Vec::new();
    let sub = if options.in_place {
        submission.to_path_buf()
    } else {
        let sub = root.path().join("submission");
        fs::create_dir(&sub).map_err(|e| format!("cannot create the copy: {e}"))?;
        let home = fs::canonicalize(submission)
            .map_err(|e| format!("cannot read {}: {e}", submission.display()))?;
        let mut outside = Vec::new();
        copy_tree(
            submission,
            &sub,
            &options.exclude,
            true,
            (&home, &options.private),
            &mut outside,
        )
        .map_err(|e| format!("cannot copy {}: {e}", submission.display()))?;
        for (path, what) in outside {
            let name = path.strip_prefix(submission).unwrap_or(&path);
            links.push(format!("{} {what}", name.display()));
        }
        sub
    };
    // In place is trusted code only, and never sandboxed (the directory
    // itself is not handed over).
    let sandbox = options.sandbox.as_ref().filter(|_| !options.in_place);
    let place = Place {
        sub: &sub,
        tmp: &tmp,
        sandbox,
    };
    if sandbox.is_some() {
        place
            .hand_over(root.path())
            .map_err(|e| format!("cannot hand the copy to the sandbox: {e}"))?;
    }

    let io = |what: &str, e: std::io::Error| format!("{what}: {e}");
    let mut notes = Vec::new();
    let before = snapshot(&sub);
    // Set once an interruption cut the grading short; nothing runs after.
    let mut partial = interrupted();
    let build = if partial {
        None
    } else {
        match place.make(&["build"], &options.build) {
            // A build the interruption killed tells nothing.
            _ if interrupted() => {
                partial = true;
                None
            }
            Ok(build) => Some(build),
            Err(e) => return Err(io("cannot run make", e)),
        }
    };
    let built = build.as_ref().is_some_and(Outcome::success);
    let mut build_seconds = build.as_ref().map_or(0.0, |b| b.elapsed.as_secs_f64());
    if let Some(build) = build.as_ref().filter(|_| !built) {
        let why = match build.exit {
            Exit::TimedOut => format!("timed out after {:.0} s", options.build.time.as_secs_f64()),
            Exit::Signal(s) => format!("killed by {}", signal_name(s)),
            Exit::Code(c) => format!("exit status {c}"),
        };
        let log = if build.stderr.is_empty() {
            &build.stdout
        } else {
            &build.stderr
        };
        let tail: Vec<&str> = std::str::from_utf8(log)
            .unwrap_or("")
            .lines()
            .rev()
            .take(3)
            .collect();
        let tail = tail.into_iter().rev().collect::<Vec<_>>().join(" | ");
        // What the grader knows better than make's last lines: a link it did not
        // copy, a command the sandbox does not show.
        let mut causes = std::mem::take(&mut links);
        let both = [build.stdout.as_slice(), build.stderr.as_slice()].concat();
        if let Some(hint) = sandbox.and_then(|s| missing_command_hint(&both, s)) {
            causes.push(hint);
        }
        let mut note = format!("{BUILD_FAILED_NOTE} ({why})");
        if !causes.is_empty() {
            note += ": ";
            note += &causes.join("; ");
        }
        if !tail.is_empty() {
            note += if causes.is_empty() {
                ": "
            } else {
                "; make said: "
            };
            note += &tail;
        }
        notes.push(note);
    }
    notes.append(&mut links);
    let created: Vec<PathBuf> = snapshot(&sub).difference(&before).cloned().collect();

    let scale = points_scale(&options.tests);
    let mut earned = 0u32;
    let mut tests = Vec::with_capacity(options.tests.len());
    for test in &options.tests {
        if partial {
            break;
        }
        let (status, signal, seconds, first_difference) = if built {
            let result = run_test(&place, test, &options.run);
            // The test the interruption killed is dropped, not a crash.
            if interrupted() {
                partial = true;
                break;
            }
            result.map_err(|e| io(&test.name, e))?
        } else {
            (Status::BuildFailed, None, 0.0, None)
        };
        let points = if status == Status::Passed {
            test.points
        } else {
            0
        };
        earned += points;
        tests.push(TestResult {
            name: test.name.clone(),
            status,
            points: f64::from(points) * scale,
            seconds,
            signal: signal.map(signal_name),
            first_difference,
            memcheck: None,
        });
    }

    let valgrind = match options.valgrind {
        Some(time) if built && !partial => {
            let limits = Limits {
                time,
                memory_mib: None,
                file_mib: options.run.file_mib,
            };
            let logs = make_log_fifo(&place, root.path())
                .map_err(|e| io("cannot make valgrind's log FIFO", e))?;
            let mut bad = 0;
            for (test, result) in options.tests.iter().zip(&mut tests) {
                if result.status == Status::TimedOut {
                    continue;
                }
                let checked = valgrind_test(&place, test, &logs, &limits);
                if interrupted() {
                    partial = true;
                    break;
                }
                match checked.map_err(|e| io("cannot run valgrind", e))? {
                    Some((check, first_error)) if check.bad() => {
                        bad += 1;
                        result.memcheck = Some(TestMemCheck {
                            errors: check.errors,
                            definitely_lost: check.definitely_lost,
                            indirectly_lost: check.indirectly_lost,
                            first_error,
                        });
                        notes.push(format!(
                            "valgrind {}: {} errors, {} bytes definitely and {} indirectly lost",
                            test.name, check.errors, check.definitely_lost, check.indirectly_lost
                        ));
                    }
                    Some(_) => {}
                    // The program ran and wrote its answer, yet valgrind has no complete
                    // log of it (killed under valgrind, or a flood past the log's cap).
                    // Counted as a test with errors.
                    None if matches!(result.status, Status::Passed | Status::WrongAnswer) => {
                        bad += 1;
                        notes.push(format!(
                            "valgrind {}: no complete log of the program: counted as errors",
                            test.name
                        ));
                    }
                    None => notes.push(format!(
                        "valgrind {}: no result (timed out or no program traced)",
                        test.name
                    )),
                }
            }
            // An unfinished measurement gives no deduction at all.
            (!partial).then_some(Valgrind {
                tests_with_errors: bad,
                deduction: bad.min(VALGRIND_MAX_DEDUCTION),
            })
        }
        _ => None,
    };

    if options.in_place {
        // Leave the directory as it was: no `in` or `out` it did not have.
        for name in ["in", "out"] {
            if !before.contains(Path::new(name)) {
                let _ = fs::remove_file(sub.join(name));
            }
        }
    }
    let readme = has_readme(&sub);
    let check_clean = options.clean && built && !options.in_place;
    if check_clean && interrupted() {
        partial = true;
    }
    let cleaned = if check_clean && !partial {
        let outcome = place.make(&["clean"], &options.build);
        if interrupted() {
            partial = true;
            None
        } else {
            Some(outcome.map_err(|e| io("cannot run make", e))?)
        }
    } else {
        None
    };
    if partial {
        let mut unmeasured = Vec::new();
        if options.valgrind.is_some() && built && valgrind.is_none() {
            unmeasured.push("valgrind");
        }
        if check_clean {
            unmeasured.push("make clean");
        }
        notes.push(format!(
            "grading interrupted: {} of {} tests ran{}",
            tests.len(),
            options.tests.len(),
            if unmeasured.is_empty() {
                String::new()
            } else {
                format!("; {} not measured", unmeasured.join(" and "))
            }
        ));
    }
    let clean = if let Some(outcome) = cleaned {
        let left: Vec<String> = created
            .iter()
            .filter(|p| sub.join(p).symlink_metadata().is_ok())
            .map(|p| p.display().to_string())
            .collect();
        build_seconds += outcome.elapsed.as_secs_f64();
        if !outcome.success() {
            notes.push("make clean failed".to_owned());
        }
        if !left.is_empty() {
            notes.push(format!(
                "make clean left what make build made: {}",
                left.join(" ")
            ));
        }
        Some(outcome.success() && left.is_empty())
    } else {
        None
    };

    Ok(Report {
        submission: submission.display().to_string(),
        points: (f64::from(earned) * scale * 100.0).round() / 100.0,
        max_points: 100.0,
        tests,
        valgrind,
        readme,
        clean,
        sandbox: if sandbox.is_some() {
            "bubblewrap"
        } else {
            "none"
        }
        .to_owned(),
        notes,
        shard: None,
        fingerprint,
        partial,
        build_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_w_semantics() {
        assert!(same_ignoring_white_space(b"1 A\n", b"1 A"));
        assert!(same_ignoring_white_space(b"1  A\r\n", b"1 A\n"));
        assert!(same_ignoring_white_space(b"1A\n", b"1 A\n"));
        assert!(!same_ignoring_white_space(b"1 A\n\n", b"1 A\n"));
        assert!(!same_ignoring_white_space(b"", b"1\n"));
        assert!(!same_ignoring_white_space(b"2\n", b"1\n"));
    }

    #[test]
    fn signals_from_make_messages() {
        let segv = b"make: *** [Makefile:4: run] Segmentation fault (core dumped)\n";
        assert_eq!(signal_from_make(segv), Some(11));
        assert_eq!(
            signal_from_make(b"make: *** [Makefile:4: run] Aborted\n"),
            Some(6)
        );
        assert_eq!(
            signal_from_make(b"make: *** [Makefile:4: run] Error 139\n"),
            Some(11)
        );
        assert_eq!(
            signal_from_make(b"make: *** [Makefile:4: run] Error 1\n"),
            None
        );
        assert_eq!(
            signal_from_make(b"make: *** No rule to make target 'run'.  Stop.\n"),
            None
        );
        assert_eq!(signal_name(11), "SIGSEGV");
    }

    #[test]
    fn a_link_loop_in_the_tests_adds_no_test() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("tests_razboi");
        fs::create_dir(&sub).unwrap();
        fs::write(sub.join("razboi1.in"), "razboi\n").unwrap();
        fs::write(sub.join("razboi1.ref"), "1\n").unwrap();
        std::os::unix::fs::symlink("..", sub.join("loop")).unwrap();
        std::os::unix::fs::symlink(&sub, dir.path().join("again")).unwrap();
        let tests = discover_tests(dir.path()).unwrap();
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn only_links_inside_the_submission_are_copied_as_files() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let (tests, all, shared) = (root.join("tests"), root.join("all"), root.join("shared"));
        let (mine, other, copy) = (all.join("mine"), all.join("other"), root.join("copy"));
        for d in [&tests, &mine, &other, &shared, &copy] {
            fs::create_dir_all(d).unwrap();
        }
        fs::write(tests.join("t1.ref"), "the answer").unwrap();
        fs::write(other.join("Makefile"), "theirs").unwrap();
        fs::write(shared.join("common.c"), "shared code").unwrap();
        fs::write(mine.join("own.c"), "mine").unwrap();
        symlink(tests.join("t1.ref"), mine.join("answer")).unwrap();
        symlink("../other/Makefile", mine.join("peek")).unwrap();
        symlink(shared.join("common.c"), mine.join("common.c")).unwrap();
        symlink("own.c", mine.join("alias.c")).unwrap();
        let private = Private {
            tests: Some(tests.clone()),
            all: Some(all.clone()),
        };
        let mut outside = Vec::new();
        copy_tree(&mine, &copy, &[], true, (&mine, &private), &mut outside).unwrap();
        let said: Vec<String> = outside
            .iter()
            .map(|(p, what)| format!("{} {what}", p.strip_prefix(&mine).unwrap().display()))
            .collect();
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(
            said.contains(
                &"peek is a link to ../other/Makefile, outside the submission: not copied"
                    .to_owned()
            ),
            "{said:?}"
        );
        let is_link = |name: &str| copy.join(name).symlink_metadata().unwrap().is_symlink();
        // The tests, another submission and any other file outside stay links.
        assert!(is_link("answer") && is_link("peek") && is_link("common.c"));
        assert_eq!(fs::read_to_string(copy.join("alias.c")).unwrap(), "mine");
        assert!(!is_link("alias.c"));
    }

    #[test]
    fn first_difference_follows_diff_w() {
        // Same under diff -w: no difference.
        assert_eq!(first_difference(b"1  A\r\n2\n", b"1 A\n2"), None);
        let d = first_difference(b"a\nb\nc\nd x\ne\nf\n", b"a\nb\nc\nd y\ne\n").unwrap();
        assert_eq!(d.line, 4);
        assert_eq!(d.expected.as_deref(), Some("d y"));
        assert_eq!(d.actual.as_deref(), Some("d x"));
        // "d x": the third character is the first that differs.
        assert_eq!((d.expected_column, d.actual_column), (Some(3), Some(3)));
        assert_eq!(d.before, ["a", "b", "c"]);
        assert_eq!(d.expected_after, ["e"]);
        assert_eq!(d.actual_after, ["e", "f"]);
        // White space moves the column on one side only.
        let d = first_difference(b"4d  5c 6h\n", b"4d 5c 7h\n").unwrap();
        assert_eq!((d.expected_column, d.actual_column), (Some(7), Some(8)));
        // A missing or an extra line.
        let d = first_difference(b"1\n", b"1\n2\n").unwrap();
        assert_eq!(
            (d.line, d.actual, d.expected.as_deref()),
            (2, None, Some("2"))
        );
        let d = first_difference(b"1\n\n", b"1\n").unwrap();
        assert_eq!(
            (d.line, d.actual.as_deref(), d.expected),
            (2, Some(""), None)
        );
        let d = first_difference(b"", b"7\n").unwrap();
        assert_eq!((d.line, d.actual, d.before.len()), (1, None, 0));
    }

    #[test]
    fn a_long_line_is_cut_around_its_difference() {
        let expected: String = (0..600)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let mut actual = expected.clone().into_bytes();
        actual[300] = b'#';
        let d = first_difference(&actual, expected.as_bytes()).unwrap();
        let (text, column) = (d.actual.unwrap(), d.actual_column.unwrap());
        assert!(text.starts_with('…') && text.ends_with('…'), "{text}");
        assert_eq!(text.chars().nth(column - 1), Some('#'));
        assert!(text.chars().count() <= LINE_CHARS + 2);
    }

    #[test]
    fn the_command_a_build_missed() {
        let make = b"cargo build --release\nmake: cargo: No such file or directory\nmake: *** [Makefile:2: build] Error 127\n";
        assert_eq!(missing_command(make).as_deref(), Some("cargo"));
        assert_eq!(
            missing_command(b"/bin/sh: 1: rustc: not found\n").as_deref(),
            Some("rustc")
        );
        assert_eq!(
            missing_command(b"bash: line 1: python3.12: command not found\n").as_deref(),
            Some("python3.12")
        );
        // Make's own messages name no command.
        assert_eq!(
            missing_command(b"make: *** No rule to make target 'x.c'.  Stop.\n"),
            None
        );
        // A missing file reads the same: the hint then finds no such program on the PATH.
        assert_eq!(
            missing_command(b"cc: error: x.c: No such file or directory\n").as_deref(),
            Some("x.c")
        );
    }

    #[test]
    fn natural_order_puts_test10_after_test9() {
        let mut names = vec!["t/test10", "t/test9", "t/test1"];
        names.sort_by_cached_key(|n| natural_key(n));
        assert_eq!(names, ["t/test1", "t/test9", "t/test10"]);
    }
}
