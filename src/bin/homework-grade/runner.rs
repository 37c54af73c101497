//! Running one command of a submission through the project's child-process
//! layer ([`cardgames::child`]: its own process group, killed whole on
//! timeout or when the disk limit is passed): stdin from `/dev/null` (or
//! bubblewrap's options); stdout and stderr kept up to [`OUTPUT_CAP`] each,
//! the rest read and dropped.
//!
//! What is the grader's own: the two ways to build one command, [`run`]
//! unconfined (trusted code: `--in-place`, `--no-sandbox`; no MAKEFLAGS of a
//! calling make), with optional memory and file-size limits (`ulimit` through
//! `/bin/sh`), and [`Sandbox::run`], inside bubblewrap (see [`Sandbox`] and
//! `docs/grading.md`), the default for submissions; the disk watch; the
//! number of commands at once ([`limit_parallel`]); and how a command's end
//! maps to an [`Exit`].

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

use cardgames::child::{self, Fault, Spec, Stderr};
use nix::sys::signal::Signal;

/// Bytes of stdout and of stderr kept per command; the rest is read and dropped.
pub const OUTPUT_CAP: usize = 64 * 1024;

/// How often the disk use of a sandboxed command is measured.
const DISK_POLL: Duration = Duration::from_millis(100);

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
    /// A signal killed it (not ours), or it passed the disk limit
    /// (`SIGXFSZ`).
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

/// Runs `program args..` in `dir` under `limits` with the extra environment
/// `env`, unconfined (the grader's user, file system and network), and waits
/// for it (at most the time limit).
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
    let spec = if limits.memory_mib.is_some() || limits.file_mib.is_some() {
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
        Spec::new("/bin/sh")
            .arg("-c")
            .arg(script)
            .arg("sh")
            .arg(program)
            .args(args.iter().copied())
    } else {
        Spec::new(program).args(args.iter().copied())
    };
    let spec = env
        .iter()
        .fold(spec.current_dir(dir), |spec, &(key, value)| {
            spec.env(key, value)
        })
        // A grader started from make must not hand its jobserver and flags on.
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL");
    supervise(spec, limits.time, None)
}

/// Runs `spec` (stdin from `/dev/null` unless it gives input) through
/// [`child`] and waits for it at most `time`, keeping [`OUTPUT_CAP`] bytes of
/// stdout and of stderr; every [`DISK_POLL`] `over_disk` (when given) is asked
/// whether the command wrote too much, and a `true` kills it as
/// [`Exit::Signal`]`(SIGXFSZ)`.
fn supervise(
    spec: Spec,
    time: Duration,
    over_disk: Option<&dyn Fn() -> bool>,
) -> std::io::Result<Outcome> {
    let cap = OUTPUT_CAP as u64;
    let spec = spec
        .stderr(Stderr::Head(OUTPUT_CAP))
        .limits(child::Limits {
            max_line: OUTPUT_CAP,
            max_output: cap,
            ..child::Limits::default()
        })
        .truncate_output(true);
    let _slot = Slot::take();
    // After Ctrl-C no command starts (one started anyway would be killed at
    // once); the grading stops at this error.
    if child::interrupted() {
        return Err(std::io::Error::other("interrupted"));
    }
    let run = match over_disk {
        Some(over) => spec.run_watched(time, DISK_POLL, over)?,
        None => spec.run(time)?,
    };
    let exit = match (&run.fault, run.status) {
        (Some(Fault::Timeout(_)), _) => Exit::TimedOut,
        (Some(Fault::Stopped), _) => Exit::Signal(Signal::SIGXFSZ as i32),
        (Some(fault), _) => return Err(std::io::Error::other(fault.to_string())),
        (None, Some(status)) => match status.code() {
            Some(code) => Exit::Code(code),
            None => Exit::Signal(status.signal().unwrap_or(0)),
        },
        (None, None) => return Err(std::io::Error::other("its end was not reported")),
    };
    Ok(Outcome {
        exit,
        stdout: run.stdout,
        stderr: run.stderr,
        elapsed: run.runtime,
    })
}

