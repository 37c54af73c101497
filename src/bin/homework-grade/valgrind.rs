//! Valgrind's log as the grader reads it: one stream for every traced
//! process (a FIFO, read while the test runs), split into each process's
//! records; which processes are the submission's; what each one counts
//! (errors, bytes lost) and the first error to show. Every rule here is
//! written so that lines a submission adds to the stream count for more,
//! never less (`docs/grading.md`, "valgrind").

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Lines of a valgrind error's stack kept.
pub const STACK_LINES: usize = 16;

/// The first error valgrind reported in one process's log: its message and
/// the lines under it (the stack, `at`/`by` frames, and details such as
/// `Address 0x0 is not stack'd`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValgrindError {
    /// The error's first line, `Invalid read of size 4`, or a leak record
    /// `40 bytes in 1 blocks are definitely lost in loss record 1 of 1`.
    pub what: String,
    /// Up to [`STACK_LINES`] lines under it, trimmed.
    pub stack: Vec<String>,
}

/// The first error of a valgrind log (see [`ValgrindError`]): the first
/// block of lines with a stack (`at 0x...`), leaving out the possibly lost
/// and still reachable leak records, which the grader does not count, and
/// `-v`'s `--PID--` records, which are not messages.
pub fn first_valgrind_error(log: &str) -> Option<ValgrindError> {
    let body = |line: &str| -> String {
        // `==1234== text`: drop the pid marker.
        let rest = line
            .strip_prefix("==")
            .and_then(|r| r.split_once("=="))
            .map_or(line, |(_, r)| r);
        rest.strip_prefix(' ').unwrap_or(rest).to_owned()
    };
    let lines: Vec<String> = log
        .lines()
        .filter(|l| !l.starts_with("--"))
        .map(body)
        .collect();
    for block in lines.split(|l| l.trim().is_empty()) {
        // The error's message is the line just above its stack's first frame (`at 0x...`):
        // valgrind's own notes may sit above it in the same block (`Warning: set address
        // range perms: large range ...` after a large allocation; under `-v`, its
        // redirection warnings).
        let Some(top) = block
            .iter()
            .position(|l| l.trim_start().starts_with("at 0x"))
        else {
            continue;
        };
        let Some(first) = top.checked_sub(1).map(|k| &block[k]) else {
            continue;
        };
        let uncounted = first.contains("possibly lost") || first.contains("still reachable");
        if first.starts_with(' ') || uncounted {
            continue;
        }
        return Some(ValgrindError {
            what: first.trim().to_owned(),
            stack: block[top..]
                .iter()
                .take(STACK_LINES)
                .map(|l| l.trim().to_owned())
                .collect(),
        });
    }
    None
}

/// What valgrind said about one program run (the submission's processes only,
/// `make` and shells excluded).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemCheck {
    /// Memory errors (`ERROR SUMMARY`, leaks not counted there).
    pub errors: u64,
    /// Bytes definitely lost.
    pub definitely_lost: u64,
    /// Bytes indirectly lost.
    pub indirectly_lost: u64,
}

impl MemCheck {
    /// `true` when anything counts against the submission.
    pub fn bad(&self) -> bool {
        self.errors > 0 || self.definitely_lost > 0 || self.indirectly_lost > 0
    }
}

/// The options the grader gives valgrind, besides `--log-file` (its FIFO): `-v` for the
/// files each process loads, every child traced, full leak check.
pub const GRADER_OPTIONS: [&str; 4] = [
    "-v",
    "--trace-children=yes",
    "--leak-check=full",
    "--errors-for-leak-kinds=none",
];

/// The options one process's valgrind ran with that the grader did not give: its `-v`
/// `Valgrind options:` records, less [`GRADER_OPTIONS`] and `--log-file=`. Valgrind also
/// takes options from `./.valgrindrc` (a file the submission owns is trusted), `~/.valgrindrc`
/// and `VALGRIND_OPTS` (a run rule may set it for its program), so a submission could
/// suppress its own errors and leaks (`--suppressions=`) without changing its program.
pub fn foreign_options(log: &str) -> Vec<String> {
    let text = |line: &str| -> String {
        // `--PID--    --option`: the record's text after its mark.
        line.strip_prefix("--")
            .and_then(|r| r.split_once("--"))
            .map_or(line, |(_, r)| r)
            .trim()
            .to_owned()
    };
    let mut foreign = Vec::new();
    let mut listing = false;
    for line in log.lines() {
        let t = text(line);
        if t == "Valgrind options:" {
            listing = true;
            continue;
        }
        if listing {
            if !t.starts_with('-') {
                listing = false;
                continue;
            }
            if !GRADER_OPTIONS.contains(&t.as_str()) && !t.starts_with("--log-file=") {
                foreign.push(t);
            }
        }
    }
    foreign
}

