//! Regression tests for the defects found by fuzzing and fault injection
//! (issue 10; reproducers in `../shared/reliability/`, one test per defect id
//! here). Each runs the built program the way the reproducer does and checks
//! the behaviour the reproducer names as expected.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `program` with `args`, feeding `stdin`, and returns its output.
fn run(program: &str, args: &[&str], stdin: &[u8], dir: Option<&Path>) -> Output {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

/// One coup-bot decision on a history file holding `history`, the only legal
/// answer being Income: returns the exit code, what it appended and stderr.
fn coup_bot_income_only(history: &[u8], cards: &str) -> (Option<i32>, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.txt");
    std::fs::write(&path, history).unwrap();
    let p = path.to_str().unwrap();
    let out = run(
        env!("CARGO_BIN_EXE_coup-bot"),
        &[p, "1", "3", cards, "I\n"],
        b"",
        None,
    );
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(history), "the history was rewritten");
    (
        out.status.code(),
        after[history.len()..].to_vec(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// D01: a history whose last character is not ASCII (a corrupt byte read as
/// U+FFFD) made coup-bot panic slicing inside the character.
#[test]
fn d01_coup_bot_survives_a_multibyte_last_character() {
    for history in [&b"I\n\xff"[..], "I\né".as_bytes(), "I\n€".as_bytes()] {
        let (code, appended, stderr) = coup_bot_income_only(history, "~!");
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(appended, b"I\n", "{stderr}");
    }
    assert_eq!(cardgames::coup::rules::last_line("I\n\u{fffd}"), "\u{fffd}");
    assert_eq!(cardgames::coup::rules::last_line("I\né\n"), "é\n");
    assert_eq!(cardgames::coup::rules::last_line("é"), "é");
    assert_eq!(cardgames::coup::rules::last_line(""), "");
}

/// D11: fewer than two unseen cards (a history giving up 14 cards, or 15
/// cards passed as the bot's own) made the opponent model recurse forever.
#[test]
fn d11_coup_bot_survives_an_impossible_card_count() {
    let many = b"C_\nC'\nC<\nC=\nC0\nC_\nC'\nC<\nC=\nC0\nC_\nC'\nC<\nC=\n";
    let (code, appended, stderr) = coup_bot_income_only(many, "~!");
    assert_eq!(
        (code, appended.as_slice()),
        (Some(0), &b"I\n"[..]),
        "{stderr}"
    );
    let (code, appended, stderr) = coup_bot_income_only(b"I\n", "~~~^^^***!!!$$$");
    assert_eq!(
        (code, appended.as_slice()),
        (Some(0), &b"I\n"[..]),
        "{stderr}"
    );
    // The model itself: no unseen card at all, or one for a two-card hand.
    let r = cardgames::coup::Record::default();
    for (unseen, k) in [([0; 5], 1), ([0; 5], 2), ([0, 0, 1, 0, 0], 2)] {
        let hands = cardgames::coup::model::hand_distribution(
            &r,
            &unseen,
            k,
            [1.0; 5],
            false,
            cardgames::coup::model::HALF_PASS,
        );
        assert!(
            hands.iter().all(|h| h.1.is_finite() && h.1 >= 0.0),
            "{hands:?}"
        );
    }
}

/// D16: a 10 MB history took seconds and gigabytes; only its tail is read now,
/// and the answer is still the legal one.
#[test]
fn d16_coup_bot_reads_a_huge_history_quickly() {
    let history = "I\n".repeat(5_000_000);
    let start = std::time::Instant::now();
    let (code, appended, stderr) = coup_bot_income_only(history.as_bytes(), "~!");
    assert_eq!(
        (code, appended.as_slice()),
        (Some(0), &b"I\n"[..]),
        "{stderr}"
    );
    assert!(stderr.contains("reading only its last lines"), "{stderr}");
    assert!(
        start.elapsed().as_secs() < 20,
        "took {:?} (was 67 s for 100 MB)",
        start.elapsed()
    );
    // One huge bad line is not quoted whole on stderr.
    let mut bad = b"I\n".to_vec();
    bad.extend(std::iter::repeat_n(b'z', 50_000));
    let (code, _, stderr) = coup_bot_income_only(&bad, "~!");
    assert_eq!(code, Some(0));
    assert!(stderr.len() < 2_000, "{} bytes of stderr", stderr.len());
}

/// D05: a line that is not UTF-8 stopped durak-bot (exit 0, no answer to the
/// MOVE that follows); it is skipped now, like any unreadable line.
#[test]
fn d05_durak_bot_skips_a_non_utf8_line() {
    for junk in [&b"\xff"[..], b"xyz", &[b'x'; 100_000][..]] {
        let mut input = b"trump S\ngive 1 6S\n".to_vec();
        input.extend_from_slice(junk);
        input.extend_from_slice(b"\nMOVE\n");
        let out = run(env!("CARGO_BIN_EXE_durak-bot"), &[], &input, None);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "6S\n");
    }
}

/// D12: a MOVE after both players of one team are out made the search's
/// playout index an empty legal list.
#[test]
fn d12_durak_bot_answers_when_a_team_is_out() {
    for outs in ["out 2\nout 4\n", "out 4\nout 2\n", "out 1\nout 3\n"] {
        let input = format!("trump H\ngive 1 9H\ngive 1 QD\n{outs}MOVE\n");
        let out = run(env!("CARGO_BIN_EXE_durak-bot"), &[], input.as_bytes(), None);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{outs:?}");
        assert!(
            stdout == "9H\n" || stdout == "QD\n",
            "{outs:?}: answered {stdout:?}, not a card of the hand"
        );
    }
}

fn homework(dir: &Path, in_text: &[u8]) -> Output {
    std::fs::write(dir.join("in"), in_text).unwrap();
    run(env!("CARGO_BIN_EXE_homework"), &[], b"", Some(dir))
}

/// D13: a failed run left the previous test's `out`, which the checker then
/// diffed against this test's reference.
#[test]
fn d13_homework_removes_a_stale_out() {
    let dir = tempfile::tempdir().unwrap();
    let good = homework(dir.path(), b"razboi\n0\n");
    assert!(good.status.success());
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), b"1\n");
    let bad = homework(dir.path(), b"razboi\n1\nnpiles 3 1 2 3\n");
    assert_eq!(bad.status.code(), Some(1));
    assert!(!dir.path().join("out").exists(), "a stale out survived");
}

