//! The one child-process layer of the servers (`durak-server`, `coup-arbiter`,
//! `ioiwari-referee`) and of anything else that runs untrusted programs under
//! limits (the homework grader).
//!
//! Every child runs in its own process group (`setpgid(0, 0)` through std's
//! [`CommandExt::process_group`]), and the *whole group* is killed with
//! `SIGKILL` when the child is finished, timed out, faulted or dropped, so a
//! bot's own children (a `sh -c` wrapper's program, a helper it forked) never
//! outlive it. The group is killed while the leader is still an unreaped
//! zombie, so its id cannot have been reused by then.
//!
//! What a child writes is bounded: stdout lines at most [`Limits::max_line`]
//! bytes, stdout in all at most [`Limits::max_output`] bytes (per call for
//! [`Spec::run`], per lifetime for [`Spec::spawn`], where every line counts at
//! least [`LINE_COST`] bytes); a child over either limit
//! is killed at once and the fault says so, unless a [`Spec::run`] call asked
//! to keep the first bytes and drop the rest ([`Spec::truncate_output`]).
//! What a line session sends it is bounded in time: a child that stops
//! reading its stdin until the pipe is full is killed once a line has waited
//! [`Limits::input_timeout`] to be taken ([`Fault::InputBlocked`]).
//! Stderr goes nowhere, to the server's stderr, or to a buffer keeping its
//! last bytes ([`Stderr::Capture`]) or its first ones ([`Stderr::Head`]).
//! Fault texts quote at most [`QUOTE_BYTES`] bytes of what a child wrote
//! ([`quote`]).
//!
//! Two uses:
//! - [`Spec::spawn`] + [`Child::send_line`] / [`Child::recv_line`]: a
//!   line-protocol session (Durak, Ioiwari), each answer awaited at most a
//!   given time;
//! - [`Spec::run`]: one call with a time limit (a Coup decision, a graded
//!   homework run): optional stdin bytes, bounded stdout and stderr back;
//!   [`Spec::run_watched`] also asks a caller's check at intervals whether to
//!   stop it (the grader's disk limit).
//!
//! Beyond the program and its arguments a [`Spec`] may set its folder, its
//! environment ([`Spec::env`], [`Spec::env_remove`]) and the uid and gid it
//! runs as ([`Spec::user`]). How a child ended is its [`ExitStatus`] (the
//! signal that killed it through
//! [`ExitStatusExt::signal`](std::os::unix::process::ExitStatusExt::signal)),
//! or the [`Fault`] it was killed for.
//!
//! A program can leave its group (`setsid`). In a server that called
//! [`adopt_orphans`] such an escapee is handed to the server when its parent
//! dies (Linux's child subreaper) and killed with its own group right after
//! the child it came from is reaped ([`kill_orphans`]); elsewhere it is
//! handed to init and outlives the server (the grader runs its children in a
//! PID namespace instead, which ends them all).
//!
//! Each child has up to three helper threads (stdout, stderr, exit watcher).
//! They end when the child's group is dead and its pipes are closed; an
//! escapee that keeps a pipe open keeps one reader thread blocked until it
//! exits, but never blocks the caller.

use std::collections::{BTreeSet, VecDeque};
use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub use crate::quote::{quote, QUOTE_BYTES};

use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

/// How long to wait for a killed group's leader to be reported dead, and for
/// the output pipes to close after the child exited.
const KILL_WAIT: Duration = Duration::from_secs(5);
const DRAIN_WAIT: Duration = Duration::from_millis(200);

/// The least a stdout line of a line session ([`Spec::spawn`]) counts against
/// [`Limits::max_output`], its `'\n'` included: each line waits in an
/// unbounded queue until [`Child::recv_line`] takes it, and an empty line
/// costs that queue some 40 bytes, so a flood of bare newlines would otherwise
/// queue a million of them under a 1 MiB limit (tens of MB per child). At 64
/// bytes a line the queue holds at most `max_output / 64` lines; the
/// protocols' lines are far fewer than that in a whole game.
pub const LINE_COST: u64 = 64;

/// Where a child's stderr goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stderr {
    /// Discarded (`/dev/null`).
    Null,
    /// The server's own stderr (unbounded: for debugging a bot by hand).
    Inherit,
    /// Read into a buffer that keeps the last this many bytes
    /// ([`Child::stderr_tail`], [`Run::stderr`]).
    Capture(usize),
    /// Read into a buffer that keeps the first this many bytes; the rest is
    /// read and dropped ([`Child::stderr_tail`], [`Run::stderr`]).
    Head(usize),
}

/// Output limits of a child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest stdout line in bytes, its `'\n'` excluded (line sessions only).
    pub max_line: usize,
    /// Most stdout bytes in all: per call for [`Spec::run`], per child for
    /// [`Spec::spawn`], where each line counts at least [`LINE_COST`] bytes.
    pub max_output: u64,
    /// How long [`Child::send_line`] waits for the child to make room in its
    /// stdin pipe (line sessions only). The pipe holds 64 KiB on Linux, so a
    /// line waits only when the child has stopped reading its input; past this
    /// time its group is killed ([`Fault::InputBlocked`]).
    pub input_timeout: Duration,
}

impl Default for Limits {
    /// 4 KiB lines, 1 MiB of output: a hundred times what any of the three
    /// protocols needs for a whole game; 5 s for a full stdin pipe to take a
    /// line.
    fn default() -> Limits {
        Limits {
            max_line: 4096,
            max_output: 1 << 20,
            input_timeout: Duration::from_secs(5),
        }
    }
}

/// How a child misbehaved (or ended) instead of answering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// No line (or, for [`Spec::run`], no exit) within this time.
    Timeout(Duration),
    /// Its stdout closed: it exited (with this status when known).
    Closed(Option<ExitStatus>),
    /// A stdout line longer than the limit; the line's first bytes.
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
        /// [`quote`] of the line's start.
        start: String,
    },
    /// More stdout than the limit in all.
    TooMuchOutput(u64),
    /// A line that is not UTF-8 ([`quote`] of it).
    NotUtf8(String),
    /// Its stdin is closed (it exited or closed it) so a line could not be sent.
    InputClosed,
    /// Its stdin pipe stayed full for this long ([`Limits::input_timeout`]):
    /// it stopped reading its input, and a line could not be sent.
    InputBlocked(Duration),
    /// Reading its output failed.
    Read(String),
    /// The caller's check asked to stop it ([`Spec::run_watched`]).
    Stopped,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout(t) => write!(f, "no answer within {} ms", t.as_millis()),
            Fault::Closed(Some(s)) => write!(f, "closed its output ({s})"),
            Fault::Closed(None) => f.write_str("closed its output (exited?)"),
            Fault::LineTooLong { limit, start } => {
                write!(f, "a line longer than {limit} bytes: {start}")
            }
            Fault::TooMuchOutput(n) => write!(f, "wrote more than {n} bytes"),
            Fault::NotUtf8(q) => write!(f, "a line that is not UTF-8: {q}"),
            Fault::InputClosed => f.write_str("closed its input (exited?)"),
            Fault::InputBlocked(t) => {
                write!(f, "did not read its input within {} ms", t.as_millis())
            }
            Fault::Read(e) => write!(f, "unreadable output: {e}"),
            Fault::Stopped => f.write_str("stopped by its supervisor"),
        }
    }
}

/// What to run: a program, its arguments, folder, environment, user, stdin,
/// stderr and limits.
#[derive(Debug, Clone)]
pub struct Spec {
    program: OsString,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    /// Changes to the inherited environment, in order (`None`: removed).
    env: Vec<(OsString, Option<OsString>)>,
    /// The uid and gid to run as.
    user: Option<(u32, u32)>,
    input: Option<Vec<u8>>,
    stderr: Stderr,
    limits: Limits,
    /// [`Spec::run`] keeps the first [`Limits::max_output`] bytes of stdout
    /// rather than killing the child past them.
    truncate: bool,
}

