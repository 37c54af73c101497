//! Fault injection against the three servers (issue 10): bots that crash, exit
//! at once, hang, flood with and without newlines, print garbage, close their
//! stdout, and (Coup) rewrite or delete the history file.
//!
//! For every fault and server: the misbehaving bot is the one blamed, with a
//! reason naming the fault; the next game is still played; the server ends
//! within its timeouts; no process of any bot's process group is left (each
//! bot records its group id and starts a background sleeper of its own); and
//! the peak RSS of every process this test waited for stays under 100 MB.
//! Bots are `sh` scripts; the tests need Linux's `/proc`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use cardgames::child::group_members;

/// Peak RSS allowed to a server (and to every other child of this test).
const MAX_RSS_KB: i64 = 100 * 1024;

/// The start of every bad bot: record its process group, start a sleeper in
/// the same group (it must die with the group).
const PROLOGUE: &str =
    "cut -d' ' -f5 /proc/$$/stat >> \"$PGID_FILE\"\nsleep 300 >/dev/null 2>&1 &\n";

struct Case {
    name: &'static str,
    /// The script after the prologue.
    body: &'static str,
    /// Words one of which the forfeit reason must contain.
    says: &'static [&'static str],
}

/// Faults for the line protocols (Durak, Ioiwari).
const LINE_FAULTS: &[Case] = &[
    Case {
        name: "crash",
        body: "read l\nkill -SEGV $$\n",
        says: &["closed", "signal"],
    },
    Case {
        name: "exit-at-once",
        body: "exit 0\n",
        says: &["closed"],
    },
    Case {
        name: "hang",
        body: "exec sleep 300\n",
        says: &["within", "budget", "timeout"],
    },
    Case {
        name: "flood-lines",
        body: "exec yes garbage\n",
        says: &["garbage", "more than", "illegal", "malformed", "unreadable"],
    },
    Case {
        name: "flood-no-newline",
        body: "while :; do printf XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX; done\n",
        says: &["longer than"],
    },
    Case {
        name: "garbage",
        body: "while :; do printf '\\377\\376\\001\\n'; read l || exit 0; done\n",
        says: &["UTF-8"],
    },
    Case {
        name: "close-stdout",
        body: "exec 1>&-\nexec sleep 300\n",
        // Under durak-server's `sh -c` the wrapper shell still holds the pipe: a timeout.
        says: &["closed", "within the budget"],
    },
];

/// Faults of a Coup bot (one call per decision, history file in `$1`).
const COUP_FAULTS: &[Case] = &[
    Case {
        name: "crash",
        body: "kill -SEGV $$\n",
        says: &["exit status", "signal"],
    },
    Case {
        name: "exit-at-once",
        body: "exit 0\n",
        says: &["illegal move"],
    },
    Case {
        name: "hang",
        body: "exec sleep 300\n",
        says: &["no answer within 1000 ms"],
    },
    Case {
        name: "flood-lines",
        body: "exec yes garbage\n",
        says: &["more than"],
    },
    Case {
        name: "flood-no-newline",
        body: "while :; do printf XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX; done\n",
        says: &["more than"],
    },
    Case {
        name: "garbage",
        body: "printf '\\377\\376\\001' >> \"$1\"\n",
        says: &["not UTF-8", "illegal move"],
    },
    Case {
        name: "close-stdout",
        body: "exec 1>&-\nexec sleep 300\n",
        says: &["no answer within"],
    },
    Case {
        name: "rewrite-history",
        body: "printf 'I\\nI\\n' > \"$1\"\n",
        // The first call of a game sees an empty file: rewriting it is appending.
        says: &["modified the file", "illegal move"],
    },
    Case {
        name: "delete-history",
        body: "rm -f \"$1\"\n",
        says: &["unreadable"],
    },
    Case {
        name: "long-append",
        body: "head -c 100000 /dev/zero | tr '\\0' I >> \"$1\"\n",
        // Under the 1 MiB cap: read, refused, and quoted by a short prefix only (D08).
        says: &["illegal move"],
    },
    Case {
        name: "huge-history",
        body: "head -c 3000000 /dev/zero | tr '\\0' I >> \"$1\"\n",
        says: &["grew over"],
    },
];