/// D14: a blank first line, a UTF-8 byte order mark and a blank line among
/// the shuffles are accepted (same `out` as the plain file); an over-long
/// line gives a short message.
#[test]
fn d14_homework_accepts_bom_and_blank_lines_and_cuts_long_messages() {
    let dir = tempfile::tempdir().unwrap();
    let plain = homework(dir.path(), b"amestecare\n2\ninversare\nmongean\n");
    assert!(plain.status.success());
    let expected = std::fs::read(dir.path().join("out")).unwrap();
    for text in [
        &b"\namestecare\n2\ninversare\nmongean\n"[..],
        b"\xef\xbb\xbfamestecare\r\n2\r\ninversare\r\nmongean\r\n",
        b"amestecare\n2\ninversare\n\nmongean\n",
        b"  \r\namestecare\n\n2\n\ninversare\n\n\nmongean\n\n",
    ] {
        let out = homework(dir.path(), text);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text:?}: {stderr}");
        assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), expected);
    }
    // Still errors, each one short line naming its line number.
    let order: Vec<String> = (0..1_000_000).map(|i| (i % 7 + 1).to_string()).collect();
    let long_numbers = format!("amestecare\n1\nnpiles 1000000 {}\n", order.join(" "));
    let long_words = format!("amestecare\n1\n{}\n", "x".repeat(500_000));
    for (text, says) in [
        (long_numbers.as_bytes(), "larger than"),
        (long_words.as_bytes(), "in:3: unknown shuffle"),
        (b"\n\npoker\n".as_slice(), "in:3: unknown task"),
        (b"\n \n\r\n".as_slice(), "no task name"),
    ] {
        let out = homework(dir.path(), text);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr.contains(says), "{stderr:?} should say {says:?}");
        assert!(stderr.len() < 200, "{} bytes: {stderr:?}", stderr.len());
        assert!(!dir.path().join("out").exists());
    }
    let order: Vec<String> = (0..100_000).map(|i| (i % 7 + 1).to_string()).collect();
    let text = format!("amestecare\n1\nnpiles 100000 {}\n", order.join(" "));
    let out = homework(dir.path(), text.as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a permutation"), "{stderr}");
    assert!(stderr.len() < 200, "{} bytes", stderr.len());
}