/// What one process's part of valgrind's stream says (see [`logs_by_process`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessLog {
    /// Valgrind ran with options the grader did not give ([`foreign_options`]): the
    /// measurement cannot be trusted, and counts as an error.
    Tampered,
    /// One of the machine's programs (make, the shells, `rm` ...): not counted.
    System,
    /// The submission's program, with what valgrind found.
    Own(MemCheck),
    /// The submission's program, without a summary (killed, or the stream was
    /// cut at [`LOG_CAP`]): no result to trust.
    Unfinished,
}

/// Whether valgrind's `Command:` text names one of the machine's programs:
/// its program is a plain absolute path (no `.` or `..` component, no empty
/// one) in `/bin`, `/sbin`, `/usr` or `/lib*`, as a shell's `execve` gives it
/// (`/usr/bin/cat in`), and not the dynamic loader (`ld-linux-x86-64.so.2
/// ./homework` runs the program in its own process). Anything else is the
/// submission's: `./sh`, a bare name (an `execve` of `homework` runs
/// `./homework`), `/usr/../sub/homework`, or no program at all.
pub fn names_a_system_program(command: &str) -> bool {
    let Some(program) = command.split_whitespace().next() else {
        return false;
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    let loader = name.starts_with("ld-") || name.starts_with("ld.so");
    in_system_folders(program) && !loader
}

/// Whether `path` is a plain absolute path (no `.` or `..` component, no
/// empty one) in `/bin`, `/sbin`, `/usr` or `/lib*`: the machine's files,
/// shown read-only in the sandbox.
pub fn in_system_folders(path: &str) -> bool {
    let plain = path
        .strip_prefix('/')
        .is_some_and(|rest| rest.split('/').all(|c| !matches!(c, "" | "." | "..")));
    plain
        && ["/bin/", "/sbin/", "/usr/", "/lib"]
            .iter()
            .any(|d| path.starts_with(d))
}

/// Reads one process's records of valgrind's output (see [`logs_by_process`]). The
/// process is the submission's when it ran any code of the submission's: when any of its
/// `Command:` records names a program of the submission's (not
/// [`names_a_system_program`]: make, the shells, `rm` ... are the machine's; a process
/// that `exec`s has one such record per program it became), or any of its `Reading syms
/// from` records (valgrind's `-v`: every executable and library the process loaded, a
/// library preloaded into a machine program or opened by an interpreter too) names a file
/// outside the system folders. Its counts are the largest of each summary record. So
/// records added to the stream by the submission itself (it can write to it, see
/// `grade::valgrind_test`) can make a process count as its own, or count more, never less.
pub fn parse_valgrind_log(log: &str) -> ProcessLog {
    if !foreign_options(log).is_empty() {
        return ProcessLog::Tampered;
    }
    fn number_after(line: &str, label: &str) -> Option<u64> {
        let rest = &line[line.find(label)? + label.len()..];
        let digits: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    }
    let mut commands = log
        .lines()
        .filter_map(|l| l.split_once("Command: ").map(|(_, c)| c));
    let mut loaded = log.lines().filter_map(|l| {
        l.split_once("Reading syms from ")
            .map(|(_, f)| f.trim_end())
    });
    if commands.all(names_a_system_program) && loaded.all(in_system_folders) {
        return ProcessLog::System;
    }
    let mut check = MemCheck::default();
    let mut summary = false;
    for line in log.lines() {
        if let Some(n) = number_after(line, "ERROR SUMMARY:") {
            check.errors = check.errors.max(n);
            summary = true;
        } else if let Some(n) = number_after(line, "definitely lost:") {
            check.definitely_lost = check.definitely_lost.max(n);
        } else if let Some(n) = number_after(line, "indirectly lost:") {
            check.indirectly_lost = check.indirectly_lost.max(n);
        }
    }
    if summary {
        ProcessLog::Own(check)
    } else {
        ProcessLog::Unfinished
    }
}

/// Splits valgrind's stream (the lines of every traced process, each marked
/// `==PID==`, or `--PID--` for `-v`'s, interleaved) into each process's
/// records, by pid, each record written as a line `==PID== text` (or
/// `--PID-- text`). A record runs from a mark to the next mark or the end of
/// its line; text before a line's first mark is dropped. Valgrind writes whole
/// lines, so what another writer put between them (without a line end, it
/// sticks to the front of valgrind's next line) can add records, never move
/// valgrind's own to another pid.
pub fn logs_by_process(stream: &str) -> BTreeMap<u64, String> {
    /// The marks of `line`: where each starts, where its text starts, its pid,
    /// its kind (`=` or `-`).
    fn marks(line: &str) -> Vec<(usize, usize, u64, char)> {
        let bytes = line.as_bytes();
        let mut found = Vec::new();
        let mut i = 0;
        while i + 1 < bytes.len() {
            let kind = bytes[i];
            if !matches!(kind, b'=' | b'-') || bytes[i + 1] != kind {
                i += 1;
                continue;
            }
            let digits = bytes[i + 2..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let end = i + 2 + digits;
            let closed = digits > 0 && bytes[end..].starts_with(&[kind, kind]);
            match line[i + 2..end].parse::<u64>() {
                Ok(pid) if closed => {
                    found.push((i, end + 2, pid, char::from(kind)));
                    i = end + 2;
                }
                _ => i += 1,
            }
        }
        found
    }
    let mut logs: BTreeMap<u64, String> = BTreeMap::new();
    for line in stream.lines() {
        let marks = marks(line);
        for (k, &(_, text, pid, kind)) in marks.iter().enumerate() {
            let end = marks.get(k + 1).map_or(line.len(), |m| m.0);
            let log = logs.entry(pid).or_default();
            log.push_str(&format!(
                "{kind}{kind}{pid}{kind}{kind}{}\n",
                &line[text..end]
            ));
        }
    }
    logs
}

/// Bytes of valgrind's stream kept for one test; the rest is read and
/// dropped (its processes then lack their summaries: [`ProcessLog::Unfinished`]).
pub const LOG_CAP: usize = 16 << 20;

/// Opens the FIFO `fifo` for reading without waiting for a writer (reads
/// then never block: an empty FIFO reads as 0 bytes without writers, as
/// `WouldBlock` with).
///
/// # Errors
/// The I/O error of opening it.
pub fn open_fifo_reader(fifo: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(fifo)
}

/// Runs `run` while reading everything written to the FIFO that `reader`
/// has open (from [`open_fifo_reader`], before `run` starts, so writers
/// never wait for a reader), and returns its result and the bytes read, at
/// most [`LOG_CAP`]. Reading goes on until `run` has returned and the FIFO
/// is empty; a sandboxed command's processes are all gone by then (its PID
/// namespace ends with it).
pub fn read_fifo_while<T>(reader: &fs::File, run: impl FnOnce() -> T) -> (T, Vec<u8>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut reader = reader;
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let collector = scope.spawn(|| {
            let mut kept = Vec::new();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                // Read before looking: once `done` is seen, one more empty read means
                // nothing is left.
                let finished = done.load(Ordering::Acquire);
                match reader.read(&mut buf) {
                    Ok(n) if n > 0 => {
                        let room = LOG_CAP.saturating_sub(kept.len());
                        kept.extend_from_slice(&buf[..n.min(room)]);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    // Empty: no writer (0), or writers with nothing to say (would block).
                    Ok(_) | Err(_) if finished => break kept,
                    Ok(_) | Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        let result = run();
        done.store(true, Ordering::Release);
        let kept = collector.join().unwrap_or_default();
        (result, kept)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One stream for every process, as valgrind writes it to the grader's FIFO: a shell
    /// that `exec`s the program (one pid, two programs), make beside it, lines interleaved.
    const STREAM: &str = "==40== Memcheck, a memory error detector\n\
        ==40== Command: /bin/sh -c ./homework\n\
        ==41== Memcheck, a memory error detector\n\
        ==41== Command: /usr/bin/make -s run\n\
        ==40== Memcheck, a memory error detector\n\
        ==40== Command: ./homework\n\
        ==40== \n\
        ==41==    definitely lost: 16 bytes in 1 blocks\n\
        ==40== Invalid read of size 4\n\
        ==40==    at 0x1091A2: main (homework.c:7)\n\
        ==40== \n\
        ==40==    definitely lost: 40 bytes in 1 blocks\n\
        ==41== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n\
        a line of the program's own, unmarked\n\
        ==40== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)\n";

    #[test]
    fn options_the_grader_did_not_give_make_a_log_tampered() {
        // valgrind -v lists the options in effect: those of VALGRIND_OPTS and .valgrindrc
        // first, then the command line's (valgrind 3.19, a traced child).
        let log = |extra: &str| {
            format!(
                "==7== Command: ./homework\n--7-- Valgrind options:\n{extra}--7--    -v\n\
                 --7--    --trace-children=yes\n--7--    --leak-check=full\n\
                 --7--    --errors-for-leak-kinds=none\n--7--    --log-file=/logs/log\n\
                 --7-- Contents of /proc/version:\n--7--   Linux version 6\n\
                 ==7== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 1 from 1)\n"
            )
        };
        let honest = log("");
        assert!(foreign_options(&honest).is_empty());
        assert_eq!(
            parse_valgrind_log(&honest),
            ProcessLog::Own(MemCheck::default())
        );
        let rc = log("--7--    --suppressions=/sub/all.supp\n--7--    --num-callers=1\n");
        assert_eq!(
            foreign_options(&rc),
            ["--suppressions=/sub/all.supp", "--num-callers=1"]
        );
        assert_eq!(parse_valgrind_log(&rc), ProcessLog::Tampered);
        // A machine program's log is tampered too: its options reach the submission's children.
        let make = rc.replace("./homework", "/usr/bin/make run");
        assert_eq!(parse_valgrind_log(&make), ProcessLog::Tampered);
    }

    #[test]
    fn valgrind_logs_count_the_program_only() {
        let program = "==7== Command: ./prog\n==7== \n==7== LEAK SUMMARY:\n\
             ==7==    definitely lost: 1,040 bytes in 2 blocks\n\
             ==7==    indirectly lost: 0 bytes in 0 blocks\n\
             ==7== ERROR SUMMARY: 3 errors from 1 contexts (suppressed: 0 from 0)\n";
        assert_eq!(
            parse_valgrind_log(program),
            ProcessLog::Own(MemCheck {
                errors: 3,
                definitely_lost: 1040,
                indirectly_lost: 0
            })
        );
        let make =
            "==6== Command: /usr/bin/make run\n==6== ERROR SUMMARY: 0 errors from 0 contexts\n";
        assert_eq!(parse_valgrind_log(make), ProcessLog::System);
        // The machine's programs are not the submission's; its own `./sh` is.
        for system in ["/bin/sh -c ./prog", "/usr/bin/rm -f x", "/usr/bin/cat in"] {
            let log =
                format!("==6== Command: {system}\n==6== ERROR SUMMARY: 2 errors from 1 contexts\n");
            assert_eq!(parse_valgrind_log(&log), ProcessLog::System, "{system}");
        }
        let own = "==9== Command: ./sh\n==9== ERROR SUMMARY: 2 errors from 1 contexts\n";
        assert!(matches!(parse_valgrind_log(own), ProcessLog::Own(c) if c.errors == 2));
        let clean = "==8== Command: /x/homework\n==8== All heap blocks were freed -- no leaks are possible\n\
                     ==8== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n";
        assert!(matches!(parse_valgrind_log(clean), ProcessLog::Own(c) if !c.bad()));
        // Killed before its summary: nothing to trust.
        let killed = "==5== Command: ./prog\n==5== Invalid read of size 4\n";
        assert_eq!(parse_valgrind_log(killed), ProcessLog::Unfinished);
    }

    #[test]
    fn valgrinds_stream_splits_by_process() {
        let logs = logs_by_process(STREAM);
        assert_eq!(logs.keys().copied().collect::<Vec<_>>(), [40, 41]);
        assert_eq!(parse_valgrind_log(&logs[&41]), ProcessLog::System);
        assert_eq!(
            parse_valgrind_log(&logs[&40]),
            ProcessLog::Own(MemCheck {
                errors: 1,
                definitely_lost: 40,
                indirectly_lost: 0
            })
        );
        let first = first_valgrind_error(&logs[&40]).unwrap();
        assert_eq!(first.what, "Invalid read of size 4");
        assert_eq!(first.stack, ["at 0x1091A2: main (homework.c:7)"]);
    }

    #[test]
    fn lines_added_to_the_stream_count_for_more_never_less() {
        // What a submission that opens the FIFO can add, after or before the real lines: a
        // clean summary for the program's pid, a machine program's header for it, a clean
        // log under another pid.
        let forged = "==40== Memcheck, a memory error detector\n\
            ==40== Command: /bin/true\n\
            ==40== All heap blocks were freed -- no leaks are possible\n\
            ==40==    definitely lost: 0 bytes in 0 blocks\n\
            ==40== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n\
            ==99== Command: ./homework\n\
            ==99== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n";
        let real = logs_by_process(STREAM);
        for stream in [format!("{STREAM}{forged}"), format!("{forged}{STREAM}")] {
            let logs = logs_by_process(&stream);
            assert_eq!(
                parse_valgrind_log(&logs[&40]),
                parse_valgrind_log(&real[&40]),
                "{stream}"
            );
            assert_eq!(parse_valgrind_log(&logs[&41]), ProcessLog::System);
            assert!(matches!(parse_valgrind_log(&logs[&99]), ProcessLog::Own(c) if !c.bad()));
        }
        // A machine program's pid given a line naming the submission's program counts as its.
        let claimed = format!("{STREAM}==41== Command: ./homework\n");
        let logs = logs_by_process(&claimed);
        assert!(matches!(parse_valgrind_log(&logs[&41]), ProcessLog::Own(c) if c.bad()));
        // Text written without a line end sticks to the front of valgrind's next line: a
        // machine program's mark there does not take valgrind's records from their pid.
        let glued = STREAM.replace(
            "==40== ERROR SUMMARY",
            "==41== Command: /bin/true ==41== ERROR SUMMARY: 0 ==40== ERROR SUMMARY",
        );
        let glued = glued.replace("==40==    definitely", "==41====40====    definitely");
        let logs = logs_by_process(&glued);
        assert_eq!(
            parse_valgrind_log(&logs[&40]),
            parse_valgrind_log(&real[&40])
        );
        assert_eq!(parse_valgrind_log(&logs[&41]), ProcessLog::System);
    }

    #[test]
    fn a_machine_program_that_loaded_a_file_of_the_submissions_is_its() {
        // `LD_PRELOAD=./libp.so /usr/bin/true`, as `valgrind -v` logs it.
        let preloaded = "==9== Command: /usr/bin/true\n\
            --9-- Reading syms from /usr/bin/true\n\
            --9-- Reading syms from /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\n\
            --9-- Reading syms from /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so\n\
            --9-- Reading syms from /sub/libp.so\n\
            ==9==    definitely lost: 10 bytes in 1 blocks\n\
            ==9== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n";
        assert_eq!(
            parse_valgrind_log(preloaded),
            ProcessLog::Own(MemCheck {
                errors: 0,
                definitely_lost: 10,
                indirectly_lost: 0
            })
        );
        let machine = preloaded.replace("--9-- Reading syms from /sub/libp.so\n", "");
        assert_eq!(parse_valgrind_log(&machine), ProcessLog::System);
        // `-v`'s marks split like the others.
        let logs = logs_by_process(&format!("junk{preloaded}"));
        assert_eq!(parse_valgrind_log(&logs[&9]), parse_valgrind_log(preloaded));
    }

    #[test]
    fn only_plain_paths_in_the_system_folders_are_the_machines() {
        for system in [
            "/bin/sh -c ./homework",
            "/usr/bin/cat in",
            "/usr/lib/git-core/git-add x",
        ] {
            assert!(names_a_system_program(system), "{system}");
        }
        // A bare name is one an `execve` found in the working directory; `..` leaves the
        // system folders; no program at all is not the machine's either.
        for own in [
            "./homework",
            "./sh -c x",
            "homework",
            "cat in",
            "/usr/../sub/homework",
            "/bin/./../sub/x",
            "//usr/bin/cat",
            "/lib64/ld-linux-x86-64.so.2 ./homework",
            "/usr/lib/ld.so ./homework",
            "/tmp/a.out",
            "",
        ] {
            assert!(!names_a_system_program(own), "{own}");
        }
    }

    #[test]
    fn the_fifo_is_read_while_its_writer_runs_and_after() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("log");
        nix::unistd::mkfifo(
            &fifo,
            nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
        )
        .unwrap();
        // More than a pipe holds, so the writer must wait for the reader; and past the cap.
        let line = "==7== ".to_owned() + &"x".repeat(1000) + "\n";
        let lines = LOG_CAP / line.len() + 100;
        let reader = open_fifo_reader(&fifo).unwrap();
        let (written, read) = read_fifo_while(&reader, || {
            let mut w = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            for _ in 0..lines {
                w.write_all(line.as_bytes()).unwrap();
            }
            lines * line.len()
        });
        assert!(written > LOG_CAP);
        assert_eq!(read.len(), LOG_CAP);
        assert!(read.starts_with(line.as_bytes()));
        // Nothing written: an empty stream, at once.
        let (_, read) = read_fifo_while(&reader, || ());
        assert!(read.is_empty());
    }

    #[test]
    fn the_first_valgrind_error_with_its_stack() {
        let log = "==9== Memcheck, a memory error detector\n==9== Command: ./homework\n==9== \n\
             ==9== Invalid read of size 4\n==9==    at 0x1091A5: scarabs (homework.c:120)\n\
             ==9==    by 0x109DEF: main (homework.c:300)\n\
             ==9==  Address 0x0 is not stack'd, malloc'd or (recently) free'd\n==9== \n\
             ==9== Process terminating with default action of signal 11 (SIGSEGV)\n\
             ==9==    at 0x1091A5: scarabs (homework.c:120)\n==9== \n\
             ==9== HEAP SUMMARY:\n==9==     in use at exit: 0 bytes in 0 blocks\n";
        let e = first_valgrind_error(log).unwrap();
        assert_eq!(e.what, "Invalid read of size 4");
        assert_eq!(
            e.stack,
            [
                "at 0x1091A5: scarabs (homework.c:120)",
                "by 0x109DEF: main (homework.c:300)",
                "Address 0x0 is not stack'd, malloc'd or (recently) free'd"
            ]
        );
        // A possibly lost record is not counted; the definite one is.
        let leaks = "==3== 8 bytes in 1 blocks are possibly lost in loss record 1 of 2\n\
             ==3==    at 0x4848899: malloc (vg_replace_malloc.c:381)\n==3== \n\
             ==3== 40 bytes in 1 blocks are definitely lost in loss record 2 of 2\n\
             ==3==    at 0x4848899: malloc (vg_replace_malloc.c:381)\n\
             ==3==    by 0x1091A5: deck_new (homework.c:12)\n==3== \n";
        let e = first_valgrind_error(leaks).unwrap();
        assert!(e
            .what
            .starts_with("40 bytes in 1 blocks are definitely lost"));
        assert_eq!(e.stack.len(), 2);
        // Valgrind's warning after a large allocation is not the error it precedes.
        let warned = "==4== Warning: set address range perms: large range [0x59c8040, 0x17d93c40) (undefined)\n\
             ==4== Invalid read of size 1\n==4==    at 0x109200: main (homework.c:9)\n==4== \n";
        let e = first_valgrind_error(warned).unwrap();
        assert_eq!(e.what, "Invalid read of size 1");
        assert_eq!(e.stack, ["at 0x109200: main (homework.c:9)"]);
        // Nor are `-v`'s redirection notes.
        let verbose = "==4== WARNING: new redirection conflicts with existing -- ignoring it\n\
             ==4==     old: 0x04025410 (strlen              ) R-> (0000.0) 0x580c9ce2 ???\n\
             ==4== Preferring higher priority redirection:\n\
             ==4== Invalid write of size 4\n==4==    at 0x109210: main (homework.c:10)\n==4== \n";
        let e = first_valgrind_error(verbose).unwrap();
        assert_eq!(e.what, "Invalid write of size 4");
        assert_eq!(e.stack, ["at 0x109210: main (homework.c:10)"]);
        assert_eq!(
            first_valgrind_error("==1== All heap blocks were freed\n"),
            None
        );
    }
}
