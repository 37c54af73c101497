//! The Ioiwari programs over their stdin/stdout protocol: the player-1 bot,
//! the `ioiwari2` tool and the referee (`docs/rules/ioiwari.md`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cardgames::ioiwari::{self, Board, Game};

const P1: &str = env!("CARGO_BIN_EXE_ioiwari");
const P2: &str = env!("CARGO_BIN_EXE_ioiwari2");
const REFEREE: &str = env!("CARGO_BIN_EXE_ioiwari-referee");

fn run(program: &str, args: &[&str], input: &str, dir: &Path) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // The child may exit before reading everything: ignore a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("wait")
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ioiwari_cli_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn bot_plays_legal_best_moves_and_exits_on_eof() {
    let dir = scratch("bot");
    let start = Board::start([4, 3, 2, 4, 2, 3, 2]).unwrap();
    // Feed the start only: the bot answers one move and exits 0 at EOF.
    let out = run(P1, &[], "4 3 2 4 2 3 2\n", &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first: usize = text(&out.stdout).trim().parse().expect("one pit number");
    let values = ioiwari::move_values(start.pits()).unwrap();
    assert_eq!(
        values[first - 1],
        Some(ioiwari::value(start.pits()).unwrap())
    );

    // A start spread over two lines is read too.
    let out = run(P1, &[], "4 3 2\n4 2 3 2\n", &dir);
    assert_eq!(text(&out.stdout).trim(), first.to_string());
}

#[test]
fn bot_reports_an_illegal_opponent_move() {
    let dir = scratch("bot_illegal");
    let start = Board::start([4, 3, 2, 4, 2, 3, 2]).unwrap();
    let first = ioiwari::best_move(start.pits()).unwrap().unwrap();
    // The opponent empties the pit the bot just emptied.
    let input = format!("{start}\n{}\n", first + 1);
    let out = run(P1, &[], &input, &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is empty"),
        "{}",
        text(&out.stderr)
    );
    let out = run(P1, &[], "4 3 2 4 2 3\nx\n", &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("start line"));
    let out = run(P1, &[], "", &dir);
    assert!(out.status.success() && out.stdout.is_empty());
}

#[test]
fn ioiwari2_prints_the_start_and_logs_the_dialogue() {
    let dir = scratch("tool");
    // Player 1 plays a whole game against the tool, moves chosen here by the
    // library's solver and checked against the tool's answers.
    let mut child = Command::new(P2)
        .args(["2", "2", "4", "3", "3", "3", "3"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    use std::io::BufRead;
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "2 2 4 3 3 3 3");
    let start = Board::start([2, 2, 4, 3, 3, 3, 3]).unwrap();
    let mut game = Game::new(start);
    while !game.is_over() {
        let pit = ioiwari::best_move(game.board().pits()).unwrap().unwrap();
        writeln!(stdin, "{}", pit + 1).unwrap();
        game.play(pit).unwrap();
        if game.is_over() {
            break;
        }
        line.clear();
        stdout.read_line(&mut line).unwrap();
        let reply: usize = line.trim().parse().unwrap();
        let values = ioiwari::move_values(game.board().pits()).unwrap();
        let best = values.iter().flatten().max().copied();
        assert_eq!(values[reply - 1], best, "the tool's reply is optimal");
        game.play(reply - 1).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(game.margin(), ioiwari::value(start.pits()).unwrap());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("player 1 wins"), "{stderr}");
    let log = std::fs::read_to_string(dir.join("ioiwari.out")).expect("ioiwari.out");
    assert!(log.contains("start: 2 2 4 3 3 3 3"));
    assert!(log.contains("result: player 1 wins"));
}

#[test]
fn ioiwari2_forfeits_bad_moves() {
    let dir = scratch("tool_forfeit");
    // After player 1 empties pit 1 and the tool answers with its best move,
    // find a pit that is empty then.
    let mut game = Game::new(Board::start([4, 3, 2, 4, 2, 3, 2]).unwrap());
    game.play(0).unwrap();
    game.play(ioiwari::best_move(game.board().pits()).unwrap().unwrap())
        .unwrap();
    let empty = game.board().pits().iter().position(|&s| s == 0).unwrap();
    let empty_input = format!("1\n{}\n", empty + 1);
    for (input, expect) in [
        ("9\n", "does not exist"),
        ("abc\n", "expected a pit number"),
        (empty_input.as_str(), "is empty"),
        ("", "input ended"),
    ] {
        let out = run(P2, &[], input, &dir);
        assert_eq!(out.status.code(), Some(1), "input {input:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("player 1 forfeits"), "{stderr}");
        assert!(stderr.contains(expect), "{input:?}: {stderr}");
        let log = std::fs::read_to_string(dir.join("ioiwari.out")).unwrap();
        assert!(log.contains("forfeits"));
    }
    let out = run(P2, &["5", "3", "3", "3", "2", "2", "2"], "", &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a legal start"));
}

/// Runs the referee with `--json` and returns the summary.
fn referee(args: &[&str]) -> (serde_json::Value, Output) {
    let dir = scratch("referee");
    let out = run(REFEREE, args, "", &dir);
    let summary = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    (summary, out)
}

fn starts_file(name: &str, step: usize) -> PathBuf {
    let path = scratch(name).join("starts.txt");
    let body: String = Board::all_starts()
        .iter()
        .step_by(step)
        .map(|b| format!("{b}\n"))
        .collect();
    std::fs::write(&path, body).unwrap();
    path
}

fn n(v: &serde_json::Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

#[test]
fn referee_refuses_an_empty_starts_file() {
    // An empty file (or one of comments only) used to play all 357 starts.
    let dir = scratch("empty-starts");
    let path = dir.join("starts.txt");
    std::fs::write(&path, "# none\n\n").unwrap();
    let out = run(
        REFEREE,
        &["--starts-file", path.to_str().unwrap()],
        "",
        &dir,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no start in the file"));
    assert!(out.stdout.is_empty(), "games were played");
}

#[test]
fn referee_bot_wins_sampled_starts_with_the_game_value() {
    // Every 8th start (45 games); the full sweep is the ignored test below.
    let file = starts_file("sample", 8);
    let (s, out) = referee(&[
        "--json",
        "--expect-optimal",
        "--starts-file",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{s}");
    assert_eq!(n(&s, "games"), 45);
    assert_eq!(n(&s, "p1_wins"), 45);
    assert_eq!(n(&s, "margin_equals_value"), 45);
    assert_eq!(s["suboptimal_moves"], serde_json::json!([0, 0]));
}

#[test]
#[ignore = "357 games through subprocesses: ~6 s in debug, ~2 s in release"]
fn referee_bot_wins_every_start_with_the_game_value() {
    let (s, out) = referee(&["--json", "--expect-optimal"]);
    assert!(out.status.success(), "{s}");
    assert_eq!(n(&s, "games"), 357);
    assert_eq!(n(&s, "p1_wins"), 357);
    assert_eq!(n(&s, "margin_equals_value"), 357);
}

#[test]
fn weak_players_lose_or_draw_most_starts() {
    let file = starts_file("weak", 8);
    for strategy in ["random", "greedy"] {
        let p1 = format!("{P1} --strategy {strategy} --seed 7");
        let (s, out) = referee(&[
            "--json",
            "--p1",
            &p1,
            "--starts-file",
            file.to_str().unwrap(),
            "--expect-optimal",
        ]);
        // Not optimal: --expect-optimal fails.
        assert_eq!(out.status.code(), Some(1), "{strategy}: {s}");
        let games = n(&s, "games");
        assert_eq!(games, 45);
        assert!(n(&s, "p1_wins") * 2 < games, "{strategy} won: {s}");
        assert!(n(&s, "margin_above_value") == 0, "{s}");
        assert!(s["suboptimal_moves"][0].as_u64().unwrap() > 0);
        assert_eq!(s["suboptimal_moves"][1], 0);
    }
}

/// Writes an executable shell script in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn referee_catches_misbehaving_players() {
    let dir = scratch("misbehave");
    let cases = [
        ("illegal", "read start\necho 9", 1, "does not exist"),
        (
            "garbage",
            "read start\necho hello",
            1,
            "expected a pit number",
        ),
        ("quits", "read start", 1, "closed its output"),
        (
            "stuck",
            "read start\nexec sleep 5",
            1,
            "no answer within 300 ms",
        ),
    ];
    for (name, body, player, reason) in cases {
        let p1 = script(&dir, name, body);
        let (s, out) = referee(&[
            "--json",
            "--timeout-ms",
            "300",
            "--start",
            "4 3 2 4 2 3 2",
            "--p1",
            &p1,
        ]);
        assert!(out.status.success());
        assert_eq!(n(&s, "p1_losses"), 1, "{name}: {s}");
        assert_eq!(s["forfeits"][player - 1], 1, "{name}: {s}");
        // The reason is in the game record.
        let games = dir.join(format!("{name}.jsonl"));
        let out = run(
            REFEREE,
            &[
                "--timeout-ms",
                "300",
                "--start",
                "4 3 2 4 2 3 2",
                "--p1",
                &p1,
                "--games-out",
                games.to_str().unwrap(),
            ],
            "",
            &dir,
        );
        assert!(out.status.success());
        let record = std::fs::read_to_string(&games).unwrap();
        assert!(record.contains(reason), "{name}: {record}");
    }
    // A player 2 printing the wrong start forfeits.
    let p2 = script(&dir, "wrong_start", "echo 4 4 4 2 2 2 2");
    let (s, _) = referee(&["--json", "--start", "4 3 2 4 2 3 2", "--p2", &p2]);
    assert_eq!(s["forfeits"][1], 1, "{s}");
    assert_eq!(n(&s, "p1_wins"), 1);
}

/// The one line the referee wrote to stderr (asserting it is one line).
fn one_line(out: &Output) -> String {
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    err.trim_end().to_owned()
}

/// The referee on two starts with `--shard K/N` and `--games-out dir/sK.jsonl`: its output and
/// the log's path.
fn shard_run(dir: &Path, k: usize, n: usize) -> (Output, String) {
    let log = dir.join(format!("s{k}.jsonl")).display().to_string();
    let shard = format!("{k}/{n}");
    let out = run(
        REFEREE,
        &[
            "--start",
            "4 3 2 4 2 3 2",
            "--start",
            "3 3 3 3 3 3 2",
            "--shard",
            &shard,
            "--games-out",
            &log,
        ],
        "",
        dir,
    );
    (out, log)
}

/// `--shard K/N` of two starts into `dir/sK.jsonl`; the log's path.
fn shard_log(dir: &Path, k: usize, n: usize) -> String {
    let (out, log) = shard_run(dir, k, n);
    assert!(out.status.success(), "{}", text(&out.stderr));
    log
}

#[test]
fn a_shard_with_no_start_is_refused_before_any_game() {
    // Two starts over three shards: the third would play nothing and leave an empty log,
    // which `merge` cannot place.
    let dir = scratch("empty-shard");
    let (out, log) = shard_run(&dir, 3, 3);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = one_line(&out);
    assert!(
        err.contains("--shard 3/3: no start falls in this shard (2 starts over 3 shards"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "a summary was printed");
    assert!(!Path::new(&log).exists(), "an empty log was left");
}

#[test]
fn merge_refuses_missing_or_repeated_shards_and_empty_logs() {
    let dir = scratch("merge-checks");
    let s1 = shard_log(&dir, 1, 2);
    let s2 = shard_log(&dir, 2, 2);
    let merged = dir.join("m.json");
    let m = merged.to_str().unwrap();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let e = empty.to_str().unwrap();
    for (inputs, says) in [
        (vec![s1.as_str()], "missing shard(s) 2/2"),
        (vec![s2.as_str()], "missing shard(s) 1/2"),
        (vec![&s1, &s1, &s2], "shard 1/2 is given twice"),
        (vec![e], "no game in the file"),
        (vec![&s1, &s2, e], "no game in the file"),
    ] {
        let mut args = vec!["merge"];
        args.extend(&inputs);
        args.extend(["--json", m]);
        let out = run(REFEREE, &args, "", &dir);
        assert_eq!(out.status.code(), Some(2), "{inputs:?}: {out:?}");
        let err = one_line(&out);
        assert!(
            err.starts_with("ioiwari-referee merge: ") && err.contains(says),
            "{inputs:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{inputs:?}: a summary was printed");
        assert!(!merged.exists(), "{inputs:?}: the output was written");
    }
    // `report` of an empty log writes no page either.
    let page = dir.join("r.html");
    let out = run(
        REFEREE,
        &["report", e, "--html", page.to_str().unwrap()],
        "",
        &dir,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(one_line(&out).contains("no game in the file"));
    assert!(!page.exists());

    // The whole set merges, with the players' commands and unsplit.
    let out = run(REFEREE, &["merge", &s2, &s1, "--json", m], "", &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    let bin = Path::new(REFEREE).parent().unwrap();
    assert_eq!(v["p1"], bin.join("ioiwari").display().to_string(), "{v}");
    assert_eq!(
        v["p2"],
        format!("{} --no-log", bin.join("ioiwari2").display()),
        "{v}"
    );
    assert_eq!(v["partial"], false);
    assert!(v.get("shard").is_none(), "{v}");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["index"], 0);
    assert_eq!(games[1]["index"], 1);
    assert!(games.iter().all(|g| g.get("shard").is_none()), "{v}");
    let summary = text(&out.stdout);
    assert!(
        summary.starts_with(&format!("player 1: {}\n", bin.join("ioiwari").display())),
        "{summary}"
    );
    // A shard's own log says which shard it is and who played.
    let line = std::fs::read_to_string(&s1).unwrap();
    let g: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!(g["shard"], "1/2");
    assert_eq!(g["p1"], v["p1"]);
}

#[test]
fn referee_checks_output_files_before_playing() {
    let dir = scratch("outputs");
    let folder = dir.join("hd");
    std::fs::create_dir_all(&folder).unwrap();
    let log = dir.join("g.jsonl");
    let started = std::time::Instant::now();
    let out = run(
        REFEREE,
        &[
            "--p1",
            "sleep 5",
            "--timeout-ms",
            "1000",
            "--start",
            "4 3 2 4 2 3 2",
            "--games-out",
            log.to_str().unwrap(),
            "--html",
            "hd",
        ],
        "",
        &dir,
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        one_line(&out),
        "ioiwari-referee: cannot write hd: it is a folder"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_millis(900),
        "a game was played first"
    );
    assert!(out.stdout.is_empty());
    assert!(!log.exists(), "the game log was created");

    // Two flags on one file: a usage mistake.
    let out = run(
        REFEREE,
        &[
            "--start",
            "4 3 2 4 2 3 2",
            "--games-out",
            "x",
            "--html",
            "./x",
        ],
        "",
        &dir,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(one_line(&out).contains("--games-out and --html name the same file"));
    assert!(!dir.join("x").exists());

    // The subcommands check theirs before reading anything.
    let s1 = shard_log(&dir, 1, 1);
    for args in [
        vec!["merge", &s1, "--json", "hd"],
        vec!["merge", &s1, "--games-out", "hd"],
        vec!["merge", &s1, "--html", "hd"],
        vec!["report", &s1, "--html", "hd"],
    ] {
        let out = run(REFEREE, &args, "", &dir);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let err = one_line(&out);
        assert!(err.ends_with(": cannot write hd: it is a folder"), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = run(
        REFEREE,
        &["merge", &s1, "--json", "m.json", "--html", "m.json"],
        "",
        &dir,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(one_line(&out).contains("--json and --html name the same file"));
    assert!(!dir.join("m.json").exists());
}

#[test]
fn referee_prints_the_summary_when_the_log_cannot_be_written() {
    if !Path::new("/dev/full").exists() {
        panic!("missing prerequisite: Linux /dev/full");
    }
    let dir = scratch("log-full");
    let out = run(
        REFEREE,
        &["--start", "4 3 2 4 2 3 2", "--games-out", "/dev/full"],
        "",
        &dir,
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        one_line(&out).starts_with("ioiwari-referee: cannot write the game log: "),
        "{out:?}"
    );
    assert!(
        text(&out.stdout).contains("games 1: player 1 wins 1"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn referee_refuses_a_zero_timeout() {
    let dir = scratch("zero-timeout");
    for args in [
        ["--timeout-ms", "0"],
        ["--timeout-ms", "86400001"],
        ["--exit-grace-ms", "18446744073709551615"],
    ] {
        let mut a = vec!["--start", "4 3 2 4 2 3 2"];
        a.extend(args);
        let out = run(REFEREE, &a, "", &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = one_line(&out);
        assert!(
            err.starts_with("ioiwari-referee: ") && err.ends_with("(see --help)"),
            "{err}"
        );
        assert!(err.contains(args[0]), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}: games were played");
    }
}