/// The uid and gid a sandboxed command has inside its user namespace, and
/// the unprivileged outer ids the sandbox runs as when the grader is root
/// (`nobody`/`nogroup` on Debian).
pub const SANDBOX_ID: u32 = 65534;
/// Where the submission's copy is inside the sandbox (the working directory).
pub const INSIDE_SUB: &str = "/sub";
/// Where the command's private temporary directory is inside the sandbox.
pub const INSIDE_TMP: &str = "/tmp";
/// Where the grader's log folder (valgrind's stream, see `grade::valgrind_test`) is
/// inside the sandbox, read-only.
pub const INSIDE_LOGS: &str = "/valgrind";

/// The bubblewrap sandbox of a submission's commands: new user, PID, IPC,
/// UTS, cgroup and network namespaces; the system's `/usr`, `/etc` and
/// library directories read-only; the submission's copy (at [`INSIDE_SUB`],
/// the working directory) and its private temporary directory (at
/// [`INSIDE_TMP`]) the only writable places; the grader's log folder, when a
/// command has one, read-only at [`INSIDE_LOGS`]; everything else of the host
/// (the tests, other submissions, `$HOME`, the grader's files) absent; no
/// user namespace can be made inside (bubblewrap 0.8's `--disable-userns`),
/// so no command can mount over what it was shown. It
/// runs as [`SANDBOX_ID`] inside, and as that unprivileged id outside too when
/// the grader is root (so the process limit binds: the kernel exempts root).
/// Limits (through `prlimit`, set inside the sandbox so the process count is
/// the sandbox's own): processes, virtual memory, file size, CPU time; wall
/// time and disk use are watched from outside, and the whole sandbox dies
/// with its PID namespace when the command ends or is killed.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// The outer uid and gid bubblewrap is started as (`None`: the grader's).
    pub run_as: Option<(u32, u32)>,
    /// Processes (and threads) one command may have at once (RLIMIT_NPROC).
    pub processes: u64,
    /// Bytes the copy and the private `/tmp` may take on disk together; the
    /// command is killed (as SIGXFSZ) once they take more. `None` for no limit.
    pub disk_bytes: Option<u64>,
    /// Folders of the host shown read-only at the same path (`--sandbox-bind`:
    /// a toolchain outside the system's folders, `~/.cargo`); absolute.
    pub binds: Vec<PathBuf>,
    /// Variables set in the sandbox's environment (`--sandbox-env`), after
    /// the defaults (a `PATH` here replaces the default one).
    pub env: Vec<(String, String)>,
}

/// The sandbox's default `PATH`: the system's folders.
pub const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Files and folders the disk watch reads at most in one measure; past them the
/// command counts as over its limit (a homework makes a handful, and a walk of
/// 100,000 files 1,500 folders deep took 7 s, while the time limit waited).
pub const DISK_ENTRIES: u64 = 50_000;

/// Blocks used by everything below `dir`, in bytes (links not followed).
/// Fails closed: a folder it cannot read (unreadable, or deeper than a path
/// may be) or more than [`DISK_ENTRIES`] entries give `u64::MAX`, over any
/// limit; a folder removed while it is read counts for nothing.
pub fn disk_usage(dir: &Path) -> u64 {
    fn walk(dir: &Path, left: &mut u64) -> Option<u64> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(0),
            Err(_) => return None,
        };
        let mut total = 0u64;
        for entry in entries.flatten() {
            *left = left.checked_sub(1)?;
            // Relative to the open folder (no path to resolve), links not followed.
            let meta = match entry.metadata() {
                Ok(meta) => meta,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(_) => return None,
            };
            total = total.saturating_add(meta.blocks().saturating_mul(512));
            if meta.is_dir() {
                total = total.saturating_add(walk(&entry.path(), left)?);
            }
        }
        Some(total)
    }
    use std::os::unix::fs::MetadataExt;
    let mut left = DISK_ENTRIES;
    walk(dir, &mut left).unwrap_or(u64::MAX)
}