/// The fault tests read process groups from Linux's `/proc`: on another system they are
/// ignored at compile time (`cfg_attr`), on Linux `/proc` is required.
fn require_proc() {
    assert!(
        Path::new("/proc/self/stat").exists(),
        "missing prerequisite: Linux /proc (is /proc mounted?)"
    );
}

/// Writes the bad bot `case` into `dir`; returns its path.
fn bot(dir: &Path, case: &Case) -> PathBuf {
    bot_script(dir, case.name, case.body)
}

/// Writes the bad bot `name` (the prologue, then `body`) into `dir`; returns its path.
fn bot_script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/sh\n{PROLOGUE}{body}")).unwrap();
    let mut perm = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&path, perm).unwrap();
    path
}

/// Waits until `ready` holds, polling every 20 ms, at most `GENEROUS` (a loaded machine is
/// slow, never wrong): panics naming `what` if it never does.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let until = Instant::now() + GENEROUS;
    while !ready() {
        assert!(Instant::now() < until, "{what}: not within {GENEROUS:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The deadline of every wait for an event: far beyond what any of them needs on an idle
/// machine, far below what a server that ignored the event would take.
const GENEROUS: Duration = Duration::from_secs(60);

/// Waits until every process of group `pgid` is gone (SIGKILL is asynchronous).
fn wait_group_gone(what: &str, pgid: u32) {
    wait_for(
        &format!("{what}: processes of group {pgid} outlived the server"),
        || group_members(pgid).is_empty(),
    );
}

/// Runs a server with `PGID_FILE` set, checks its time and the bots' groups.
fn serve(mut cmd: Command, pgid_file: &Path, within: Duration, what: &str) -> Output {
    let start = Instant::now();
    let out = cmd.env("PGID_FILE", pgid_file).output().unwrap();
    let took = start.elapsed();
    assert!(took < within, "{what}: took {took:?}, limit {within:?}");
    let pgids = std::fs::read_to_string(pgid_file).unwrap_or_default();
    assert!(!pgids.trim().is_empty(), "{what}: the bad bot never ran");
    for pgid in pgids.split_whitespace() {
        wait_group_gone(what, pgid.parse().unwrap());
    }
    let rss = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .unwrap()
        .max_rss();
    assert!(rss < MAX_RSS_KB, "{what}: peak RSS {rss} KB");
    out
}

/// durak-server playing `deals` deals of the in-process greedy team against the bot script
/// `path` as team B, its JSON in `dir/NAME.json` and `extra` arguments after it, run under
/// [`serve`] (at most `within`): its output, asserted to be a success, and the JSON.
fn durak_vs_greedy(
    dir: &Path,
    path: &Path,
    name: &str,
    deals: &str,
    extra: &[&OsStr],
    within: Duration,
) -> (Output, serde_json::Value) {
    let json = dir.join(format!("{name}.json"));
    let pgids = dir.join(format!("{name}.pgid"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_durak-server"));
    cmd.args(["-q", "--deals", deals, "-a", "inproc:greedy", "-b"])
        .arg(format!("sh {}", path.display()))
        .arg("--json")
        .arg(&json)
        .args(extra);
    let out = serve(cmd, &pgids, within, name);
    assert!(out.status.success(), "{name}: {out:?}");
    let v = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (out, v)
}

fn says(reason: &str, case: &Case) -> bool {
    let r = reason.to_lowercase();
    case.says.iter().any(|w| r.contains(&w.to_lowercase()))
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn durak_server_blames_the_faulty_team() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    for case in LINE_FAULTS {
        let path = bot(dir.path(), case);
        // Budget 2 s + 0.1 s per round per game; two games.
        let (_, v) = durak_vs_greedy(
            dir.path(),
            &path,
            case.name,
            "2",
            &[],
            Duration::from_secs(15),
        );
        assert_eq!(v["partial"], false);
        assert_eq!(
            v["games_played"], 2,
            "{}: the next game was not played",
            case.name
        );
        assert_eq!(v["wins_a"], 2, "{}: {v}", case.name);
        for g in v["games"].as_array().unwrap() {
            assert_eq!(g["forfeit"]["team"], "B", "{}: {g}", case.name);
            let detail = format!("{} {}", g["forfeit"]["reason"], g["forfeit"]["detail"]);
            assert!(says(&detail, case), "{}: reason {detail}", case.name);
            assert!(detail.len() < 300, "{}: {} bytes", case.name, detail.len());
            // Seats are named 1..4 as in the protocol and the transcripts: team B sits at
            // 2 and 4 (1 and 3 in a swapped game).
            let seats = if g["swapped"] == true {
                ["1", "3"]
            } else {
                ["2", "4"]
            };
            let named = g["forfeit"]["detail"].as_str().unwrap_or("");
            assert!(
                seats
                    .iter()
                    .any(|s| named.starts_with(&format!("player {s}: "))),
                "{}: {g}",
                case.name
            );
        }
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn coup_arbiter_blames_the_faulty_bot() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    for case in COUP_FAULTS {
        let path = bot(dir.path(), case);
        let json = dir.path().join(format!("{}.json", case.name));
        let pgids = dir.path().join(format!("{}.pgid", case.name));
        let work = dir.path().join(format!("{}.wd", case.name));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"));
        cmd.args(["-q", "-r", "1", "-j", "1", "--timeout", "1", "--work-dir"])
            .arg(&work)
            .arg("--json")
            .arg(&json)
            .arg(format!("good={}", env!("CARGO_BIN_EXE_coup-bot")))
            .arg(format!("bad={}", path.display()));
        let out = serve(cmd, &pgids, Duration::from_secs(15), case.name);
        assert!(out.status.success(), "{}: {out:?}", case.name);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let games = v["games"].as_array().unwrap();
        assert_eq!(
            games.len(),
            2,
            "{}: the next game was not played",
            case.name
        );
        for g in games {
            let f = &g["forfeit"];
            assert_eq!(f[0], 1, "{}: forfeit charged to {f}", case.name);
            let reason = f[1].as_str().unwrap();
            assert!(says(reason, case), "{}: reason {reason:?}", case.name);
            assert!(reason.len() < 300, "{}: {} bytes", case.name, reason.len());
            assert_eq!(g["winner"], 0);
        }
        assert!(!work.exists(), "{}: the work folder was left", case.name);
    }
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn ioiwari_referee_blames_the_faulty_player() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    for case in LINE_FAULTS {
        let path = bot(dir.path(), case);
        let games_out = dir.path().join(format!("{}.jsonl", case.name));
        let pgids = dir.path().join(format!("{}.pgid", case.name));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ioiwari-referee"));
        cmd.args(["--json", "--timeout-ms", "500", "--exit-grace-ms", "200"])
            .args(["--start", "4 3 2 4 2 3 2", "--start", "3 3 3 3 3 3 2"])
            .arg("--p1")
            .arg(format!("sh {}", path.display()))
            .arg("--games-out")
            .arg(&games_out);
        let out = serve(cmd, &pgids, Duration::from_secs(10), case.name);
        assert!(out.status.success(), "{}: {out:?}", case.name);
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(summary["partial"], false);
        assert_eq!(summary["games"], 2, "{}: {summary}", case.name);
        let log = std::fs::read_to_string(&games_out).unwrap();
        assert_eq!(
            log.lines().count(),
            2,
            "{}: the next game was not played",
            case.name
        );
        for line in log.lines() {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            let f = &g["outcome"];
            assert_eq!(f["kind"], "forfeit", "{}: {g}", case.name);
            assert_eq!(f["player"], 1, "{}: {g}", case.name);
            let reason = f["reason"].as_str().unwrap();
            assert!(says(reason, case), "{}: reason {reason:?}", case.name);
            assert!(reason.len() < 300, "{}: {} bytes", case.name, reason.len());
        }
    }
}

/// SIGINT to a running server once `ready` holds (games finished, bots running): it stops
/// within moments, kills the bots' groups, writes `--json` marked partial with the finished
/// games, prints their standings and exits 130.
fn interrupt(
    mut cmd: Command,
    json: &Path,
    pgid_file: &Path,
    what: &str,
    ready: impl FnMut() -> bool,
) -> serde_json::Value {
    let child = cmd
        .env("PGID_FILE", pgid_file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&format!("{what}: ready for the signal"), ready);
    let out = stop(child, what);
    assert_eq!(out.status.code(), Some(130), "{what}: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("interrupted: "), "{what}: {stdout}");
    for pgid in std::fs::read_to_string(pgid_file)
        .unwrap_or_default()
        .split_whitespace()
    {
        wait_group_gone(what, pgid.parse().unwrap());
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(v["partial"], true, "{what}");
    v
}

/// Sends SIGINT to `child` and collects its output: it must stop promptly (well within
/// [`GENEROUS`]; a server that ignored the signal would run for hours).
fn stop(child: std::process::Child, what: &str) -> Output {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let mut child = child;
    let start = Instant::now();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    // Polled, so a server that ignores the signal fails the test instead of hanging it (its
    // report is a few lines: the pipes cannot fill meanwhile).
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > GENEROUS {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running {GENEROUS:?} after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn servers_stop_cleanly_on_sigint() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    // Durak: a slow bot (0.3 s per answer) so games are running when the signal comes.
    let slow = bot(
        dir.path(),
        &Case {
            name: "slow",
            body: "while read l; do case $l in MOVE*|BEAT*|ADD*) sleep 0.3; echo NO;; esac; done\n",
            says: &[],
        },
    );
    let json = dir.path().join("durak.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_durak-server"));
    cmd.args([
        "-q",
        "--deals",
        "1000",
        "-j",
        "2",
        "-a",
        "inproc:greedy",
        "-b",
    ])
    .arg(format!("sh {}", slow.display()))
    .arg("--json")
    .arg(&json);
    // Ready once the slow bots run (each records its group on start).
    let slow_pgids = dir.path().join("slow.pgid");
    let v = interrupt(cmd, &json, &slow_pgids, "durak-server", || {
        std::fs::read_to_string(&slow_pgids).is_ok_and(|s| !s.trim().is_empty())
    });
    let played = v["games_played"].as_u64().unwrap();
    assert!(played < 1000, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len() as u64, played);

    // Durak in process only, with an endgame diagnostic too large to finish: the one signal
    // stops the solve and the games too (they used to run on, the flag unread, for minutes).
    let json = dir.path().join("durak-inproc.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_durak-server"));
    cmd.args([
        "-q",
        "--deals",
        "4",
        "-j",
        "2",
        "-a",
        "inproc:greedy",
        "-b",
        "inproc:random",
        "--endgame-nodes",
        "100000000000",
        "--json",
    ])
    .arg(&json);
    let started = Instant::now();
    let v = interrupt(
        cmd,
        &json,
        &dir.path().join("none.pgid"),
        "durak-server in process",
        || started.elapsed() > Duration::from_millis(1500),
    );
    assert_eq!(v["games_played"], 0, "{v}");

    // Coup: the project's bot against itself, many rounds.
    let json = dir.path().join("coup.json");
    let work = dir.path().join("coup.wd");
    let pgids = dir.path().join("coup.pgid");
    std::fs::write(&pgids, "").unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"));
    cmd.args(["-q", "-r", "100000", "-j", "2", "--work-dir"])
        .arg(&work)
        .arg("--json")
        .arg(&json)
        .arg(format!("a={}", env!("CARGO_BIN_EXE_coup-bot")))
        .arg(format!(
            "b={} --strategy calculator",
            env!("CARGO_BIN_EXE_coup-bot")
        ));
    // Ready once a game finished: each game has its folder in the work folder while it runs,
    // at most two run at once (-j 2), so a third folder seen means one of them ended.
    let mut seen = std::collections::BTreeSet::new();
    let v = interrupt(cmd, &json, &pgids, "coup-arbiter", || {
        if let Ok(dir) = std::fs::read_dir(&work) {
            seen.extend(dir.flatten().map(|e| e.file_name()));
        }
        seen.len() >= 3
    });
    let games = v["games"].as_array().unwrap();
    assert!(
        !games.is_empty() && games.len() < 200_000,
        "{}",
        games.len()
    );
    assert!(
        games.iter().all(|g| g["forfeit"].is_null()),
        "a cut game was counted"
    );
    assert!(!work.exists(), "the work folder was left");
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn ioiwari_referee_stops_cleanly_on_sigint() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ioiwari-referee"));
    cmd.arg("--json").arg("--games-out").arg(&log);
    for _ in 0..20_000 {
        cmd.args(["--start", "4 3 2 4 2 3 2"]);
    }
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Ready once a game finished (its record is written as it ends).
    wait_for("ioiwari-referee: a finished game", || {
        std::fs::read_to_string(&log).is_ok_and(|s| s.lines().count() >= 1)
    });
    let out = stop(child, "ioiwari-referee");
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["partial"], true);
    assert_eq!(v["games_scheduled"], 20_000);
    let games = v["games"].as_u64().unwrap();
    assert!(games > 0 && games < 20_000, "{games}");
    // Games cut short by the interruption are not counted as forfeits.
    assert_eq!(v["forfeits"], serde_json::json!([0, 0]), "{v}");
}

/// A bot's first answer in Durak, from its own lines: its first card dealt to `MOVE`, `NO`
/// to `BEAT` or `ADD` (both always legal); in `$answer`, every line before the question read.
const DURAK_FIRST_ANSWER: &str = "card=
while read cmd a b rest; do
  case $cmd in
    give) if [ \"$a\" = 1 ] && [ -z \"$card\" ]; then card=$b; fi ;;
    MOVE) answer=$card; break ;;
    BEAT|ADD) answer=NO; break ;;
  esac
done
";

/// The bot stops reading its input and fills its stdin pipe to the last byte: a writer of
/// its own, blocked on the pipe reopened through `/proc`; waits (at most 3 s) until that
/// writer blocks, so the pipe is full before the bot answers.
const FILL_STDIN: &str = "exec 3>/proc/$$/fd/0
cat /dev/zero >&3 &
i=0
while [ $i -lt 300 ]; do
  case $(cat /proc/$!/wchan 2>/dev/null) in *pipe_write) break ;; esac
  sleep 0.01; i=$((i+1))
done
";

/// A bot that stops reading its stdin and lets the pipe fill used to hang durak-server for
/// good (its write to the bot blocked); now the write waits 5 s (`Limits::input_timeout`),
/// the bot's group is killed and its team forfeits.
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn durak_server_forfeits_a_bot_that_stops_reading() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    // Fills its stdin, then answers its first question: the line that reports the answer
    // finds the pipe full.
    let body = format!("{DURAK_FIRST_ANSWER}{FILL_STDIN}echo \"$answer\"\nexec sleep 300\n");
    let path = bot_script(dir.path(), "fill-stdin", &body);
    // 5 s for the blocked line, 2 s for the other copy to exit.
    let (out, v) = durak_vs_greedy(
        dir.path(),
        &path,
        "fill-stdin",
        "1",
        &[],
        Duration::from_secs(20),
    );
    let g = &v["games"][0];
    assert_eq!(g["forfeit"]["team"], "B", "{g}");
    assert_eq!(g["forfeit"]["reason"], "Crash", "{g}");
    let detail = g["forfeit"]["detail"].as_str().unwrap();
    assert!(
        ["player 2: ", "player 4: "]
            .iter()
            .any(|p| detail == format!("{p}did not read its input within 5000 ms")),
        "{detail}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("losses by forfeit [crash: 1]"), "{stdout}");
}

/// Ioiwari: player 1 fills its stdin after the start line and then moves; the opponent's
/// reply cannot be delivered, and player 1 forfeits instead of hanging the referee.
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn ioiwari_referee_forfeits_a_player_that_stops_reading() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    let body = format!("read start\n{FILL_STDIN}echo 1\nexec sleep 300\n");
    let path = bot_script(dir.path(), "fill-stdin", &body);
    let games_out = dir.path().join("fill.jsonl");
    let pgids = dir.path().join("fill.pgid");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ioiwari-referee"));
    cmd.args(["--json", "--start", "4 3 2 4 2 3 2", "--p1"])
        .arg(format!("sh {}", path.display()))
        .arg("--games-out")
        .arg(&games_out);
    let out = serve(cmd, &pgids, Duration::from_secs(15), "fill-stdin");
    assert!(out.status.success(), "{out:?}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["forfeits"], serde_json::json!([1, 0]), "{summary}");
    let g: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&games_out).unwrap().trim()).unwrap();
    assert_eq!(g["outcome"]["kind"], "forfeit", "{g}");
    assert_eq!(g["outcome"]["player"], 1, "{g}");
    assert_eq!(
        g["outcome"]["reason"], "move 2 (its opponent's): did not read its input within 5000 ms",
        "{g}"
    );
}

