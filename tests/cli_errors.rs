//! Usage errors of the clap-based programs are one line on stderr, `PROGRAM: MESSAGE (see
//! --help)`, with exit status 2, and `--help` still prints the full help on stdout (exit 1
//! and one line when stdout cannot take it) (`cardgames::child::parse_args`); `--version`
//! names the program.

use std::process::Command;

mod support;
use support::run_in;

/// Each program with an unknown flag, and its name.
const PROGRAMS: [(&str, &str); 9] = [
    (env!("CARGO_BIN_EXE_cardgames-play"), "cardgames-play"),
    (env!("CARGO_BIN_EXE_coup-arbiter"), "coup-arbiter"),
    (env!("CARGO_BIN_EXE_durak-bot"), "durak-bot"),
    (env!("CARGO_BIN_EXE_durak-server"), "durak-server"),
    (env!("CARGO_BIN_EXE_homework-gen"), "homework-gen"),
    (env!("CARGO_BIN_EXE_homework-grade"), "homework-grade"),
    (env!("CARGO_BIN_EXE_ioiwari"), "ioiwari"),
    (env!("CARGO_BIN_EXE_ioiwari2"), "ioiwari2"),
    (env!("CARGO_BIN_EXE_ioiwari-referee"), "ioiwari-referee"),
];

#[test]
fn a_usage_error_is_one_line_and_help_is_whole() {
    for (program, name) in PROGRAMS {
        let out = Command::new(program)
            .arg("--no-such-flag")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with(&format!("{name}: unexpected argument '--no-such-flag'")),
            "{name}: {err}"
        );
        assert!(err.trim_end().ends_with("(see --help)"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        let help = Command::new(program).arg("--help").output().unwrap();
        assert!(help.status.success(), "{name}");
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(
            text.contains("Usage:") && text.contains("--help"),
            "{name}: {text}"
        );
        let version = Command::new(program).arg("--version").output().unwrap();
        let text = String::from_utf8_lossy(&version.stdout);
        assert!(text.starts_with(&format!("{name} ")), "{name}: {text}");
    }
}

#[test]
fn help_that_cannot_be_written_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full (Linux)");
    for (program, name) in PROGRAMS {
        let out = Command::new(program)
            .arg("--help")
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with(&format!("{name}: cannot write to stdout")),
            "{name}: {err}"
        );
    }
}

