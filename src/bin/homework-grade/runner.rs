//! Running one command of an untrusted submission: its own process group,
//! killed whole on timeout; optional memory and file-size limits (`ulimit`
//! through `/bin/sh`, inherited by everything it starts); stdin from
//! `/dev/null`; no MAKEFLAGS of a calling make; stdout and stderr read through pipes and kept up to a cap.
//!
//! This is the grader's only process layer, kept small so it can move onto the
//! project's shared child-process module when that exists.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{mpsc, Condvar, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// Bytes of stdout and of stderr kept per command; the rest is read and dropped.
pub const OUTPUT_CAP: usize = 64 * 1024;

/// Limits for one command.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock limit; the whole process group is killed (SIGKILL) at it.
    pub time: Duration,
    /// Virtual memory per process, in MiB (`ulimit -v`); `None` for none.
    pub memory_mib: Option<u64>,
    /// Largest file a process may write, in MiB (`ulimit -f`); `None` for none.
    pub file_mib: Option<u64>,
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status code.
    Code(i32),
    /// A signal killed it (not ours).
    Signal(i32),
    /// It ran into the time limit and its process group was killed.
    TimedOut,
}

/// What a command did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub exit: Exit,
    /// The first [`OUTPUT_CAP`] bytes of stdout.
    pub stdout: Vec<u8>,
    /// The first [`OUTPUT_CAP`] bytes of stderr.
    pub stderr: Vec<u8>,
    /// Wall-clock time from start to exit (or to the kill).
    pub elapsed: Duration,
}

impl Outcome {
    /// `true` when it exited with status 0.
    pub fn success(&self) -> bool {
        self.exit == Exit::Code(0)
    }
}

/// At most this many commands run at once, over all threads; see
/// [`limit_parallel`].
static SLOTS: OnceLock<(Mutex<usize>, Condvar)> = OnceLock::new();

/// Lets at most `n` commands run at once from now on (every thread's [`run`]
/// waits for a free slot): `--all -j N` grades many submissions side by
/// side, so one submission's hung test holds one slot while the others go on.
/// Only the first call counts.
pub fn limit_parallel(n: usize) {
    let _ = SLOTS.set((Mutex::new(n.max(1)), Condvar::new()));
}

/// A running command's slot, given back when dropped.
struct Slot(Option<&'static (Mutex<usize>, Condvar)>);

impl Slot {
    fn take() -> Slot {
        let Some(pair) = SLOTS.get() else {
            return Slot(None);
        };
        let (free, ready) = pair;
        let mut n = free
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while *n == 0 {
            n = ready
                .wait(n)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *n -= 1;
        Slot(Some(pair))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some((free, ready)) = self.0 {
            *free
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) += 1;
            ready.notify_one();
        }
    }
}

/// Reads a pipe to its end on a thread, keeping the first [`OUTPUT_CAP`] bytes.
fn drain(mut pipe: impl Read + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let room = OUTPUT_CAP.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        let _ = tx.send(kept);
    });
    rx
}

/// Runs `program args..` in `dir` under `limits` with the extra environment
/// `env`, and waits for it (at most the time limit).
///
/// # Errors
/// The I/O error when the command cannot be started at all.
pub fn run(
    dir: &Path,
    program: &str,
    args: &[&str],
    env: &[(&str, &Path)],
    limits: &Limits,
) -> std::io::Result<Outcome> {
    let mut command = if limits.memory_mib.is_some() || limits.file_mib.is_some() {
        // POSIX sh: `ulimit -v` counts KiB and `ulimit -f` 512-byte blocks
        // (dash, and bash in POSIX mode).
        let mut script = String::new();
        if let Some(mib) = limits.memory_mib {
            script += &format!("ulimit -v {} || exit 125; ", mib * 1024);
        }
        if let Some(mib) = limits.file_mib {
            script += &format!("ulimit -f {} || exit 125; ", mib * 2048);
        }
        script += "exec \"$@\"";
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(script).arg("sh").arg(program).args(args);
        c
    } else {
        let mut c = Command::new(program);
        c.args(args);
        c
    };
    command
        .current_dir(dir)
        .envs(env.iter().copied())
        // A grader started from make must not hand its jobserver and flags on.
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let _slot = Slot::take();
    let start = Instant::now();
    let mut child = command.spawn()?;
    let group = Pid::from_raw(child.id() as i32);
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let (status, timed_out): (std::io::Result<ExitStatus>, bool) =
        match rx.recv_timeout(limits.time) {
            Ok(status) => (status, false),
            Err(_) => {
                let _ = killpg(group, Signal::SIGKILL);
                (
                    rx.recv().unwrap_or_else(|e| Err(std::io::Error::other(e))),
                    true,
                )
            }
        };
    let elapsed = start.elapsed();
    // Whatever the command left running in its group goes too.
    let _ = killpg(group, Signal::SIGKILL);
    let status = status?;
    // A process that left the group may hold the pipes open: wait briefly.
    let grace = Duration::from_millis(500);
    let stdout = stdout.recv_timeout(grace).unwrap_or_default();
    let stderr = stderr.recv_timeout(grace).unwrap_or_default();
    let exit = if timed_out {
        Exit::TimedOut
    } else if let Some(code) = status.code() {
        Exit::Code(code)
    } else {
        Exit::Signal(status.signal().unwrap_or(0))
    };
    Ok(Outcome {
        exit,
        stdout,
        stderr,
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(secs: f64) -> Limits {
        Limits {
            time: Duration::from_secs_f64(secs),
            memory_mib: None,
            file_mib: None,
        }
    }

    #[test]
    fn a_hung_group_is_killed_at_its_limit() {
        let dir = std::env::temp_dir();
        // The shell's child `sleep` is in the same group and dies with it.
        let out = run(
            &dir,
            "sh",
            &["-c", "sleep 30; echo late"],
            &[],
            &limits(0.3),
        )
        .unwrap();
        assert_eq!(out.exit, Exit::TimedOut);
        assert!(out.elapsed >= Duration::from_millis(300));
        assert!(out.elapsed < Duration::from_secs(3), "{:?}", out.elapsed);
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn exit_codes_signals_and_capped_output() {
        let dir = std::env::temp_dir();
        let out = run(&dir, "sh", &["-c", "echo hi; exit 3"], &[], &limits(5.0)).unwrap();
        assert_eq!(out.exit, Exit::Code(3));
        assert_eq!(out.stdout, b"hi\n");
        let out = run(&dir, "sh", &["-c", "kill -SEGV $$"], &[], &limits(5.0)).unwrap();
        assert_eq!(out.exit, Exit::Signal(11));
        let flood = run(
            &dir,
            "sh",
            &["-c", "yes | head -c 1000000"],
            &[],
            &limits(5.0),
        )
        .unwrap();
        assert_eq!(flood.stdout.len(), OUTPUT_CAP);
    }

    #[test]
    fn memory_limit_applies_to_the_command() {
        let dir = std::env::temp_dir();
        let mut l = limits(5.0);
        l.memory_mib = Some(64);
        let out = run(&dir, "sh", &["-c", "ulimit -v"], &[], &l).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "65536");
    }
}