/// A bot that prints each answer twice: the second copy, waiting before the next question,
/// used to be taken for that question's answer (an illegal card, or a `NO` where none is
/// allowed); it is now a forfeit that says what happened.
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn durak_server_blames_an_answer_written_before_its_question() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    // Its first answer twice in one write, then it reads on and answers nothing.
    let body = format!(
        "{DURAK_FIRST_ANSWER}printf '%s\\n%s\\n' \"$answer\" \"$answer\"\nwhile read l; do :; done\n"
    );
    let path = bot_script(dir.path(), "twice", &body);
    let (_, v) = durak_vs_greedy(
        dir.path(),
        &path,
        "twice",
        "3",
        &[],
        Duration::from_secs(15),
    );
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["forfeit"]["team"], "B", "{g}");
        assert_eq!(g["forfeit"]["reason"], "Malformed", "{g}");
        let detail = g["forfeit"]["detail"].as_str().unwrap();
        assert!(
            detail.contains(": answered before it was asked: \""),
            "{detail}"
        );
    }
}

/// A bot that plays the game and then does not exit: it is killed after the grace time,
/// and the server says so (it used to drop the note).
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /proc")]
fn durak_server_notes_a_bot_that_does_not_exit_after_the_game() {
    require_proc();
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{} --strategy greedy\nexec sleep 300\n",
        env!("CARGO_BIN_EXE_durak-bot")
    );
    let path = bot_script(dir.path(), "stays", &body);
    let html = dir.path().join("stays.html");
    // Two copies, 2 s of grace each.
    let (out, v) = durak_vs_greedy(
        dir.path(),
        &path,
        "stays",
        "1",
        &[OsStr::new("--html"), html.as_os_str()],
        Duration::from_secs(20),
    );
    let g = &v["games"][0];
    assert!(g["forfeit"].is_null(), "{g}");
    assert_eq!(
        g["notes"],
        serde_json::json!([
            "player 2: did not exit after the game; killed",
            "player 4: did not exit after the game; killed"
        ]),
        "{g}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "note in deal 0 (swapped false): player 2: did not exit after the game; killed; \
             player 4: did not exit after the game; killed"
        ),
        "{stdout}"
    );
    // The report's faults list both, under the team that ran the program (team B).
    let page = std::fs::read_to_string(&html).unwrap();
    for p in [2, 4] {
        let row = format!(
            "<td class=\"l\">team B</td><td class=\"l mono\">after the game: player {p}: did not exit after the game; killed</td>"
        );
        assert!(page.contains(&row), "{row} not in {page}");
    }
    assert!(!page.contains("No faults"), "{page}");
}