impl Sandbox {
    /// A sandbox for the current user: run as [`SANDBOX_ID`] outside when the
    /// grader is root.
    pub fn for_this_user(processes: u64, disk_bytes: Option<u64>) -> Sandbox {
        Sandbox {
            run_as: nix::unistd::geteuid()
                .is_root()
                .then_some((SANDBOX_ID, SANDBOX_ID)),
            processes,
            disk_bytes,
            binds: Vec::new(),
            env: Vec::new(),
        }
    }

    /// The sandbox's `PATH`: the one of [`Sandbox::env`] if any, else the
    /// `bin` folder of each bound folder that has one, then [`SYSTEM_PATH`].
    pub fn path(&self) -> String {
        if let Some((_, path)) = self.env.iter().find(|(k, _)| k == "PATH") {
            return path.clone();
        }
        let mut parts: Vec<String> = self
            .binds
            .iter()
            .map(|b| b.join("bin"))
            .filter(|b| b.is_dir())
            .map(|b| b.display().to_string())
            .collect();
        parts.push(SYSTEM_PATH.to_owned());
        parts.join(":")
    }

    /// Checks that the sandbox can show `dir` (absolute): it exists and, when
    /// the sandbox runs as [`SANDBOX_ID`] outside (the grader is root), that
    /// uid can reach it (every folder above it searchable by others: a home
    /// folder of mode 0700, such as `/root`, is not).
    ///
    /// # Errors
    /// One line saying why not and what to do.
    pub fn check_bind(&self, dir: &Path) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let meta =
            std::fs::metadata(dir).map_err(|e| format!("--sandbox-bind {}: {e}", dir.display()))?;
        if !meta.is_dir() {
            return Err(format!("--sandbox-bind {}: not a folder", dir.display()));
        }
        if self.run_as.is_none() {
            return Ok(());
        }
        for above in dir.ancestors().skip(1) {
            let mode = std::fs::metadata(above).map_or(0, |m| m.permissions().mode());
            if mode & 0o001 == 0 {
                return Err(format!(
                    "--sandbox-bind {}: the sandbox runs as uid {SANDBOX_ID} (the grader is root), \
                     which cannot reach it ({} is not searchable by others): put the toolchain \
                     where every user can read it (/opt, /usr/local), or grade as an ordinary user",
                    dir.display(),
                    above.display()
                ));
            }
        }
        Ok(())
    }

    /// Makes `path` (and everything below it, links not followed) the
    /// sandbox's when it runs as another uid than the grader's.
    ///
    /// # Errors
    /// The first I/O error of `chown`.
    pub fn hand_over(&self, path: &Path) -> std::io::Result<()> {
        let Some((uid, gid)) = self.run_as else {
            return Ok(());
        };
        std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
        if path.symlink_metadata()?.is_dir() {
            for entry in std::fs::read_dir(path)? {
                self.hand_over(&entry?.path())?;
            }
        }
        Ok(())
    }

    /// The bubblewrap command that runs `program args..` with `sub` at
    /// [`INSIDE_SUB`], `tmp` at [`INSIDE_TMP`] and `logs` (if any) read-only at
    /// [`INSIDE_LOGS`], under `limits`, with the
    /// bytes to give it on stdin: bubblewrap reads its arguments there
    /// (`--args 0`), so its command line, which the sandbox sees as process
    /// 1, does not name the host's paths.
    fn command(
        &self,
        sub: &Path,
        tmp: &Path,
        logs: Option<&Path>,
        program: &str,
        args: &[&str],
        limits: &Limits,
    ) -> Spec {
        let id = SANDBOX_ID.to_string();
        // Bubblewrap's options, gathered in a Command for its argument API.
        let mut options = Command::new("bwrap");
        options
            .args([
                "--unshare-all",
                "--unshare-user",
                "--disable-userns",
                "--uid",
                &id,
                "--gid",
                &id,
            ])
            .args(["--die-with-parent", "--new-session", "--cap-drop", "ALL"])
            .args(["--hostname", "sandbox", "--ro-bind", "/usr", "/usr"]);
        // The system's top-level directories: merged-/usr links as links,
        // real directories read-only; nothing else of the host.
        for name in ["bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc"] {
            let host = Path::new("/").join(name);
            match host.symlink_metadata() {
                Ok(meta) if meta.is_symlink() => {
                    if let Ok(target) = std::fs::read_link(&host) {
                        options.arg("--symlink").arg(target).arg(&host);
                    }
                }
                Ok(meta) if meta.is_dir() => {
                    options.arg("--ro-bind").arg(&host).arg(&host);
                }
                _ => {}
            }
        }
        options
            .args(["--proc", "/proc", "--dev", "/dev"])
            // A small /dev/shm, then /dev read-only: no file in memory
            // beyond 16 MiB.
            .args([
                "--size",
                "16777216",
                "--tmpfs",
                "/dev/shm",
                "--remount-ro",
                "/dev",
            ])
            .arg("--bind")
            .arg(tmp)
            .arg(INSIDE_TMP)
            .arg("--bind")
            .arg(sub)
            .arg(INSIDE_SUB);
        if let Some(logs) = logs {
            options.arg("--ro-bind").arg(logs).arg(INSIDE_LOGS);
        }
        for dir in &self.binds {
            options.arg("--ro-bind").arg(dir).arg(dir);
        }
        options
            .args(["--remount-ro", "/", "--chdir", INSIDE_SUB, "--clearenv"])
            .args(["--setenv", "PATH", &self.path()])
            .args([
                "--setenv", "HOME", INSIDE_TMP, "--setenv", "TMPDIR", INSIDE_TMP,
            ])
            .args(["--setenv", "LANG", "C", "--setenv", "USER", "nobody"]);
        for (name, value) in self.env.iter().filter(|(k, _)| k != "PATH") {
            options.args(["--setenv", name, value]);
        }
        // The options go on stdin; the command stays on the command line
        // (bubblewrap takes it from there only), with no host path in it.
        let mut input = Vec::new();
        for arg in options.get_args() {
            input.extend_from_slice(arg.as_encoded_bytes());
            input.push(0);
        }
        let mut c = Spec::new("bwrap")
            .args(["--args", "0", "--", "prlimit"])
            .arg(format!("--nproc={0}:{0}", self.processes));
        // CPU time: the wall limit and a second (a busy program dies by
        // SIGXCPU a little after the wall limit would have killed it).
        let cpu = limits.time.as_secs().saturating_add(1);
        c = c.arg(format!("--cpu={cpu}:{cpu}"));
        if let Some(mib) = limits.memory_mib {
            c = c.arg(format!("--as={0}:{0}", mib << 20));
        }
        if let Some(mib) = limits.file_mib {
            c = c.arg(format!("--fsize={0}:{0}", mib << 20));
        }
        c = c.arg("--").arg(program).args(args.iter().copied());
        if let Some((uid, gid)) = self.run_as {
            // No supplementary groups either (see [`Spec::user`]).
            c = c.user(uid, gid);
        }
        c.input(input)
    }

    /// Runs `program args..` in the sandbox (the working directory is the
    /// copy `sub`, the private temporary directory `tmp`, the grader's log
    /// folder `logs`, read-only, if any) under `limits`, and
    /// waits for it (at most the time limit); when it ends or is killed,
    /// every process it started goes with the sandbox's PID namespace.
    ///
    /// # Errors
    /// The I/O error when bubblewrap cannot be started at all.
    pub fn run(
        &self,
        sub: &Path,
        tmp: &Path,
        logs: Option<&Path>,
        program: &str,
        args: &[&str],
        limits: &Limits,
    ) -> std::io::Result<Outcome> {
        let spec = self.command(sub, tmp, logs, program, args, limits);
        let over = |cap: u64| move || disk_usage(sub).saturating_add(disk_usage(tmp)) > cap;
        match self.disk_bytes {
            Some(cap) => supervise(spec, limits.time, Some(&over(cap))),
            None => supervise(spec, limits.time, None),
        }
    }

    /// Checks that the sandbox starts here: runs `true` in it, in a
    /// temporary directory inside `work_dir` (the system's by default).
    ///
    /// # Errors
    /// One line saying why it cannot start and how to fix that.
    pub fn probe(&self, work_dir: Option<&Path>) -> Result<(), String> {
        let fix = "install bubblewrap 0.8.0 or later (`make setup`, or apt-get install \
                   bubblewrap) and allow unprivileged user namespaces, or pass --no-sandbox \
                   to grade trusted code unconfined";
        let dir = match work_dir {
            Some(dir) => tempfile::Builder::new().prefix("probe-").tempdir_in(dir),
            None => tempfile::Builder::new().prefix("probe-").tempdir(),
        }
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let (sub, tmp) = (dir.path().join("sub"), dir.path().join("tmp"));
        for d in [&sub, &tmp] {
            std::fs::create_dir(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        }
        self.hand_over(dir.path())
            .map_err(|e| format!("cannot hand {} to the sandbox: {e}", dir.path().display()))?;
        let limits = Limits {
            time: Duration::from_secs(20),
            memory_mib: None,
            file_mib: None,
        };
        let outcome = match self.run(&sub, &tmp, None, "true", &[], &limits) {
            Ok(outcome) => outcome,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "the sandbox cannot start: bubblewrap (bwrap) is not installed: {fix}"
                ))
            }
            Err(e) => return Err(format!("the sandbox cannot start: bwrap: {e}: {fix}")),
        };
        if outcome.success() {
            return Ok(());
        }
        let why = String::from_utf8_lossy(&outcome.stderr);
        let why = why.lines().next().unwrap_or("no message").trim().to_owned();
        Err(format!(
            "the sandbox cannot start ({why}; exit {:?}): {fix}",
            outcome.exit
        ))
    }
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
        // What it wrote before the kill is kept.
        let out = run(
            &dir,
            "sh",
            &["-c", "echo early; sleep 30"],
            &[],
            &limits(0.3),
        )
        .unwrap();
        assert_eq!(out.exit, Exit::TimedOut);
        assert_eq!(out.stdout, b"early\n");
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

    /// A sandbox in a fresh directory pair (copy, tmp), handed over to it.
    fn sandbox(processes: u64) -> (Sandbox, tempfile::TempDir) {
        assert!(
            Command::new("bwrap").arg("--version").output().is_ok(),
            "bubblewrap (bwrap) is not installed: `make setup` installs it"
        );
        let sandbox = Sandbox::for_this_user(processes, Some(64 << 20));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        sandbox.hand_over(dir.path()).unwrap();
        (sandbox, dir)
    }

    fn in_sandbox(sandbox: &Sandbox, dir: &Path, script: &str, secs: f64) -> Outcome {
        let (sub, tmp) = (dir.join("sub"), dir.join("tmp"));
        sandbox
            .run(&sub, &tmp, None, "sh", &["-c", script], &limits(secs))
            .unwrap()
    }

    #[test]
    fn a_fork_storm_stops_at_the_process_limit() {
        let (sandbox, dir) = sandbox(32);
        // Each sleeper is counted in the copy until fork fails (dash then
        // gives up); none survives the sandbox.
        let out = in_sandbox(
            &sandbox,
            dir.path(),
            "i=0; while [ $i -lt 2000 ]; do sleep 979 & i=$((i + 1)); echo $i > count; done",
            10.0,
        );
        assert_ne!(out.exit, Exit::Code(0), "{out:?}");
        let count: u32 = std::fs::read_to_string(dir.path().join("sub/count"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!((20..32).contains(&count), "{count} sleepers started");
    }

    #[test]
    fn nothing_outlives_a_sandboxed_command_not_even_setsid() {
        let (sandbox, dir) = sandbox(64);
        let out = in_sandbox(
            &sandbox,
            dir.path(),
            "setsid sh -c 'exec sleep 976' >/dev/null 2>&1 & echo started",
            5.0,
        );
        assert_eq!(out.exit, Exit::Code(0));
        assert_eq!(out.stdout, b"started\n");
        let hung = in_sandbox(&sandbox, dir.path(), "setsid sleep 975 & sleep 30", 0.3);
        assert_eq!(hung.exit, Exit::TimedOut);
        assert!(hung.elapsed < Duration::from_secs(3), "{:?}", hung.elapsed);
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let line = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let line = String::from_utf8_lossy(&line).replace('\0', " ");
            assert!(
                !line.contains("sleep 976") && !line.contains("sleep 975"),
                "left running: {line}"
            );
        }
    }

    #[test]
    fn the_sandbox_sees_its_copy_and_the_system_only() {
        let (sandbox, dir) = sandbox(64);
        let out = in_sandbox(
            &sandbox,
            dir.path(),
            "pwd; ls /; touch /sub/mine /tmp/mine && echo writable; \
             touch /usr/x /etc/x /x 2>/dev/null || echo read-only; \
             tr '\\0' ' ' < /proc/1/cmdline; echo; ls /proc | grep -c '^[0-9]'",
            5.0,
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "/sub", "{text}");
        let n = lines.len();
        let root: Vec<&str> = lines[1..n - 4].to_vec();
        for name in &root {
            assert!(
                [
                    "bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "sub",
                    "tmp", "usr"
                ]
                .contains(name),
                "{name} is visible: {text}"
            );
        }
        assert_eq!(&lines[n - 4..n - 2], ["writable", "read-only"], "{text}");
        // bwrap's command line names no host path (its arguments came on
        // stdin).
        let init = lines[n - 2];
        assert!(init.starts_with("bwrap --args 0 -- prlimit "), "{text}");
        let host = dir.path().display().to_string();
        assert!(!init.contains(&host), "{text}");
        // sh, ls, grep and bwrap's init: a handful, not the machine's.
        let seen: u32 = lines[n - 1].parse().unwrap();
        assert!(seen <= 6, "{seen} processes visible: {text}");
        assert!(dir.path().join("sub/mine").exists() && dir.path().join("tmp/mine").exists());
    }

    #[test]
    fn a_disk_filler_is_killed_past_the_disk_limit() {
        let (sandbox, dir) = sandbox(64);
        // 64 MiB allowed; 50 files of 20 MB (fewer finished within one poll on a loaded
        // machine: the writer must be stopped long before its end).
        let out = in_sandbox(
            &sandbox,
            dir.path(),
            "i=0; while [ $i -lt 50 ]; do head -c 20000000 /dev/zero > f$i; i=$((i + 1)); done",
            10.0,
        );
        assert_eq!(out.exit, Exit::Signal(Signal::SIGXFSZ as i32), "{out:?}");
        assert!(disk_usage(dir.path()) < 1_000_000_000);
    }

    #[test]
    fn what_the_disk_watch_cannot_read_counts_as_over_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), vec![1u8; 10_000]).unwrap();
        let one = disk_usage(dir.path());
        assert!((10_000..100_000).contains(&one), "{one}");
        // Too many entries to walk within the poll.
        let many = dir.path().join("many");
        std::fs::create_dir(&many).unwrap();
        for i in 0..=DISK_ENTRIES {
            std::fs::File::create(many.join(i.to_string())).unwrap();
        }
        assert_eq!(disk_usage(dir.path()), u64::MAX);
        std::fs::remove_dir_all(&many).unwrap();
        // Deeper than a path may be (30 folders of 200 bytes: over 4,096), made one level at
        // a time by bash (dash refuses to go deeper): the walk cannot reach the bottom.
        let name = "d".repeat(200);
        let made = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "for i in $(seq 30); do mkdir {name} && cd {name} || exit 1; done"
            ))
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(disk_usage(dir.path()), u64::MAX);
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