/// D02: under `--original-quirks` a bot appending a 2-byte character made the
/// arbiter panic and lose the whole tournament; now that bot forfeits.
#[test]
fn d02_coup_arbiter_quirks_survive_a_multibyte_append() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.sh");
    std::fs::write(&bad, "#!/bin/sh\nprintf '\\303\\251' >> \"$1\"\n").unwrap();
    let mut perm = std::fs::metadata(&bad).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&bad, perm).unwrap();
    let json = dir.path().join("r.json");
    let out = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
        .args([
            "-q",
            "-r",
            "2",
            "-j",
            "1",
            "--original-quirks",
            "--work-dir",
        ])
        .arg(dir.path().join("wd"))
        .arg("--json")
        .arg(&json)
        .arg(format!("good={}", env!("CARGO_BIN_EXE_coup-bot")))
        .arg(format!("bad={}", bad.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for g in games {
        assert_eq!(g["forfeit"][0], 1, "{g}");
        assert_eq!(g["winner"], 0, "{g}");
    }
}

/// D10: a full disk or a closed pipe on stdout made the servers panic, and
/// coup-arbiter printed before writing `--json`, losing the results. Now: one
/// error line, a non-zero exit, and the JSON written first.
#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "needs Linux /dev/full")]
fn d10_servers_survive_a_full_or_closed_stdout() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("missing prerequisite: Linux /dev/full");
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let out = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
        .args(["-q", "-r", "3", "--work-dir"])
        .arg(dir.path().join("wd"))
        .arg("--json")
        .arg(&json)
        .args(["builtin:honest", "builtin:random"])
        .stdout(full.try_clone().unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write to stdout"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 6);

    let out = Command::new(env!("CARGO_BIN_EXE_ioiwari-referee"))
        .args(["--start", "4 3 2 4 2 3 2"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write to stdout"), "{err}");

    // A closed pipe: the reader is gone before the report is printed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_durak-server"))
        .args([
            "-q",
            "-a",
            "inproc:greedy",
            "-b",
            "inproc:random",
            "--deals",
            "20",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("Broken pipe"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// D15: a bot name with `/` was accepted and every game forfeited, charged to
/// whichever bot sat first; such names are refused before any game.
#[test]
fn d15_coup_arbiter_refuses_names_that_are_not_folder_names() {
    for name in ["a/b", "..", "."] {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
            .args(["-q", "-r", "1", "--work-dir"])
            .arg(dir.path().join("wd"))
            .arg(format!("{name}=builtin:random"))
            .arg("c=builtin:random")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("cannot be a folder name"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}: games were played");
    }
    // A name too long for a history file's name (two names in 255 bytes) was
    // accepted: every game then failed to set up and was charged to the bot
    // seated first. It is refused up front too, in one short line.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
        .args(["-q", "-r", "1", "--work-dir"])
        .arg(dir.path().join("wd"))
        .arg(format!("{}=builtin:random", "x".repeat(250)))
        .arg("c=builtin:random")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("more than 100"), "{err}");
    assert!(err.len() < 200 && err.lines().count() == 1, "{err}");
    assert!(out.stdout.is_empty(), "games were played");
}

/// `durak-server --mix NaN` once reached the in-process search bot's random draw and
/// panicked; the share is a deep search setting now (`opponent_mix`), and a value outside
/// 0..1 is refused on the command line in one line, naming the key.
#[test]
fn durak_server_refuses_a_mix_outside_0_to_1() {
    for mix in ["NaN", "5", "-1", "inf"] {
        let out = Command::new(env!("CARGO_BIN_EXE_durak-server"))
            .args(["-q", "-b", "inproc:random", "--deals", "1", "-a"])
            .arg(format!("inproc:deep:opponent_mix={mix}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{mix}: {err}");
        assert!(
            err.contains("opponent_mix") && err.lines().count() == 1,
            "{mix}: {err}"
        );
        assert!(!err.contains("panicked"), "{mix}: {err}");
    }
}

/// Stderr as a pipe whose reader has gone (writes fail with EPIPE; SIGPIPE is ignored in
/// Rust programs), for the programs' diagnostics.
fn broken_stderr() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

/// The bots wrote their diagnostics with `eprintln!`, which panics when stderr cannot be
/// written: coup-bot then exited 101 before appending its answer (a forfeit), durak-bot
/// `--verbose` and ioiwari `-v` before printing their move. They answer now
/// (`cardgames::diag!`).
#[test]
fn the_bots_answer_when_stderr_is_broken() {
    // coup-bot with a bad OPP_COINS and --explain: two things to say on stderr.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.txt");
    std::fs::write(&path, "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_coup-bot"))
        .args([
            "--explain",
            path.to_str().unwrap(),
            "x",
            "1",
            "~!",
            "I\n",
            "F",
            "E",
            "T",
            "S",
        ])
        .current_dir(dir.path())
        .stderr(broken_stderr())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answer = std::fs::read_to_string(&path).unwrap();
    assert!(
        ["I\n", "F", "E", "T", "S"].contains(&answer.as_str()),
        "{answer:?}"
    );
    // durak-bot --verbose: its only card is the only move.
    let out = with_broken_stderr(
        env!("CARGO_BIN_EXE_durak-bot"),
        "--verbose",
        b"trump S\ngive 1 6S\nMOVE\n",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "6S");
    // ioiwari -v: one move of the starting player.
    let out = with_broken_stderr(env!("CARGO_BIN_EXE_ioiwari"), "-v", b"4 3 2 4 2 3 2\n");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    assert!(!out.stdout.is_empty(), "no move printed");
}

/// Runs `program` with one argument and `input` on stdin, stderr broken
/// ([`broken_stderr`]).
fn with_broken_stderr(program: &str, arg: &str, input: &[u8]) -> Output {
    let mut child = Command::new(program)
        .arg(arg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(broken_stderr())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The processes whose command line is exactly `sleep SECONDS`.
fn sleepers(seconds: &str) -> Vec<u32> {
    let wanted = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let zombie = state
                .rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
            (cmdline == wanted.as_bytes() && !zombie).then_some(pid)
        })
        .collect()
}

/// A bot's helper that leaves the bot's process group (`setsid`) used to outlive the server
/// (reparented to init, one per game: the "setsid" limit of `child`'s docs). The servers now
/// adopt such orphans and kill them: none is left once the server exits.
#[test]
fn servers_leave_no_helper_that_left_its_group() {
    // A sleep length of its own per run, so parallel test runs do not see each other's.
    let seconds = format!("{}.{}", 1000 + std::process::id() % 1000, 7);
    let escape = format!("setsid sleep {seconds} </dev/null >/dev/null 2>&1 &");
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.sh");
    let coup_bot = env!("CARGO_BIN_EXE_coup-bot");
    std::fs::write(
        &bot,
        format!("#!/bin/sh\n{escape}\nexec {coup_bot} \"$@\"\n"),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&bot).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&bot, perms).unwrap();
    let work = dir.path().join("work");
    let work = work.to_str().unwrap();
    let coup = run(
        env!("CARGO_BIN_EXE_coup-arbiter"),
        &[
            "-q",
            "-r",
            "1",
            "-s",
            "7",
            "--work-dir",
            work,
            bot.to_str().unwrap(),
            "builtin:honest",
        ],
        b"",
        None,
    );
    assert!(
        coup.status.success(),
        "{}",
        String::from_utf8_lossy(&coup.stderr)
    );
    // A Durak bot that starts the helper and exits: a forfeit, quickly.
    let durak = run(
        env!("CARGO_BIN_EXE_durak-server"),
        &[
            "-q",
            "-a",
            "inproc:greedy",
            "-b",
            &format!("{escape} exit 3"),
            "--deals",
            "2",
        ],
        b"",
        None,
    );
    assert!(
        String::from_utf8_lossy(&durak.stdout).contains("forfeit"),
        "{}",
        String::from_utf8_lossy(&durak.stdout)
    );
    let left = sleepers(&seconds);
    for pid in &left {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(
        left.is_empty(),
        "{} helpers outlived the servers",
        left.len()
    );
}

/// Writes the shell script `body` as the executable `dir/name`; returns its path.
fn script(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    let mut perm = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&path, perm).unwrap();
    path
}

/// Runs coup-arbiter (`-q -j 1 --timeout 2`, `extra` options) with `good` =
/// coup-bot and `bad` = `bad`, work folder `dir/wd`; it must end within 20 s
/// (it is killed otherwise, failing the test). Returns its output and JSON.
fn arbiter_vs(dir: &Path, bad: &Path, extra: &[&str]) -> (Output, serde_json::Value) {
    let json = dir.join("r.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
        .args(["-q", "-j", "1", "--timeout", "2"])
        .args(extra)
        .arg("--work-dir")
        .arg(dir.join("wd"))
        .arg("--json")
        .arg(&json)
        .arg(format!("good={}", env!("CARGO_BIN_EXE_coup-bot")))
        .arg(format!("bad={}", bad.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    // Polled: an arbiter stuck on what a bot planted fails the test instead of hanging it
    // (its report is a few lines, the pipes cannot fill meanwhile).
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("coup-arbiter {extra:?} still running after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("head to head"), "no report: {stdout}");
    let v = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (out, v)
}

/// A bot replacing its history file with a FIFO, or with a symbolic link,
/// made the arbiter block forever opening the FIFO (in the kernel's
/// `wait_for_partner`, beyond `--timeout` and SIGTERM) and read whatever the
/// link pointed at. Now the file is opened without following a link or
/// blocking, and anything but a regular file is that bot's forfeit.
#[test]
fn coup_arbiter_blames_a_history_file_replaced_by_a_fifo_or_a_link() {
    let cases = [
        (
            "fifo",
            "rm -f \"$1\"; mkfifo \"$1\"\n",
            "no longer a regular file (a FIFO)",
        ),
        (
            "link",
            "rm -f \"$1\"; ln -s /etc/passwd \"$1\"\n",
            "replaced by a symbolic link",
        ),
        (
            "dir",
            "rm -f \"$1\"; mkdir \"$1\"\n",
            "no longer a regular file (a directory)",
        ),
    ];
    for (name, body, says) in cases {
        for keep in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let bad = script(dir.path(), &format!("{name}.sh"), body);
            let mut extra = vec!["-r", "2"];
            if keep {
                extra.push("--keep-bot-dirs");
            }
            let (out, v) = arbiter_vs(dir.path(), &bad, &extra);
            let games = v["games"].as_array().unwrap();
            assert_eq!(games.len(), 4, "{name} keep {keep}: {v}");
            for g in games {
                assert_eq!(g["forfeit"][0], 1, "{name} keep {keep}: {g}");
                let reason = g["forfeit"][1].as_str().unwrap();
                assert!(reason.contains(says), "{name} keep {keep}: {reason}");
                assert!(
                    !reason.contains("root:"),
                    "{name}: read through the link: {reason}"
                );
                assert_eq!(g["winner"], 0, "{name} keep {keep}: {g}");
            }
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(stdout.contains(says), "{name} keep {keep}: {stdout}");
        }
    }
}

/// A bot that answers legally and plants a FIFO, or a link to a file of the
/// user's, where the next game's history file will be created made the
/// arbiter block forever creating it (or truncate the linked file). Now the
/// arbiter removes what was planted, without following it, and creates the
/// file anew: the next game is played, nobody forfeits, the file is intact.
#[test]
fn coup_arbiter_replaces_what_a_bot_planted_for_the_next_game() {
    for plant in ["mkfifo", "ln -s"] {
        for keep in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let victim = dir.path().join("victim.txt");
            std::fs::write(&victim, "precious\n").unwrap();
            let target = if plant == "mkfifo" {
                String::new()
            } else {
                format!("'{}'", victim.display())
            };
            // g0: good v bad (bad plants); g1: bad v good, file bad_good_0_1.txt in
            // wd/r0_g1 (or wd/games with --keep-bot-dirs).
            let body = format!(
                "printf \"%s\" \"$5\" >> \"$1\"\n\
                 wd=$(dirname \"$(dirname \"$1\")\")\n\
                 mkdir -p \"$wd/r0_g1\"\n\
                 for f in \"$wd/r0_g1/bad_good_0_1.txt\" \"$(dirname \"$1\")/bad_good_0_1.txt\"; do\n\
                 [ -e \"$f\" ] || [ -L \"$f\" ] || {plant} {target} \"$f\"\n\
                 done\n"
            );
            let bad = script(dir.path(), "plant.sh", &body);
            let mut extra = vec!["-r", "1"];
            if keep {
                extra.push("--keep-bot-dirs");
            }
            let (_, v) = arbiter_vs(dir.path(), &bad, &extra);
            let games = v["games"].as_array().unwrap();
            assert_eq!(games.len(), 2, "{plant} keep {keep}: {v}");
            for g in games {
                assert!(g["forfeit"].is_null(), "{plant} keep {keep}: {g}");
            }
            assert_eq!(
                std::fs::read_to_string(&victim).unwrap(),
                "precious\n",
                "{plant} keep {keep}: the linked file was written"
            );
        }
    }
}

/// With `--keep-bot-dirs`, a bot that replaced its own folder with a file made
/// every later game forfeit with "arbiter could not create wd/rR_gG", charged to
/// the bot seated first (often the other one). Now that bot forfeits, and the
/// reason names its folder.
#[test]
fn coup_arbiter_blames_a_bot_that_replaced_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    let bad = script(
        dir.path(),
        "ownfile.sh",
        "printf \"%s\" \"$5\" >> \"$1\"; d=$(pwd); cd ..; rm -rf \"$d\"; echo x > \"$d\"\n",
    );
    let (out, v) = arbiter_vs(dir.path(), &bad, &["-r", "2", "--keep-bot-dirs"]);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "{v}");
    let folder = dir.path().join("wd").join("bots").join("bad");
    for (i, g) in games.iter().enumerate() {
        let f = &g["forfeit"];
        // Its first call ruins the folder: it cannot be run there again (the first game),
        // and no later game can set it up.
        assert_eq!(f[0], 1, "the other bot was charged: {g}");
        assert_eq!(g["winner"], 0, "{g}");
        let reason = f[1].as_str().unwrap();
        if i > 0 {
            assert!(
                reason.contains(&format!("could not create its folder {}", folder.display())),
                "{reason}"
            );
        }
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("arbiter could not"), "{stdout}");
}