#[test]
fn a_usage_error_keeps_what_it_lists() {
    // A bad value names the flag and the reason; subcommands are one line too.
    let out = Command::new(env!("CARGO_BIN_EXE_durak-server"))
        .args(["--deals", "x"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'x'") && err.contains("--deals"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
        .args(["merge", "--bogus"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // The items a message lists on the lines below it stay, joined.
    let rendered = "error: the following required arguments were not provided:\n  --out <OUT>\n\nUsage: x --out <OUT>\n\nFor more information, try '--help'.\n";
    assert_eq!(
        cardgames::child::usage_error_line(rendered),
        "the following required arguments were not provided: --out <OUT> (see --help)"
    );
}

/// A thread count no machine has (it used to start that many threads and hang) is a usage
/// error, and so is 0; a pool is never larger than the games it plays.
#[test]
fn servers_refuse_thread_counts_outside_1_to_1024() {
    let servers = [
        (env!("CARGO_BIN_EXE_durak-server"), "durak-server", "--jobs"),
        (
            env!("CARGO_BIN_EXE_coup-arbiter"),
            "coup-arbiter",
            "--threads",
        ),
    ];
    for (program, name, flag) in servers {
        for bad in ["0", "1025", "100000"] {
            let out = Command::new(program).args(["-j", bad]).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} -j {bad}: {err}");
            assert!(
                err.starts_with(&format!("{name}: invalid value '{bad}' for '{flag}")),
                "{name}: {err}"
            );
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_durak-server"))
        .args([
            "-q",
            "-a",
            "inproc:greedy",
            "-b",
            "inproc:greedy",
            "--deals",
            "1",
            "-j",
            "1024",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("jobs 1024"));
}

#[test]
fn servers_check_bots_counts_and_outputs_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    std::fs::write(dir.path().join("afile"), "kept").unwrap();
    let coup = env!("CARGO_BIN_EXE_coup-arbiter");
    let durak = env!("CARGO_BIN_EXE_durak-server");
    let two = ["builtin:honest", "builtin:random"];
    let teams = ["-a", "inproc:greedy", "-b", "inproc:random", "--deals", "1"];
    let with = |base: &[&'static str], extra: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["-q"];
        v.extend_from_slice(extra);
        v.extend_from_slice(base);
        v
    };
    let cases: Vec<(&str, Vec<&str>, i32, &str)> = vec![
        (
            coup,
            with(&two, &["-r", "0"]),
            2,
            "coup-arbiter: invalid value '0' for '--rounds",
        ),
        (
            coup,
            with(&["/no/such/bot", "builtin:random"], &[]),
            2,
            "coup-arbiter: bot bot: cannot run /no/such/bot: No such file",
        ),
        (
            coup,
            with(&two, &["--json", "r.out", "--html", "r.out"]),
            2,
            "coup-arbiter: --json and --html name the same file r.out",
        ),
        (
            coup,
            with(&two, &["--html", "folder"]),
            1,
            "coup-arbiter: cannot write folder: it is a folder",
        ),
        (
            coup,
            with(&two, &["--json", "no/such/r.json"]),
            1,
            "coup-arbiter: cannot write no/such/r.json: No such file",
        ),
        (
            durak,
            vec![
                "-q",
                "--deals",
                "0",
                "-a",
                "inproc:greedy",
                "-b",
                "inproc:random",
            ],
            2,
            "durak-server: invalid value '0' for '--deals",
        ),
        (
            durak,
            vec![
                "-q",
                "--deals",
                "1",
                "-a",
                "/no/such/bot",
                "-b",
                "inproc:random",
            ],
            2,
            "durak-server: --team-a: cannot run /no/such/bot: No such file",
        ),
        (
            durak,
            vec![
                "-q",
                "--deals",
                "1",
                "-a",
                "inproc:greedy",
                "-b",
                "inproc:foo",
            ],
            2,
            "durak-server: --team-b: unknown strategy \"foo\"",
        ),
        (
            durak,
            with(&teams, &["--json", "r.out", "--html", "r.out"]),
            2,
            "durak-server: --json and --html name the same file r.out",
        ),
        (
            durak,
            with(&teams, &["--html", "folder"]),
            1,
            "durak-server: cannot write folder: it is a folder",
        ),
        (
            durak,
            with(&teams, &["--transcripts", "afile"]),
            1,
            "durak-server: cannot write transcripts into afile: not a folder",
        ),
    ];
    for (program, args, status, start) in cases {
        let (code, stdout, err) = run_in(dir.path(), program, &args);
        assert_eq!(code, Some(status), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
    // Nothing was played, made or overwritten.
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["afile", "folder"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("afile")).unwrap(),
        "kept"
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("folder"))
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn bots_say_on_stderr_what_they_cannot_read() {
    use std::io::Write;
    // durak-bot skips an unreadable line, says so, and still answers; a blank line is no news.
    let mut bot = Command::new(env!("CARGO_BIN_EXE_durak-bot"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    bot.stdin
        .take()
        .unwrap()
        .write_all(b"hello\n\nMOVE\n")
        .unwrap();
    let out = bot.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "NO\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "durak-bot: skipped a line it cannot read: malformed line \"hello\"\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        env!("CARGO_BIN_EXE_durak-bot"),
        &["--share", "99"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("durak-bot: invalid value '99' for '--share")
            && err.trim_end().ends_with("(see --help)"),
        "{err}"
    );
    // coup-bot answers from the list it was given, and says when the list is not the protocol's.
    let coup = env!("CARGO_BIN_EXE_coup-bot");
    std::fs::write(dir.path().join("h.txt"), "").unwrap();
    let (code, _, err) = run_in(dir.path(), coup, &["h.txt", "2", "2", "$^", "Z"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        err,
        "coup-bot: \"Z\" stands among the legal answers and is no answer of the protocol (docs/rules/coup.md §5.2)\n"
    );
    let (code, stdout, _) = run_in(dir.path(), coup, &["--version"]);
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("coup-bot "), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("h.txt")).unwrap(),
        "Z"
    );
}

#[test]
fn homework_programs_refuse_before_making_anything() {
    let dir = tempfile::tempdir().unwrap();
    let gen = env!("CARGO_BIN_EXE_homework-gen");
    let (code, _, err) = run_in(
        dir.path(),
        gen,
        &[
            "--seed", "1", "--count", "1", "--out", "g", "--tasks", "foo",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("homework-gen: invalid value 'foo' for '--tasks"),
        "{err}"
    );
    let (code, _, err) = run_in(
        dir.path(),
        gen,
        &[
            "--seed",
            "1",
            "--count",
            "1",
            "--out",
            "g",
            "--model",
            "no-model.py",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("homework-gen: cannot read the model no-model.py: "),
        "{err}"
    );
    assert!(!dir.path().join("g").exists());
    let (code, _, err) = run_in(
        dir.path(),
        env!("CARGO_BIN_EXE_homework"),
        &["--debug", "--debug"],
    );
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "homework: unexpected argument \"--debug\" (the program takes at most one, --debug; see --help)\n"
    );
}
