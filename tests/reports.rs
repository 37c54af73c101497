//! Tournament reports and shards, through the three servers' programs:
//! three shards merged equal the unsplit run game by game (same seed),
//! `report` regenerates the same pages from the saved JSON, and the pages
//! link every game and show the cards.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn run(program: &str, args: &[&str], dir: &Path) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the program runs");
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("written")).expect("JSON")
}

/// Removes the keys that measure time (they differ between any two runs).
fn untimed(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(m) => {
            for k in keys {
                m.remove(*k);
            }
            for x in m.values_mut() {
                untimed(x, keys);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| untimed(x, keys)),
        _ => {}
    }
}

fn games(v: &Value, keys: &[&str]) -> Vec<Value> {
    let mut g = v["games"].as_array().expect("games").clone();
    g.iter_mut().for_each(|x| untimed(x, keys));
    g
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

fn p(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

const COUP: &str = env!("CARGO_BIN_EXE_coup-arbiter");
const DURAK: &str = env!("CARGO_BIN_EXE_durak-server");
const IOI: &str = env!("CARGO_BIN_EXE_ioiwari-referee");
const COUP_TIMES: &[&str] = &[
    "call_ns",
    "max_call_ns",
    "ns",
    "mean_call_us",
    "max_call_us",
];

fn coup_args<'a>(dir: &'a Path, extra: &[&'a str]) -> Vec<String> {
    let mut v: Vec<String> = ["-r", "2", "-s", "11", "-q", "-j", "1", "--work-dir"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.push(p(dir, "work"));
    v.extend(["builtin:honest", "builtin:random", "builtin:challenger"].map(String::from));
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

#[test]
fn coup_three_shards_merged_equal_the_unsplit_run() {
    let d = tmp();
    let dir = d.path();
    let whole = p(dir, "whole.json");
    let a = coup_args(dir, &["--json", &whole]);
    run(COUP, &a.iter().map(String::as_str).collect::<Vec<_>>(), dir);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = p(dir, &format!("shard{k}.json"));
        let shard = format!("{k}/3");
        let a = coup_args(dir, &["--shard", &shard, "--json", &out]);
        run(COUP, &a.iter().map(String::as_str).collect::<Vec<_>>(), dir);
        let v = json(Path::new(&out));
        assert_eq!(
            v["games"].as_array().unwrap().len(),
            4,
            "12 games in 3 shards"
        );
        shards.push(out);
    }
    let merged = p(dir, "merged.json");
    let mut a: Vec<&str> = vec!["merge"];
    a.extend(shards.iter().map(String::as_str));
    a.extend(["--json", &merged]);
    let text = run(COUP, &a, dir);
    assert!(text.contains("head to head"), "{text}");
    let (w, m) = (json(Path::new(&whole)), json(Path::new(&merged)));
    let (gw, gm) = (games(&w, COUP_TIMES), games(&m, COUP_TIMES));
    assert_eq!(gw.len(), 12);
    for (i, (x, y)) in gw.iter().zip(&gm).enumerate() {
        assert_eq!(x, y, "game {i}");
    }
    assert_eq!(gw.len(), gm.len());
    let mut rw = w["report"].clone();
    let mut rm = m["report"].clone();
    untimed(&mut rw, COUP_TIMES);
    untimed(&mut rm, COUP_TIMES);
    assert_eq!(rw, rm, "standings, matrix and forfeits");
    assert_eq!(w["games_scheduled"], m["games_scheduled"]);
    // A missing shard is an error, not a smaller tournament.
    let out = Command::new(COUP)
        .args(["merge", &shards[0], &shards[2]])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing shard(s) 2/3"));
}

fn durak_args(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "-a",
        "inproc:greedy",
        "-b",
        "inproc:heuristic",
        "--deals",
        "5",
        "--duplicate",
        "--seed",
        "5",
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

const DURAK_TIMES: &[&str] = &["time_us", "max_answer_us", "us"];

#[test]
fn durak_three_shards_merged_equal_the_unsplit_run() {
    let d = tmp();
    let dir = d.path();
    let whole = p(dir, "whole.json");
    let a = durak_args(&["--json", &whole]);
    run(
        DURAK,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        dir,
    );
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = p(dir, &format!("shard{k}.json"));
        let shard = format!("{k}/3");
        let a = durak_args(&["--shard", &shard, "--json", &out]);
        run(
            DURAK,
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
            dir,
        );
        shards.push(out);
    }
    let merged = p(dir, "merged.json");
    let mut a: Vec<&str> = vec!["merge"];
    a.extend(shards.iter().map(String::as_str));
    a.extend(["--json", &merged]);
    let text = run(DURAK, &a, dir);
    assert!(text.contains("team A win rate"), "{text}");
    let (w, m) = (json(Path::new(&whole)), json(Path::new(&merged)));
    let (gw, gm) = (games(&w, DURAK_TIMES), games(&m, DURAK_TIMES));
    assert_eq!(gw.len(), 10);
    assert_eq!(gw, gm, "every game, in order");
    for k in [
        "wins_a",
        "wins_b",
        "games_played",
        "games_scheduled",
        "seed",
        "deals",
    ] {
        assert_eq!(w[k], m[k], "{k}");
    }
}

#[test]
fn durak_compare_pairs_runs_of_the_same_deals() {
    // Two settings on the same 5 duplicate deals, a referee.py-style copy of one, and a run of
    // other deals: `compare` reports the rates read from the files, the games whose winner
    // changed (counted here from the JSON), and refuses other deals in one line.
    let d = tmp();
    let dir = d.path();
    let base = p(dir, "base.json");
    let other = p(dir, "other.json");
    let elsewhere = p(dir, "elsewhere.json");
    let mut a = durak_args(&["--json", &base]);
    run(
        DURAK,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        dir,
    );
    a = durak_args(&["--json", &other]);
    a[1] = "inproc:random".into();
    run(
        DURAK,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        dir,
    );
    a = durak_args(&["--json", &elsewhere]);
    a[8] = "6".into(); // the seed
    run(
        DURAK,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        dir,
    );
    let (b, o) = (json(Path::new(&base)), json(Path::new(&other)));
    let won = |v: &Value| -> Vec<bool> {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["winner"] == "A")
            .collect()
    };
    let (wb, wo) = (won(&b), won(&o));
    assert_eq!(wb.len(), 10);
    let changed = wb.iter().zip(&wo).filter(|(x, y)| x != y).count();
    assert!(changed > 0, "the two settings differ on some deal");
    // referee.py's form: a list of games, the first team called X.
    let referee: Vec<Value> = b["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let w = if g["winner"] == "A" { "X" } else { "Y" };
            serde_json::json!({"deal": g["deal"], "seed": g["seed"], "swapped": g["swapped"],
                "winner": w, "reason": "normal"})
        })
        .collect();
    let copy = p(dir, "referee.json");
    std::fs::write(&copy, serde_json::to_string(&referee).unwrap()).unwrap();
    let text = run(DURAK, &["compare", &base, &other, &copy], dir);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let pct = |w: &[bool]| {
        format!(
            "{:.1}%",
            100.0 * w.iter().filter(|x| **x).count() as f64 / 10.0
        )
    };
    assert!(
        lines[0].starts_with(&format!("{base}: {}", pct(&wb))),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!("{other}: {}", pct(&wo))),
        "{text}"
    );
    assert!(
        lines[1].contains(&format!("{changed} of 10 games changed winner")),
        "{text}"
    );
    assert!(
        lines[2].contains("paired difference +0.0 +- 0.0 points")
            && lines[2].contains(" 0 of 10 games"),
        "{text}"
    );
    let out = Command::new(DURAK)
        .args(["compare", &base, &elsewhere])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not the same deals"), "{err}");
    assert!(out.stdout.is_empty(), "nothing printed before the error");
}