impl Spec {
    /// `program` (a path, or a name looked up in `PATH`) with no arguments,
    /// stderr discarded, default [`Limits`].
    pub fn new(program: impl Into<OsString>) -> Spec {
        Spec {
            program: program.into(),
            args: Vec::new(),
            dir: None,
            env: Vec::new(),
            user: None,
            input: None,
            stderr: Stderr::Null,
            limits: Limits::default(),
            truncate: false,
        }
    }

    /// `sh -c COMMAND`: the command line as a shell reads it. The shell and
    /// everything it starts share the child's process group.
    pub fn shell(command: &str) -> Spec {
        Spec::new("sh").arg("-c").arg(command)
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Spec {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Spec {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Runs the child in `dir`.
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Spec {
        self.dir = Some(dir.into());
        self
    }

    /// Sets the environment variable `key` to `value` (the rest of the
    /// environment is inherited).
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Spec {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    /// Removes the environment variable `key` from what it inherits.
    pub fn env_remove(mut self, key: impl Into<OsString>) -> Spec {
        self.env.push((key.into(), None));
        self
    }

    /// Runs it as user `uid` and group `gid` (with no supplementary groups):
    /// for a caller running as root that hands the child to an unprivileged
    /// id.
    pub fn user(mut self, uid: u32, gid: u32) -> Spec {
        self.user = Some((uid, gid));
        self
    }

    /// For [`Spec::run`]: these bytes on its stdin, then end of file (else
    /// stdin is `/dev/null`). [`Spec::spawn`] always gives a pipe.
    pub fn input(mut self, bytes: impl Into<Vec<u8>>) -> Spec {
        self.input = Some(bytes.into());
        self
    }

    /// Where its stderr goes.
    pub fn stderr(mut self, stderr: Stderr) -> Spec {
        self.stderr = stderr;
        self
    }

    /// Its output limits.
    pub fn limits(mut self, limits: Limits) -> Spec {
        self.limits = limits;
        self
    }

    /// For [`Spec::run`] when `truncate` is `true`: stdout past
    /// [`Limits::max_output`] is read and dropped, the first
    /// [`Limits::max_output`] bytes kept, and the child goes on (no
    /// [`Fault::TooMuchOutput`]). A line session ([`Spec::spawn`]) is killed
    /// past its limits whatever this says.
    pub fn truncate_output(mut self, truncate: bool) -> Spec {
        self.truncate = truncate;
        self
    }

    fn command(&self, stdin: Stdio) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(match self.stderr {
                Stderr::Null => Stdio::null(),
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Capture(_) | Stderr::Head(_) => Stdio::piped(),
            })
            .process_group(0);
        if let Some(dir) = &self.dir {
            c.current_dir(dir);
        }
        for (key, value) in &self.env {
            match value {
                Some(value) => c.env(key, value),
                None => c.env_remove(key),
            };
        }
        if let Some((uid, gid)) = self.user {
            // std drops the supplementary groups too when root sets a uid.
            c.uid(uid).gid(gid);
        }
        c
    }

    /// Starts a line session: stdin a pipe ([`Child::send_line`]), stdout read
    /// as lines ([`Child::recv_line`]).
    ///
    /// # Errors
    /// The operating system's error when the program cannot be started.
    pub fn spawn(&self) -> io::Result<Child> {
        let child = Child::start(self, Mode::Lines, Stdio::piped())?;
        // Our end of its stdin does not block: [`Child::send_line`] waits for
        // room itself, at most [`Limits::input_timeout`].
        if let Some(w) = &child.stdin {
            let flags = fcntl(w.as_fd(), FcntlArg::F_GETFL).map_err(io::Error::from)?;
            let flags = OFlag::from_bits_retain(flags) | OFlag::O_NONBLOCK;
            fcntl(w.as_fd(), FcntlArg::F_SETFL(flags)).map_err(io::Error::from)?;
        }
        Ok(child)
    }

    /// One call: starts the program, feeds [`Spec::input`], and waits at
    /// most `timeout` for it to exit; the whole group is killed afterwards in
    /// every case. A timeout or an output limit is a [`Run::fault`], not an
    /// error.
    ///
    /// # Errors
    /// The operating system's error when the program cannot be started.
    pub fn run(&self, timeout: Duration) -> io::Result<Run> {
        self.run_with(timeout, None)
    }

    /// [`Spec::run`], and every `every` while the child runs `stop` is asked
    /// whether to stop it: a `true` kills its group at once, with
    /// [`Fault::Stopped`] as the [`Run::fault`]. The time limit is checked
    /// first, so a child past it is [`Fault::Timeout`] whatever `stop` says.
    ///
    /// # Errors
    /// The operating system's error when the program cannot be started.
    pub fn run_watched(
        &self,
        timeout: Duration,
        every: Duration,
        mut stop: impl FnMut() -> bool,
    ) -> io::Result<Run> {
        self.run_with(timeout, Some((every, &mut stop)))
    }

    fn run_with(
        &self,
        timeout: Duration,
        mut watch: Option<(Duration, &mut dyn FnMut() -> bool)>,
    ) -> io::Result<Run> {
        let stdin = if self.input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut child = Child::start(self, Mode::Whole, stdin)?;
        if let (Some(bytes), Some(mut w)) = (self.input.clone(), child.stdin.take()) {
            // A thread, so a child that does not read cannot block the caller;
            // its write fails once the group is killed.
            thread::spawn(move || {
                let _ = w.write_all(&bytes);
            });
        }
        let deadline = child.started + timeout;
        let mut stdout = None;
        let mut fault = None;
        // Until it exits, or faults, or time is up.
        while !child.exited {
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = match &watch {
                Some((every, _)) => left.min(*every),
                None => left,
            };
            match child.events.recv_timeout(wait) {
                Ok(Event::Exited) => child.exited = true,
                Ok(Event::Whole(bytes)) => stdout = Some(bytes),
                Ok(Event::Fault(f)) => {
                    fault = Some(f);
                    break;
                }
                Ok(Event::Lines(_) | Event::Eof) => {}
                Err(RecvTimeoutError::Timeout) => {
                    if watch.is_none() || Instant::now() >= deadline {
                        fault = Some(Fault::Timeout(timeout));
                        break;
                    }
                    if let Some((_, stop)) = watch.as_mut() {
                        if stop() {
                            fault = Some(Fault::Stopped);
                            break;
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        let runtime = child.started.elapsed();
        let exited = child.exited;
        child.kill_group();
        // The output written before the end (its exit, or the kill at the
        // time limit or a stop) is still in the pipe: collect it. A reader
        // that reported a fault has stopped reading.
        let mut reading = matches!(fault, None | Some(Fault::Timeout(_) | Fault::Stopped));
        let until = Instant::now() + DRAIN_WAIT;
        while stdout.is_none() && reading {
            match child
                .events
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(Event::Whole(bytes)) => stdout = Some(bytes),
                Ok(Event::Fault(f)) => {
                    reading = false;
                    fault.get_or_insert(f);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let status = child.reap();
        Ok(Run {
            status: if exited { status } else { None },
            stdout: stdout.unwrap_or_default(),
            stderr: child.stderr_bytes(),
            fault,
            runtime,
            elapsed: child.started.elapsed(),
        })
    }
}

/// The result of [`Spec::run`].
#[derive(Debug, Clone)]
pub struct Run {
    /// The exit status; `None` when it was killed (timeout, output limit,
    /// stopped).
    pub status: Option<ExitStatus>,
    /// Its stdout (at most [`Limits::max_output`] bytes): what it wrote until
    /// it exited, or was killed at the time limit or stopped; empty after an
    /// output fault.
    pub stdout: Vec<u8>,
    /// The last bytes of its stderr under [`Stderr::Capture`], the first ones
    /// under [`Stderr::Head`], else empty.
    pub stderr: Vec<u8>,
    /// Why it was killed: [`Fault::Timeout`], [`Fault::TooMuchOutput`] or
    /// [`Fault::Stopped`].
    pub fault: Option<Fault>,
    /// From start to its exit, or to the moment it was found to be over a
    /// limit (or stopped) and killed.
    pub runtime: Duration,
    /// From start to the end of the call, the kill and reaping included.
    pub elapsed: Duration,
}

impl Run {
    /// `true` when it exited with status 0 within its limits.
    pub fn success(&self) -> bool {
        self.fault.is_none() && self.status.is_some_and(|s| s.success())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Lines,
    Whole,
}

enum Event {
    /// The complete lines of one read, in order: lines written together
    /// arrive together ([`Child::waiting_line`] sees them all).
    Lines(Vec<Vec<u8>>),
    Whole(Vec<u8>),
    Eof,
    Fault(Fault),
    Exited,
}

/// Process groups of the children alive in this process (not yet reaped), so
/// an interrupted server can kill them all ([`kill_all`]).
static LIVE: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Process ids of the children started here and not reaped yet: what
/// [`kill_orphans`] leaves alone. Locked across a spawn, so a new child is in
/// the set before a sweep can see it, and left only after its reap.
static OURS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Set by [`adopt_orphans`].
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Set once SIGINT, SIGTERM or SIGHUP arrived ([`install_interrupt`]).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes this process the reaper of its descendants' orphans (Linux
/// `PR_SET_CHILD_SUBREAPER`): a bot's helper that left the bot's process
/// group (`setsid`) is handed to this process when its parent dies, instead
/// of to init, and [`kill_orphans`], run after every reap, kills it. For the
/// servers: every child of a process that calls this must be started through
/// this module, since any other child would be taken for an orphan.
///
/// The [`Adopted`] guard it returns kills the last orphans when the server
/// is done ([`kill_orphans_at_exit`]), whichever way it returns.
///
/// # Errors
/// A one-line message if the kernel refuses.
pub fn adopt_orphans() -> Result<Adopted, String> {
    nix::sys::prctl::set_child_subreaper(true)
        .map_err(|e| format!("cannot adopt orphaned processes: {e}"))?;
    ADOPTING.store(true, Ordering::SeqCst);
    Ok(Adopted(()))
}

/// Returned by [`adopt_orphans`]: dropped, it runs [`kill_orphans_at_exit`].
#[must_use = "dropping it at once kills the orphans before any game is played"]
pub struct Adopted(());

impl Drop for Adopted {
    fn drop(&mut self) {
        kill_orphans_at_exit();
    }
}

/// After [`adopt_orphans`]: kills (`SIGKILL`, with the process group it
/// leads) and reaps every child of this process that this module did not
/// start, i.e. an orphan handed over by the kernel. A no-op without
/// [`adopt_orphans`].
pub fn kill_orphans() {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    let Ok(ours) = OURS.lock() else {
        return;
    };
    for pid in own_children() {
        let pid = pid as i32;
        if ours.contains(&pid) {
            continue;
        }
        let p = Pid::from_raw(pid);
        // A pid is not reused while a group of that id lives, so the group
        // named `pid` is the one it leads, if any.
        let _ = killpg(p, Signal::SIGKILL);
        let _ = kill(p, Signal::SIGKILL);
        reap_orphan(p);
    }
}

/// [`kill_orphans`] at a server's end: once more after a short pause, for
/// the orphans of processes that were still dying at the last reap.
pub fn kill_orphans_at_exit() {
    // Without adoption there is nothing to sweep, and no pause to make.
    if ADOPTING.load(Ordering::SeqCst) {
        kill_orphans();
        thread::sleep(Duration::from_millis(50));
        kill_orphans();
    }
}

/// Reaps a killed orphan, waiting at most [`DRAIN_WAIT`]; one that takes
/// longer stays a zombie until the next sweep.
fn reap_orphan(p: Pid) {
    let until = Instant::now() + DRAIN_WAIT;
    while let Ok(WaitStatus::StillAlive) =
        waitid(Id::Pid(p), WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG)
    {
        if Instant::now() > until {
            return;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Kills (`SIGKILL`) the process group of every child of this process that is
/// not reaped yet. Their callers see them close their output.
pub fn kill_all() {
    // Under the lock: a child leaves the set before it is reaped, so every id
    // here is still its group's.
    if let Ok(live) = LIVE.lock() {
        for &pgid in live.iter() {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP stop a server cleanly: the first one sets
/// [`interrupted`] and kills every child's group ([`kill_all`]), so running
/// games end at once and the server can report the finished ones; a second
/// one exits at once with status 130 (children killed first).
///
/// # Errors
/// A one-line message if the handler cannot be installed (or already was).
pub fn install_interrupt() -> Result<(), String> {
    ctrlc::set_handler(|| {
        let again = INTERRUPTED.swap(true, Ordering::SeqCst);
        kill_all();
        if again {
            kill_orphans();
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot handle interruption: {e}"))
}

/// Whether the process was interrupted ([`install_interrupt`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Parses the program's command line like clap's `Parser::parse`, except that a usage error
/// is one line on stderr, `PROGRAM: MESSAGE (see --help)`, with exit status 2 (clap prints the
/// message, the usage and a tip on several lines). `--help` and `--version` print as usual,
/// on stdout with exit status 0; when stdout cannot take them (a full disk, a closed pipe),
/// one line on stderr and exit status 1 (clap's own printing exited 0).
pub fn parse_args<T: clap::Parser>() -> T {
    parse_args_from(std::env::args_os())
}

/// [`parse_args`] over `argv` (the program's name first), for subcommands.
pub fn parse_args_from<T, I, S>(argv: I) -> T
where
    T: clap::Parser,
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let argv: Vec<OsString> = argv.into_iter().map(Into::into).collect();
    // The name it was run by (a subcommand's argv starts with `PROGRAM SUBCOMMAND`).
    let name = || {
        argv.first().map_or_else(
            || T::command().get_name().to_string(),
            |a| {
                let a = a.to_string_lossy();
                a.rsplit('/').next().unwrap_or(&a).to_string()
            },
        )
    };
    match T::try_parse_from(&argv) {
        Ok(args) => args,
        // Help and version on stdout, exit 0; exit 1 when stdout cannot take them (a full
        // disk, a closed pipe), where clap's own printing reported success.
        Err(e) if !e.use_stderr() => match print_stdout(&if io::stdout().is_terminal() {
            e.render().ansi().to_string()
        } else {
            e.render().to_string()
        }) {
            Ok(()) => std::process::exit(0),
            Err(why) => {
                crate::diag!("{}: {why}", name());
                std::process::exit(1);
            }
        },
        Err(e) => {
            crate::diag!("{}: {}", name(), usage_error_line(&e.render().to_string()));
            std::process::exit(2);
        }
    }
}

/// The one-line form of clap's rendered usage error: the lines before the first blank one
/// (the message, and the items it lists, such as missing arguments) joined, without the
/// `error: ` prefix, with a pointer to `--help` in place of the usage and tip that follow.
pub fn usage_error_line(rendered: &str) -> String {
    let head: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let text = head.join(" ");
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    format!("{text} (see --help)")
}

/// Writes a server's report to stdout in one go: a closed pipe or a full disk
/// is an error message (`cannot write to stdout: ...`), never a panic
/// (`print!` panics on them).
///
/// # Errors
/// The one-line message.
pub fn print_stdout(text: &str) -> Result<(), String> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

/// Delivers one Coup decision the way the arbiter reads it (`docs/rules/coup.md` §4):
/// `answer` appended to the history file `path`, and after an Exchange the kept cards
/// `keep` printed on stdout with a newline. A failure is one line on stderr, prefixed by
/// `program`: the arbiter then sees no answer, and the program has nothing better to do.
pub fn deliver_coup_answer(program: &str, path: &str, answer: &str, keep: Option<&str>) {
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(answer.as_bytes()));
    if let Err(e) = appended {
        crate::diag!("{program}: cannot append to {path}: {e}");
    }
    if let Some(keep) = keep {
        if let Err(e) = print_stdout(&format!("{keep}\n")) {
            crate::diag!("{program}: the kept cards {keep}: {e}");
        }
    }
}

/// Why an output file named on a command line cannot be written ([`check_outputs`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputError {
    /// The one-line message, without the program's name.
    pub message: String,
    /// Two flags name the same file: a usage error.
    pub same_file: bool,
}

impl OutputError {
    /// The program's exit status for it: 2 (a usage error) when two flags name the same file,
    /// else 1.
    pub fn status(&self) -> u8 {
        if self.same_file {
            2
        } else {
            1
        }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<OutputError> for String {
    fn from(e: OutputError) -> String {
        e.message
    }
}

/// Checks, before a run does any work, that each output file named on its command line can
/// be written: `outputs` pairs a flag (`"--json"`) with its path, if given. A run whose
/// report cannot be written would otherwise play every game and then fail, and a page's
/// replay folder would be left behind.
///
/// # Errors
/// Two flags naming the same file (`--json and --html name the same file r.json`; the second
/// would overwrite the first; [`OutputError::same_file`]), a path that is a folder, or one
/// that cannot be created or opened for writing. An existing file is opened for appending
/// and left unchanged; a new one is created and removed again.
pub fn check_outputs(outputs: &[(&str, Option<&std::path::Path>)]) -> Result<(), OutputError> {
    let fail = |message: String, same_file: bool| OutputError { message, same_file };
    let given: Vec<(&str, &std::path::Path)> = outputs
        .iter()
        .filter_map(|(flag, path)| path.map(|p| (*flag, p)))
        .collect();
    for (i, (flag, path)) in given.iter().enumerate() {
        let same =
            |p: &std::path::Path| std::path::absolute(p).ok() == std::path::absolute(path).ok();
        if let Some((other, _)) = given[..i].iter().find(|(_, p)| same(p)) {
            let message = format!("{other} and {flag} name the same file {}", path.display());
            return Err(fail(message, true));
        }
        if path.is_dir() {
            let message = format!("cannot write {}: it is a folder", path.display());
            return Err(fail(message, false));
        }
        let opened = if path.exists() {
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map(drop)
        } else {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .and_then(|_| std::fs::remove_file(path))
        };
        opened.map_err(|e| fail(format!("cannot write {}: {e}", path.display()), false))?;
    }
    Ok(())
}

/// Checks that the program a bot's command starts can run, before any game: when the
/// command's first word is a path (it holds `/`), it must be an executable file. A bare name
/// is left to the shell or `PATH` (it may be a shell builtin), and so is a word the shell
/// would rewrite first (a variable assignment `X=..`, quotes, `~`, `$`, a glob, a
/// backslash), so only a plain path is refused; a program that starts and fails still
/// forfeits its games as usual.
///
/// # Errors
/// `cannot run PATH: REASON`, one line.
pub fn check_program(command: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let Some(first) = command.split_whitespace().next() else {
        return Ok(());
    };
    let shell_word = first.contains(['=', '\'', '"', '\\', '~', '$', '*', '?', '[', '{', '`']);
    if !first.contains('/') || shell_word {
        return Ok(());
    }
    match std::fs::metadata(first) {
        Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => Ok(()),
        Ok(m) if m.is_dir() => Err(format!("cannot run {first}: it is a folder")),
        Ok(_) => Err(format!("cannot run {first}: not executable")),
        Err(e) => Err(format!("cannot run {first}: {e}")),
    }
}

/// A byte buffer filled by a reader thread.
type SharedBytes = Arc<Mutex<Vec<u8>>>;

/// A running child in its own process group.
#[derive(Debug)]
pub struct Child {
    child: std::process::Child,
    pgid: Pid,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// Lines received and not taken yet.
    lines: VecDeque<Vec<u8>>,
    /// The captured stderr and the reader's end-of-file signal.
    stderr: Option<(SharedBytes, Receiver<()>)>,
    stderr_cap: usize,
    /// [`Limits::input_timeout`].
    input_timeout: Duration,
    /// Set once the exit watcher reported the leader's exit (not reaped yet).
    exited: bool,
    /// Stdout closed.
    eof: bool,
    reaped: Option<Option<ExitStatus>>,
    started: Instant,
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Lines(l) => write!(f, "Lines({})", l.len()),
            Event::Whole(b) => write!(f, "Whole({})", quote(b)),
            Event::Eof => f.write_str("Eof"),
            Event::Fault(x) => write!(f, "Fault({x})"),
            Event::Exited => f.write_str("Exited"),
        }
    }
}

impl Child {
    fn start(spec: &Spec, mode: Mode, stdin: Stdio) -> io::Result<Child> {
        let started = Instant::now();
        let mut child = {
            // Under the lock, so no sweep ([`kill_orphans`]) sees it unlisted.
            let mut ours = OURS.lock().unwrap_or_else(|e| e.into_inner());
            let child = spec.command(stdin).spawn()?;
            ours.insert(child.id() as i32);
            child
        };
        let pid = Pid::from_raw(child.id() as i32);
        if let Ok(mut live) = LIVE.lock() {
            live.insert(pid.as_raw());
        }
        if interrupted() {
            // Started after the interruption's sweep: kill it now too.
            let _ = killpg(pid, Signal::SIGKILL);
        }
        let (tx, events) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            let tx = tx.clone();
            let limits = spec.limits;
            let truncate = spec.truncate && mode == Mode::Whole;
            thread::spawn(move || read_stdout(out, mode, limits, truncate, &tx));
        }
        let keep = match spec.stderr {
            Stderr::Capture(cap) => Some((cap, false)),
            Stderr::Head(cap) => Some((cap, true)),
            Stderr::Null | Stderr::Inherit => None,
        };
        let (stderr, stderr_cap) = match (keep, child.stderr.take()) {
            (Some((cap, head)), Some(err)) => {
                let buf = Arc::new(Mutex::new(Vec::new()));
                let b = Arc::clone(&buf);
                let (done_tx, done) = mpsc::channel();
                thread::spawn(move || {
                    if head {
                        read_head(err, cap, &b);
                    } else {
                        read_tail(err, cap, &b);
                    }
                    let _ = done_tx.send(());
                });
                (Some((buf, done)), cap)
            }
            _ => (None, 0),
        };
        // The exit watcher: waits without reaping, so the pid (= the group id)
        // stays taken until `reap`.
        thread::spawn(move || {
            while let Err(nix::errno::Errno::EINTR) =
                waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT)
            {}
            let _ = tx.send(Event::Exited);
        });
        Ok(Child {
            stdin: child.stdin.take(),
            child,
            pgid: pid,
            events,
            lines: VecDeque::new(),
            stderr,
            stderr_cap,
            input_timeout: spec.limits.input_timeout,
            exited: false,
            eof: false,
            reaped: None,
            started,
        })
    }

    /// The child's process id, which is also its process group's id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `line` and a `'\n'` to its stdin, waiting at most
    /// [`Limits::input_timeout`] for room in the pipe.
    ///
    /// # Errors
    /// [`Fault::InputClosed`] when its stdin is closed (it exited or closed
    /// it); [`Fault::InputBlocked`] when the pipe stayed full for
    /// [`Limits::input_timeout`] (it stopped reading), after which its group
    /// is already killed. Later sends fail with [`Fault::InputClosed`].
    pub fn send_line(&mut self, line: &str) -> Result<(), Fault> {
        let limit = self.input_timeout;
        let w = self.stdin.as_mut().ok_or(Fault::InputClosed)?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let deadline = Instant::now() + limit;
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let full = match w.write(rest) {
                Ok(0) => true,
                Ok(n) => {
                    rest = &rest[n..];
                    false
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => false,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => true,
                // EPIPE (std ignores SIGPIPE): it closed its end, perhaps by
                // dying of its own bad output, which is then the fault to name.
                Err(_) => {
                    self.stdin = None;
                    return Err(self.output_fault().unwrap_or(Fault::InputClosed));
                }
            };
            if !full {
                continue;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.stdin = None;
                self.kill_group();
                return Err(self.output_fault().unwrap_or(Fault::InputBlocked(limit)));
            }
            // Rounded up to whole milliseconds, so the wait never spins; ready,
            // timed out or interrupted, the loop writes again (a pipe whose
            // reader is gone is ready: the write says EPIPE).
            let ms = left.as_millis().saturating_add(1);
            let timeout = PollTimeout::try_from(ms).unwrap_or(PollTimeout::MAX);
            let mut fds = [PollFd::new(w.as_fd(), PollFlags::POLLOUT)];
            let _ = poll(&mut fds, timeout);
        }
        Ok(())
    }

    /// A fault of its output already reported by the reader (a line too
    /// long, too much output, a read error), taken without blocking, after
    /// which the group is killed; lines and end-of-file events on the way
    /// are kept for [`Child::recv_line`]. A failed send names this fault
    /// rather than its own symptom: a child killed by a broken pipe after
    /// its flood was cut closes its input too.
    fn output_fault(&mut self) -> Option<Fault> {
        loop {
            match self.next_event()? {
                Ok(()) => {}
                Err(f) => return Some(f),
            }
        }
    }

    /// Takes one event from the reader without blocking: `None` when none
    /// is waiting; lines, end of file and exit are recorded; a fault of the
    /// output is returned after its group is killed.
    fn next_event(&mut self) -> Option<Result<(), Fault>> {
        match self.events.try_recv() {
            Ok(Event::Lines(lines)) => self.lines.extend(lines),
            Ok(Event::Eof) => self.eof = true,
            Ok(Event::Exited) => self.exited = true,
            Ok(Event::Fault(f)) => {
                self.kill_group();
                return Some(Err(f));
            }
            Ok(Event::Whole(_)) => {}
            Err(_) => return None,
        }
        Some(Ok(()))
    }

    /// Closes its stdin (it reads end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, without its `'\n'` (and a `'\r'` before it),
    /// waiting at most `timeout`.
    ///
    /// # Errors
    /// [`Fault::Timeout`] when no line came in time (the child still runs);
    /// [`Fault::Closed`] once its stdout is closed; [`Fault::LineTooLong`],
    /// [`Fault::TooMuchOutput`], [`Fault::NotUtf8`], [`Fault::Read`] for bad
    /// output, after which the group is already killed.
    pub fn recv_line(&mut self, timeout: Duration) -> Result<String, Fault> {
        let mut deadline = Instant::now() + timeout;
        if self.exited {
            // Its exit was seen already ([`Child::waiting_line`]).
            deadline = deadline.min(Instant::now() + DRAIN_WAIT);
        }
        loop {
            if let Some(line) = self.next_line() {
                return line;
            }
            if self.eof {
                return Err(Fault::Closed(self.exit_status_soon()));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Lines(lines)) => self.lines.extend(lines),
                Ok(Event::Eof) => self.eof = true,
                Ok(Event::Exited) => {
                    self.exited = true;
                    // What it wrote before exiting arrives at once; a pipe
                    // held open by a straggler must not hold us to the timeout.
                    deadline = deadline.min(Instant::now() + DRAIN_WAIT);
                }
                Ok(Event::Fault(f)) => {
                    self.kill_group();
                    return Err(f);
                }
                Ok(Event::Whole(_)) => {}
                Err(RecvTimeoutError::Timeout) if self.exited => {
                    return Err(Fault::Closed(self.reap()))
                }
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout(timeout)),
                Err(RecvTimeoutError::Disconnected) => return Err(Fault::Closed(self.reap())),
            }
        }
    }

    /// A stdout line already written and waiting, taken without blocking
    /// (its `'\n'` and a `'\r'` before it removed): `Ok(None)` when no line is
    /// waiting, also when its output is closed ([`Child::recv_line`] reports
    /// that).
    ///
    /// # Errors
    /// Bad output as [`Child::recv_line`] reports it ([`Fault::LineTooLong`],
    /// [`Fault::TooMuchOutput`], [`Fault::NotUtf8`], [`Fault::Read`]), after
    /// which the group is already killed.
    pub fn waiting_line(&mut self) -> Result<Option<String>, Fault> {
        loop {
            if let Some(line) = self.next_line() {
                return line.map(Some);
            }
            match self.next_event() {
                None => return Ok(None),
                Some(result) => result?,
            }
        }
    }

    /// The first line received and not taken yet, if any: a line that is not
    /// UTF-8 kills the group.
    fn next_line(&mut self) -> Option<Result<String, Fault>> {
        let bytes = self.lines.pop_front()?;
        Some(String::from_utf8(bytes).map_err(|e| {
            self.kill_group();
            Fault::NotUtf8(quote(e.as_bytes()))
        }))
    }

    /// After end of file: the exit status if it exits within a short wait
    /// (then its group is killed and it is reaped: the session is over).
    fn exit_status_soon(&mut self) -> Option<ExitStatus> {
        self.wait_exit(DRAIN_WAIT);
        if self.exited {
            self.reap()
        } else {
            None
        }
    }

    /// Waits at most `limit` for the exit watcher's report.
    fn wait_exit(&mut self, limit: Duration) {
        let until = Instant::now() + limit;
        while !self.exited {
            match self
                .events
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(Event::Exited) => self.exited = true,
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }

    /// Ends the session: closes its stdin, gives it `grace` to exit on its
    /// own, then kills its whole group and reaps it. Returns the exit status
    /// (`None` if it had to be killed) and whether it was killed.
    pub fn finish(mut self, grace: Duration) -> Finish {
        self.stdin = None;
        if self.reaped.is_none() {
            self.wait_exit(grace);
        }
        let killed = !self.exited;
        self.kill_group();
        let status = self.reap();
        Finish {
            status: if killed { None } else { status },
            killed,
        }
    }

    /// The last bytes of its stderr under [`Stderr::Capture`] (the first
    /// ones under [`Stderr::Head`]), lossy UTF-8.
    pub fn stderr_tail(&self) -> String {
        String::from_utf8_lossy(&self.stderr_bytes()).into_owned()
    }

    fn stderr_bytes(&self) -> Vec<u8> {
        let Some((buf, done)) = &self.stderr else {
            return Vec::new();
        };
        if self.reaped.is_some() {
            // The group is dead: what it wrote is read within moments.
            let _ = done.recv_timeout(DRAIN_WAIT);
        }
        let b = buf.lock().map(|b| b.clone()).unwrap_or_default();
        let from = b.len().saturating_sub(self.stderr_cap);
        b[from..].to_vec()
    }

    /// Kills every process of its group (`SIGKILL`). Safe to repeat; a no-op
    /// once it is reaped.
    pub fn kill_group(&mut self) {
        if self.reaped.is_none() {
            // ESRCH (nothing left in the group) is the expected answer once
            // everyone exited on their own.
            let _ = killpg(self.pgid, Signal::SIGKILL);
        }
    }

    /// Kills the group if needed, waits for the leader and reaps it.
    fn reap(&mut self) -> Option<ExitStatus> {
        if let Some(s) = self.reaped {
            return s;
        }
        self.stdin = None;
        if !self.exited {
            self.kill_group();
            self.wait_exit(KILL_WAIT);
        }
        // The leader is dead (or unkillable): kill stragglers of its group
        // before the reap frees its id.
        self.kill_group();
        // Out of the registry before the reap frees the id ([`kill_all`]
        // kills under the same lock, so it never signals a reused id).
        if let Ok(mut live) = LIVE.lock() {
            live.remove(&self.pgid.as_raw());
        }
        let status = self.child.wait().ok();
        self.reaped = Some(status);
        if let Ok(mut ours) = OURS.lock() {
            ours.remove(&self.pgid.as_raw());
        }
        kill_orphans();
        status
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill_group();
        self.reap();
    }
}

/// How a session ended ([`Child::finish`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finish {
    /// Its exit status when it exited on its own within the grace time.
    pub status: Option<ExitStatus>,
    /// It did not exit in time and was killed.
    pub killed: bool,
}

impl Finish {
    /// A note for a log when it did not end cleanly: killed, or a non-zero
    /// exit status; `None` for a clean exit.
    pub fn note(&self) -> Option<String> {
        match self.status {
            _ if self.killed => Some("did not exit after the game; killed".into()),
            Some(s) if !s.success() => Some(format!("exited with {s}")),
            _ => None,
        }
    }
}

/// Reads stdout to its end as lines or whole; past the output limit it
/// reports [`Fault::TooMuchOutput`] and stops, or (`truncate`, whole only)
/// reads on and drops the bytes past it.
fn read_stdout(out: impl Read, mode: Mode, limits: Limits, truncate: bool, tx: &Sender<Event>) {
    let mut out = BufReader::new(out);
    let keep = usize::try_from(limits.max_output).unwrap_or(usize::MAX);
    let mut total: u64 = 0;
    let mut line = Vec::new();
    loop {
        let chunk = match out.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Event::Fault(Fault::Read(e.to_string())));
                return;
            }
        };
        let n = chunk.len();
        total = total.saturating_add(n as u64);
        if total > limits.max_output && !truncate {
            let _ = tx.send(Event::Fault(Fault::TooMuchOutput(limits.max_output)));
            return;
        }
        match mode {
            Mode::Whole => {
                let room = keep.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..n.min(room)]);
            }
            Mode::Lines => {
                let mut lines = Vec::new();
                for part in chunk.split_inclusive(|&b| b == b'\n') {
                    let ends = part.last() == Some(&b'\n');
                    let body = if ends { &part[..part.len() - 1] } else { part };
                    line.extend_from_slice(body);
                    if line.len() > limits.max_line {
                        let start = quote(&line[..QUOTE_BYTES.min(line.len())]);
                        send_lines(tx, lines);
                        let _ = tx.send(Event::Fault(Fault::LineTooLong {
                            limit: limits.max_line,
                            start,
                        }));
                        return;
                    }
                    if ends {
                        // A short line costs [`LINE_COST`] in all: its bytes
                        // (counted above with the chunk) and the rest here.
                        let bytes = line.len() as u64 + 1;
                        total = total.saturating_add(LINE_COST.saturating_sub(bytes));
                        if total > limits.max_output {
                            send_lines(tx, lines);
                            let _ = tx.send(Event::Fault(Fault::TooMuchOutput(limits.max_output)));
                            return;
                        }
                        if line.last() == Some(&b'\r') {
                            line.pop();
                        }
                        lines.push(std::mem::take(&mut line));
                    }
                }
                if !send_lines(tx, lines) {
                    return;
                }
            }
        }
        out.consume(n);
    }
    match mode {
        Mode::Whole => {
            let _ = tx.send(Event::Whole(line));
        }
        Mode::Lines => {
            if !line.is_empty() {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                send_lines(tx, vec![line]);
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Sends the lines of one read in one event (none when there are none);
/// `false` once the receiver is gone.
fn send_lines(tx: &Sender<Event>, lines: Vec<Vec<u8>>) -> bool {
    lines.is_empty() || tx.send(Event::Lines(lines)).is_ok()
}

/// Reads a pipe to its end into `buf`, keeping (about) its last `cap` bytes.
fn read_tail(mut err: impl Read, cap: usize, buf: &Mutex<Vec<u8>>) {
    let mut chunk = [0u8; 8192];
    loop {
        match err.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                let Ok(mut b) = buf.lock() else { return };
                b.extend_from_slice(&chunk[..n]);
                if b.len() > cap.saturating_mul(2).max(8192) {
                    let from = b.len() - cap;
                    b.drain(..from);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// Reads a pipe to its end into `buf`, keeping its first `cap` bytes.
fn read_head(mut err: impl Read, cap: usize, buf: &Mutex<Vec<u8>>) {
    let mut chunk = [0u8; 8192];
    loop {
        match err.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                let Ok(mut b) = buf.lock() else { return };
                let room = cap.saturating_sub(b.len());
                b.extend_from_slice(&chunk[..n.min(room)]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// The live (not zombie) processes of process group `pgid`, read from
/// `/proc` (Linux): for tests and leak checks that a group is gone.
pub fn group_members(pgid: u32) -> Vec<u32> {
    proc_stats()
        .filter(|p| p.pgrp == pgid && p.state != 'Z' && p.state != 'X')
        .map(|p| p.pid)
        .collect()
}

/// The children of this process: the `children` lists of its threads in
/// `/proc/self/task` (a few small reads), or, on a kernel without them, every
/// process of `/proc` whose parent it is.
fn own_children() -> Vec<u32> {
    if !std::path::Path::new("/proc/thread-self/children").exists() {
        let me = std::process::id();
        return proc_stats()
            .filter(|p| p.ppid == me)
            .map(|p| p.pid)
            .collect();
    }
    // A thread that ends meanwhile has no list left, and no children.
    let tasks = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten();
    tasks
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|l| {
            l.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// What `/proc/PID/stat` says of one process.
struct ProcStat {
    pid: u32,
    state: char,
    ppid: u32,
    pgrp: u32,
}

/// Every process `/proc` lists (Linux; none elsewhere), zombies included.
fn proc_stats() -> impl Iterator<Item = ProcStat> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after ')'.
            let mut f = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
            let state = f.next()?.chars().next()?;
            let ppid = f.next()?.parse().ok()?;
            let pgrp = f.next()?.parse().ok()?;
            Some(ProcStat {
                pid,
                state,
                ppid,
                pgrp,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `script` under `sh` with `limits`, started.
    fn spawn_sh(script: &str, limits: Limits) -> Child {
        sh(script).limits(limits).spawn().unwrap()
    }

    /// A child that writes forever without a newline.
    const FLOOD: &str = "while :; do printf xxxxxxxxxx; done";

    fn sh(script: &str) -> Spec {
        Spec::shell(script)
    }

    /// Whether any process of group `pgid` still runs (a zombie waiting for
    /// its reaper does not count), after at most 2 s for `SIGKILL` to land.
    fn group_alive(pgid: u32) -> bool {
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            let alive = !group_members(pgid).is_empty();
            if !alive || Instant::now() > until {
                return alive;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn lines_round_trip_and_clean_finish() {
        let mut c = sh("while read l; do echo \"got $l\"; done")
            .spawn()
            .unwrap();
        c.send_line("a").unwrap();
        assert_eq!(c.recv_line(Duration::from_secs(5)).unwrap(), "got a");
        c.send_line("b c").unwrap();
        assert_eq!(c.recv_line(Duration::from_secs(5)).unwrap(), "got b c");
        let f = c.finish(Duration::from_secs(5));
        assert!(!f.killed);
        assert!(f.status.unwrap().success());
        assert_eq!(f.note(), None);
    }

    #[test]
    fn a_hung_child_times_out_and_its_whole_group_dies() {
        // The shell starts a sleeper of its own: both must die.
        let mut c = sh("sleep 30 & sleep 30; echo late").spawn().unwrap();
        let pgid = c.id();
        let t = Instant::now();
        let r = c.recv_line(Duration::from_millis(200));
        assert_eq!(r, Err(Fault::Timeout(Duration::from_millis(200))));
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(!group_members(pgid).is_empty());
        let f = c.finish(Duration::from_millis(50));
        assert!(f.killed);
        assert_eq!(
            f.note().as_deref(),
            Some("did not exit after the game; killed")
        );
        assert!(!group_alive(pgid), "a process of the group survived");
    }

    #[test]
    fn exit_is_reported_with_its_status() {
        let mut c = sh("echo one; exit 3").spawn().unwrap();
        assert_eq!(c.recv_line(Duration::from_secs(5)).unwrap(), "one");
        match c.recv_line(Duration::from_secs(5)) {
            Err(Fault::Closed(Some(s))) => assert_eq!(s.code(), Some(3)),
            other => panic!("{other:?}"),
        }
        // A straggler holding stdout does not hold the caller to the timeout.
        let mut c = sh("(sleep 30 &) ; exit 0").spawn().unwrap();
        let t = Instant::now();
        assert!(matches!(
            c.recv_line(Duration::from_secs(20)),
            Err(Fault::Closed(_))
        ));
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }

    #[test]
    fn floods_are_cut() {
        let limits = Limits {
            max_line: 100,
            max_output: 10_000,
            ..Limits::default()
        };
        // No newline at all.
        let mut c = spawn_sh(FLOOD, limits);
        let pgid = c.id();
        match c.recv_line(Duration::from_secs(5)) {
            Err(Fault::LineTooLong { limit: 100, start }) => {
                assert!(start.len() < 60, "{start}")
            }
            other => panic!("{other:?}"),
        }
        drop(c);
        assert!(!group_alive(pgid));
        // Many short lines.
        let mut c = spawn_sh("yes", limits);
        let mut n = 0;
        let fault = loop {
            match c.recv_line(Duration::from_secs(5)) {
                Ok(_) => n += 1,
                Err(f) => break f,
            }
        };
        assert_eq!(fault, Fault::TooMuchOutput(10_000));
        assert!(n <= 5_000, "{n}");
        // Garbage bytes.
        let mut c = sh("printf '\\377\\376\\n'").spawn().unwrap();
        assert!(matches!(
            c.recv_line(Duration::from_secs(5)),
            Err(Fault::NotUtf8(_))
        ));
    }

    /// Sends `line` until a send fails; returns the fault and the time it
    /// took, failing the test if none comes within `within`.
    fn send_until_fault(c: &mut Child, line: &str, within: Duration) -> (Fault, Duration) {
        let t = Instant::now();
        loop {
            if let Err(f) = c.send_line(line) {
                return (f, t.elapsed());
            }
            assert!(t.elapsed() < within, "no fault within {within:?}");
        }
    }

    #[test]
    fn a_send_to_a_child_cut_for_its_flood_names_the_flood() {
        // It floods without a newline and never reads: once its line is cut,
        // the reader's end of its stdout closes, printf dies of SIGPIPE, and
        // a send meets a closed pipe; the fault is the flood, not the pipe.
        let limits = Limits {
            max_line: 100,
            input_timeout: Duration::from_secs(5),
            ..Limits::default()
        };
        let mut c = spawn_sh(FLOOD, limits);
        let pgid = c.id();
        let (fault, _) = send_until_fault(&mut c, "trump S", Duration::from_secs(10));
        assert!(
            matches!(fault, Fault::LineTooLong { limit: 100, .. }),
            "{fault:?}"
        );
        drop(c);
        assert!(!group_alive(pgid));
    }

    #[test]
    fn a_child_that_stops_reading_is_killed_at_the_input_deadline() {
        let limits = Limits {
            input_timeout: Duration::from_millis(300),
            ..Limits::default()
        };
        // It never reads: the 64 KiB pipe fills, and a send waits for room.
        // Its sleeper in the background must die with it.
        let mut c = spawn_sh("sleep 30 & exec sleep 30", limits);
        let pgid = c.id();
        let line = "x".repeat(1000);
        // On a thread, so a send that blocks for good fails the test (its
        // group killed, the write ends) instead of hanging it.
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let t = Instant::now();
            let mut sent = 0;
            let fault = loop {
                match c.send_line(&line) {
                    Ok(()) => sent += 1,
                    Err(f) => break f,
                }
            };
            let again = c.send_line("more");
            let _ = tx.send((fault, sent, t.elapsed(), again));
        });
        let Ok((fault, sent, took, again)) = rx.recv_timeout(Duration::from_secs(10)) else {
            let _ = killpg(Pid::from_raw(pgid as i32), Signal::SIGKILL);
            panic!("send_line blocked for good on a child that does not read");
        };
        assert_eq!(fault, Fault::InputBlocked(Duration::from_millis(300)));
        assert_eq!(fault.to_string(), "did not read its input within 300 ms");
        assert!(sent >= 50, "only {sent} lines fitted");
        assert!(took < Duration::from_secs(3), "{took:?}");
        assert_eq!(again, Err(Fault::InputClosed));
        assert!(!group_alive(pgid), "a process of the group survived");
        // A child that closed its stdin: the write fails at once (EPIPE).
        let mut c = spawn_sh("exec 0<&-; exec sleep 30", limits);
        let (fault, took) = send_until_fault(&mut c, &"y".repeat(1000), Duration::from_secs(5));
        assert_eq!(fault, Fault::InputClosed);
        assert!(took < Duration::from_millis(300), "{took:?}");
    }

    #[test]
    fn bare_newlines_cost_a_line_each() {
        // 10,000 empty lines are 10,000 bytes, within the limit by bytes;
        // at LINE_COST a line, only the first 156 get through.
        let limits = Limits {
            max_line: 100,
            max_output: 10_000,
            ..Limits::default()
        };
        let mut c = spawn_sh(
            "head -c 10000 /dev/zero | tr '\\0' '\\n'; exec sleep 30",
            limits,
        );
        let pgid = c.id();
        let mut n = 0;
        let fault = loop {
            match c.recv_line(Duration::from_secs(5)) {
                Ok(line) => {
                    assert_eq!(line, "");
                    n += 1;
                }
                Err(f) => break f,
            }
        };
        assert_eq!(fault, Fault::TooMuchOutput(10_000));
        assert!(n <= 10_000 / LINE_COST, "{n} lines");
        assert!(!group_alive(pgid));
        // Long lines count by their bytes only.
        let limits = Limits {
            max_line: 1000,
            max_output: 10_000,
            ..Limits::default()
        };
        let mut c = spawn_sh(
            "i=0; while [ $i -lt 50 ]; do printf '%0199d\\n' 0; i=$((i+1)); done",
            limits,
        );
        for _ in 0..50 {
            assert_eq!(c.recv_line(Duration::from_secs(5)).unwrap().len(), 199);
        }
        assert!(matches!(
            c.recv_line(Duration::from_secs(5)),
            Err(Fault::Closed(_))
        ));
    }

    #[test]
    fn a_waiting_line_is_taken_without_blocking() {
        let mut c = sh("echo early; while read l; do echo \"got $l\"; done")
            .spawn()
            .unwrap();
        let t = Instant::now();
        let early = loop {
            if let Some(line) = c.waiting_line().unwrap() {
                break line;
            }
            assert!(t.elapsed() < Duration::from_secs(5), "no line");
            thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(early, "early");
        assert_eq!(c.waiting_line(), Ok(None));
        c.send_line("a").unwrap();
        assert_eq!(c.recv_line(Duration::from_secs(5)).unwrap(), "got a");
        assert_eq!(c.waiting_line(), Ok(None));
        // Its exit, seen while looking for a line, still ends the next read.
        c.close_input();
        let t = Instant::now();
        while !c.exited {
            assert_eq!(c.waiting_line(), Ok(None));
            assert!(t.elapsed() < Duration::from_secs(5), "no exit");
            thread::sleep(Duration::from_millis(5));
        }
        assert!(matches!(
            c.recv_line(Duration::from_secs(20)),
            Err(Fault::Closed(_))
        ));
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }

    #[test]
    fn run_collects_output_and_status() {
        let r = sh("cat; echo err >&2; exit 2")
            .input("hello\n")
            .stderr(Stderr::Capture(100))
            .run(Duration::from_secs(5))
            .unwrap();
        assert_eq!(r.stdout, b"hello\n");
        assert_eq!(r.stderr, b"err\n");
        assert_eq!(r.status.unwrap().code(), Some(2));
        assert!(!r.success());
        assert_eq!(r.fault, None);
    }

    #[test]
    fn run_kills_on_timeout_flood_and_leaves_no_process() {
        let r = sh("sleep 30 & sleep 30")
            .run(Duration::from_millis(200))
            .unwrap();
        assert_eq!(r.fault, Some(Fault::Timeout(Duration::from_millis(200))));
        assert_eq!(r.status, None);
        assert!(r.elapsed < Duration::from_secs(3), "{:?}", r.elapsed);
        let r = sh("yes")
            .limits(Limits {
                max_line: 10,
                max_output: 100_000,
                ..Limits::default()
            })
            .run(Duration::from_secs(10))
            .unwrap();
        assert_eq!(r.fault, Some(Fault::TooMuchOutput(100_000)));
        assert!(r.stdout.len() <= 100_000);
        // A child that exits at once leaving a background sleeper: the
        // sleeper is killed with the group.
        let r = sh("sleep 30 & echo $!")
            .run(Duration::from_secs(5))
            .unwrap();
        assert!(r.success(), "{r:?}");
        let pid: u32 = String::from_utf8_lossy(&r.stdout).trim().parse().unwrap();
        assert!(!group_alive(pid), "the background sleeper survived");
    }

    #[test]
    fn stderr_capture_keeps_the_tail() {
        let r =
            sh("i=0; while [ $i -lt 3000 ]; do echo line$i >&2; i=$((i+1)); done; echo end >&2")
                .stderr(Stderr::Capture(64))
                .run(Duration::from_secs(10))
                .unwrap();
        assert!(r.stderr.len() <= 64);
        assert!(r.stderr.ends_with(b"end\n"), "{:?}", quote(&r.stderr));
    }

    #[test]
    fn run_can_keep_the_first_bytes_and_be_stopped() {
        // Stdout and stderr past their caps are read and dropped: the child
        // goes on to its exit.
        let r = sh("yes | head -c 100000; yes e | head -c 100000 >&2; exit 4")
            .limits(Limits {
                max_line: 10,
                max_output: 1000,
                ..Limits::default()
            })
            .truncate_output(true)
            .stderr(Stderr::Head(500))
            .run(Duration::from_secs(10))
            .unwrap();
        assert_eq!(r.fault, None);
        assert_eq!(r.status.unwrap().code(), Some(4));
        assert_eq!(r.stdout, b"y\n".repeat(500));
        assert_eq!(r.stderr, b"e\n".repeat(250));
        assert!(r.runtime <= r.elapsed);
        // Environment and a watch that stops it.
        let mut asked = 0;
        let r = sh("echo \"$A-${B-unset}\"; sleep 30")
            .env("A", "set")
            .env("B", "x")
            .env_remove("B")
            .run_watched(Duration::from_secs(20), Duration::from_millis(20), || {
                asked += 1;
                asked == 3
            })
            .unwrap();
        assert_eq!(r.fault, Some(Fault::Stopped));
        assert_eq!(r.status, None);
        assert_eq!(r.stdout, b"set-unset\n");
        assert!(r.runtime < Duration::from_secs(5), "{:?}", r.runtime);
        // The time limit comes first.
        let r = sh("sleep 30")
            .run_watched(
                Duration::from_millis(100),
                Duration::from_millis(30),
                || false,
            )
            .unwrap();
        assert_eq!(r.fault, Some(Fault::Timeout(Duration::from_millis(100))));
        assert!(r.runtime >= Duration::from_millis(100));
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quote(b"abc"), "\"abc\"");
        let q = quote(&[b'x'; 10_000]);
        assert!(q.len() < 70 && q.ends_with("(10000 bytes)"), "{q}");
    }

    #[test]
    fn outputs_are_checked_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("r.json");
        let old = dir.path().join("old.csv");
        std::fs::write(&old, "kept").unwrap();
        // A new file is created and removed again, an existing one left as it was.
        assert_eq!(
            check_outputs(&[
                ("--json", Some(&new)),
                ("--csv", Some(&old)),
                ("--html", None)
            ]),
            Ok(())
        );
        assert!(!new.exists());
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "kept");
        let e = check_outputs(&[("--json", Some(&new)), ("--html", Some(&new))]).unwrap_err();
        assert_eq!(
            e.message,
            format!("--json and --html name the same file {}", new.display())
        );
        assert_eq!(e.status(), 2);
        let e = check_outputs(&[("--html", Some(dir.path()))]).unwrap_err();
        assert!(
            e.message.ends_with("it is a folder") && e.status() == 1,
            "{e}"
        );
        let missing = dir.path().join("no/such/folder/r.json");
        let e = check_outputs(&[("--json", Some(&missing))]).unwrap_err();
        assert!(
            e.message.starts_with("cannot write ") && e.message.contains("No such file"),
            "{e}"
        );
    }

    #[test]
    fn a_program_given_by_path_must_be_executable() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        let s = script.display().to_string();
        assert_eq!(
            check_program(&format!("{s} --seed 3")),
            Err(format!("cannot run {s}: not executable"))
        );
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        assert_eq!(check_program(&format!("{s} --seed 3")), Ok(()));
        let e = check_program("/no/such/bot").unwrap_err();
        assert!(
            e.starts_with("cannot run /no/such/bot: ") && e.contains("No such file"),
            "{e}"
        );
        assert!(check_program(&dir.path().display().to_string())
            .unwrap_err()
            .ends_with("it is a folder"));
        // Bare names and assignments are the shell's to resolve.
        assert_eq!(check_program("python3 -S bot.py"), Ok(()));
        assert_eq!(check_program("cd x/y && ./bot"), Ok(()));
        assert_eq!(check_program("X=a/b ./bot"), Ok(()));
        assert_eq!(check_program("~/bots/durak --seed 1"), Ok(()));
        assert_eq!(check_program("'./my bot' --seed 1"), Ok(()));
        assert_eq!(check_program("$HOME/bot"), Ok(()));
    }
}
