//! Usage errors of the clap-based programs are one line on stderr, `PROGRAM: MESSAGE (see
//! --help)`, with exit status 2, and `--help` still prints the full help on stdout (exit 1
//! and one line when stdout cannot take it) (`cardgames::child::parse_args`); `--version`
//! names the program.

use std::process::Command;

/// Each program with an unknown flag, and its name.
const PROGRAMS: [(&str, &str); 8] = [
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