#[test]
fn ioiwari_three_shards_merged_equal_the_unsplit_run() {
    let d = tmp();
    let dir = d.path();
    let bin = Path::new(IOI).parent().unwrap();
    let p1 = bin.join("ioiwari").display().to_string();
    let p2 = format!("{} --no-log", bin.join("ioiwari2").display());
    let starts = [
        "4 3 2 4 2 3 2",
        "2 2 2 2 4 4 4",
        "3 3 3 3 3 3 2",
        "4 4 4 2 2 2 2",
        "2 3 4 2 3 4 2",
    ];
    let base = |extra: &[&str]| {
        let mut v: Vec<String> = vec!["--p1".into(), p1.clone(), "--p2".into(), p2.clone()];
        for s in starts {
            v.push("--start".into());
            v.push(s.into());
        }
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let whole = p(dir, "whole.jsonl");
    let a = base(&["--games-out", &whole]);
    run(IOI, &a.iter().map(String::as_str).collect::<Vec<_>>(), dir);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = p(dir, &format!("shard{k}.jsonl"));
        let shard = format!("{k}/3");
        let a = base(&["--shard", &shard, "--games-out", &out]);
        run(IOI, &a.iter().map(String::as_str).collect::<Vec<_>>(), dir);
        shards.push(out);
    }
    let merged = p(dir, "merged.jsonl");
    let mut a: Vec<&str> = vec!["merge"];
    a.extend(shards.iter().map(String::as_str));
    a.extend(["--games-out", &merged]);
    run(IOI, &a, dir);
    let lines = |f: &str| -> Vec<Value> {
        std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                untimed(
                    &mut v,
                    &[
                        "p1_first_us",
                        "p1_move_us",
                        "p2_first_us",
                        "p2_move_us",
                        "notes",
                    ],
                );
                v
            })
            .collect()
    };
    let (w, m) = (lines(&whole), lines(&merged));
    assert_eq!(w.len(), 5);
    assert_eq!(w, m, "every game, in order");
    assert_eq!(w[3]["index"], 3);
}

/// Asserts two pages are the same, naming the first line that differs.
fn same_page(a: &str, b: &str) {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        assert_eq!(x, y, "line {}", i + 1);
    }
    assert_eq!(a.lines().count(), b.lines().count());
}

/// The links of a page (`href="..."`, HTML entities of `/` decoded, as the
/// template engine escapes it).
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(|l| l.replace("&#x2f;", "/"))
        .collect()
}

fn check_site(report: &Path, games: usize, card_marker: &str) -> Vec<PathBuf> {
    let html = std::fs::read_to_string(report).unwrap();
    let replays: Vec<String> = links(&html)
        .into_iter()
        .filter(|l| l.ends_with(".html") && l.contains("-games/"))
        .collect();
    let rows = html.matches("<tr").count();
    assert!(rows > games, "a row per game");
    let mut unique = replays.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), games, "every game linked to its replay");
    let dir = report.parent().unwrap();
    let mut pages = Vec::new();
    for l in &unique {
        let page = dir.join(l);
        let text = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("{l} exists"));
        assert!(text.contains(card_marker), "{l} shows the cards");
        assert!(text.contains("class=\"step"), "{l} has steps");
        let back = report.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            links(&text).contains(&format!("../{back}")),
            "{l} links back"
        );
        pages.push(page);
    }
    assert!(html.contains("<svg"), "the learning curve");
    assert!(html.contains("95% interval"));
    pages
}

#[test]
fn coup_pages_link_every_game_and_show_the_cards() {
    let d = tmp();
    let dir = d.path();
    let (json_out, html) = (p(dir, "run.json"), p(dir, "run.html"));
    let a = coup_args(
        dir,
        &["--json", &json_out, "--html", &html, "--replays", "100"],
    );
    run(COUP, &a.iter().map(String::as_str).collect::<Vec<_>>(), dir);
    let pages = check_site(Path::new(&html), 12, "class=\"card ");
    // Each replay shows every seat's characters by name and each answer's time.
    let first = std::fs::read_to_string(&pages[0]).unwrap();
    assert!(
        first.contains("seat 0: honest") && first.contains("seat 1: random"),
        "both seats named"
    );
    assert!(["Duke", "Captain", "Assassin", "Ambassador", "Contessa"]
        .iter()
        .any(|c| first.contains(c)));
    assert!(
        first.contains("µs</td>") || first.contains(" ms</td>"),
        "times"
    );
    // The same pages from the saved JSON.
    let again = p(dir, "again.html");
    run(COUP, &["report", &json_out, "--html", &again], dir);
    same_page(
        &std::fs::read_to_string(&html)
            .unwrap()
            .replace("run-games&#x2f;", "again-games&#x2f;"),
        &std::fs::read_to_string(&again).unwrap(),
    );
    let replay =
        |name: &str| std::fs::read_to_string(dir.join(name).join("game-00003.html")).unwrap();
    same_page(
        &replay("run-games").replace("run.html", "again.html"),
        &replay("again-games"),
    );
}

#[test]
fn durak_pages_link_every_game_and_show_the_cards() {
    let d = tmp();
    let dir = d.path();
    let (json_out, html) = (p(dir, "run.json"), p(dir, "run.html"));
    let a = durak_args(&["--json", &json_out, "--html", &html, "--replays", "100"]);
    run(
        DURAK,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        dir,
    );
    let pages = check_site(Path::new(&html), 10, "class=\"card ");
    let first = std::fs::read_to_string(&pages[0]).unwrap();
    for p in ["P0 (team A)", "P1 (team B)", "P2 (team A)", "P3 (team B)"] {
        assert!(first.contains(p), "{p}");
    }
    assert!(first.contains('♠') || first.contains('♣'));
    assert!(first.contains("leads "));
    let again = p(dir, "again.html");
    run(DURAK, &["report", &json_out, "--html", &again], dir);
    same_page(
        &std::fs::read_to_string(&html)
            .unwrap()
            .replace("run-games&#x2f;", "again-games&#x2f;"),
        &std::fs::read_to_string(&again).unwrap(),
    );
    // Replays are kept for the first games only by default: the JSON stays small.
    let small = p(dir, "small.json");
    let a = durak_args(&["--json", &small, "--replays", "2"]);
    run(
        DURAK,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        dir,
    );
    let v = json(Path::new(&small));
    let with: Vec<bool> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.get("steps").is_some())
        .collect();
    // (in-process bots never forfeit)
    assert!(
        with[0] && with[1] && with[2..].iter().all(|b| !b),
        "{with:?}"
    );
}

#[test]
fn a_plain_run_records_no_replays() {
    let d = tmp();
    let dir = d.path();
    let out = p(dir, "plain.json");
    let a = coup_args(dir, &["--json", &out, "--replays", "0"]);
    run(COUP, &a.iter().map(String::as_str).collect::<Vec<_>>(), dir);
    let v = json(Path::new(&out));
    assert!(v["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g.get("turns").is_none()));
    assert!(!dir.join("plain-games").exists());
}
