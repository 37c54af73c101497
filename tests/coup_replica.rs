//! The replica of Calculator ([`cardgames::coup::replica`]): known answers
//! of its rule, and a differential test against the real program on random
//! reachable positions, `#[ignore]`d: it needs the real contest program, which
//! neither the repository nor CI has (`make test` leaves it out, so CI's summary
//! lists it as ignored). Run it with `COUP_CALCULATOR=/path/to/Calculator
//! cargo test --test coup_replica -- --ignored`, where a missing program or
//! interpreter fails it. `COUP_CALCULATOR` names the program; `PYTHON2` names the interpreter, default `python2` on PATH
//! or `~/.pyenv/versions/2.7.18/bin/python2`; `COUP_REPLICA_CASES` the
//! number of positions, default 10,000).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

#[path = "support/replica_games.rs"]
mod replica_games;

use cardgames::coup::replica::decide;
use cardgames::coup::sparring::Archetype;
use cardgames::coup::{format_hand, Strategy};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replica_games::play_replica_game;

fn legal(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn replica_known_answers() {
    let f = "/g/A_B_0_0.txt";
    // It challenges every block made against it (no Contessa... any block).
    let a = decide("Tp\nI\nF", f, "", 3, 4, "^!", &legal(&["d", "p"]));
    assert_eq!(a.text, "p");
    let a = decide("Fd", f, "", 1, 1, "^!", &legal(&["q", "\n"]));
    assert_eq!(a.text, "q");
    // It blocks with a card it holds.
    let a = decide("Tp\nS", f, "", 4, 1, "~^", &legal(&["a", "c", "p", "q"]));
    assert_eq!(a.text, "a");
    // It proves a challenged claim when it can, and forgets that plan.
    let a = decide("Tq", f, &format!("{f}\n$1\n"), 1, 1, "$^", &legal(&["$"]));
    assert_eq!(a.text, "$");
    assert!(!a.state.lines().nth(1).unwrap().contains('$'));
    // With two cards it does not contest an Assassination; with one it challenges.
    let a = decide(
        "Tp\nTp\nA",
        f,
        "",
        4,
        4,
        "$*",
        &legal(&["s", "q", "0", "<"]),
    );
    assert!(a.text == "0" || a.text == "<", "{}", a.text);
    let a = decide("Tq'\nTp\nA", f, "", 4, 4, "*", &legal(&["s", "q", "<"]));
    assert_eq!(a.text, "q");
    // First move: Tax with a Duke.
    let a = decide("", f, "", 1, 1, "!$", &legal(&["I\n", "F", "E", "S", "T"]));
    assert_eq!(a.text, "T");
    // After its challenge caught a bluffed block it still writes a card
    // with its newline (the arbiter accepts `Scq'=`... ending in a newline).
    let a = decide("Tp\nScq'", f, "", 1, 4, "!~", &legal(&["\n"]));
    assert!(a.text.len() == 2 && a.text.ends_with('\n'), "{:?}", a.text);
}

fn python2() -> Option<String> {
    if let Ok(p) = std::env::var("PYTHON2") {
        return Some(p);
    }
    let home = std::env::var("HOME").unwrap_or_default();
    let pyenv = format!("{home}/.pyenv/versions/2.7.18/bin/python2");
    if std::path::Path::new(&pyenv).exists() {
        return Some(pyenv);
    }
    std::process::Command::new("python2")
        .arg("-V")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| "python2".to_string())
}

struct Case {
    history: String,
    state: String,
    opp: i64,
    me: i64,
    cards: String,
    legal: Vec<String>,
}

/// Positions where the replica is to move, from games of the replica (with
/// its own state carried between its calls) against the other strategies
/// (`tests/support/replica_games.rs`);
/// half the positions get a random flag set instead of the real one.
fn cases(n: usize, file: &str) -> Vec<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let opponents = [
        Strategy::Random,
        Strategy::Challenger,
        Strategy::Honest,
        Strategy::TaxBluffer,
        Strategy::Archetype(Archetype::ChallengeAll),
        Strategy::Archetype(Archetype::BlockAll),
        Strategy::Archetype(Archetype::AlwaysSteal),
    ];
    let mut out = Vec::new();
    let mut game = 0u64;
    while out.len() < n {
        game += 1;
        let calc_seat = (game % 2) as usize;
        let opp = opponents[(game as usize / 2) % opponents.len()];
        play_replica_game(game, calc_seat, opp, file, |t, call, state| {
            if call.seat != calc_seat {
                return;
            }
            let st = if rng.random_bool(0.5) {
                state.to_string()
            } else {
                let flags: String = "1$*^dcAF"
                    .chars()
                    .filter(|_| rng.random_bool(0.4))
                    .collect();
                let name = if rng.random_bool(0.8) {
                    file
                } else {
                    "/other.txt"
                };
                format!("{name}\n{flags}\n")
            };
            out.push(Case {
                history: t.history.clone(),
                state: st,
                opp: call.opp_coins,
                me: call.my_coins,
                cards: format_hand(&call.cards),
                legal: call.legal.clone(),
            });
        });
    }
    out.truncate(n);
    out
}

fn flags_of(state: &str) -> (String, BTreeSet<char>) {
    let mut l = state.lines();
    let name = l.next().unwrap_or("").trim().to_string();
    (name, l.next().unwrap_or("").trim().chars().collect())
}

#[test]
#[ignore = "needs the real Calculator (COUP_CALCULATOR=path; CI has none) and Python 2"]
fn replica_matches_the_real_calculator() {
    let program = std::env::var_os("COUP_CALCULATOR")
        .map(PathBuf::from)
        .expect(
        "missing prerequisite: COUP_CALCULATOR is not set (path of the real Calculator program)",
    );
    assert!(
        program.exists(),
        "missing prerequisite: COUP_CALCULATOR={} does not exist",
        program.display()
    );
    let py = python2().expect("missing prerequisite: no Python 2 interpreter (set PYTHON2)");
    let n: usize = std::env::var("COUP_REPLICA_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Calc_Other_0_0.txt");
    let file = file.to_string_lossy().into_owned();
    let cases = cases(n, &file);
    let case_path = dir.path().join("cases.jsonl");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&case_path).unwrap());
    for c in &cases {
        let j = serde_json::json!({"file": file, "history": c.history, "state": c.state,
            "opp": c.opp, "me": c.me, "cards": c.cards, "legal": c.legal});
        writeln!(w, "{j}").unwrap();
    }
    drop(w);
    let out_path = dir.path().join("out.jsonl");
    let driver = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/calculator_driver.py"
    );
    let st = std::process::Command::new(&py)
        .arg(driver)
        .arg(&program)
        .arg(&case_path)
        .arg(&out_path)
        .arg(dir.path())
        .status()
        .expect("run python2");
    assert!(st.success(), "driver failed");
    let outs = std::fs::read_to_string(&out_path).unwrap();
    let mut shown = Vec::new();
    let mut n_diff = 0;
    let mut count = 0;
    for (c, line) in cases.iter().zip(outs.lines()) {
        count += 1;
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            r["error"].is_null(),
            "the real program failed: {} on {:?}",
            r["error"],
            c.history
        );
        let a = decide(&c.history, &file, &c.state, c.opp, c.me, &c.cards, &c.legal);
        let real_text = r["appended"].as_str().unwrap();
        let real_keep = r["stdout"].as_str().unwrap().trim();
        let real_state = flags_of(r["state"].as_str().unwrap());
        let ok = a.text == real_text
            && a.keep.as_deref().unwrap_or("") == real_keep
            && flags_of(&a.state) == real_state;
        if !ok {
            n_diff += 1;
            if shown.len() < 5 {
                shown.push(format!(
                    "history {:?} cards {} coins {}/{} legal {:?} state {:?}: replica {:?} keep {:?} state {:?}, real {:?} keep {:?} state {:?}",
                    c.history, c.cards, c.me, c.opp, c.legal, c.state, a.text, a.keep, a.state,
                    real_text, real_keep, real_state
                ));
            }
        }
    }
    assert_eq!(
        count,
        cases.len(),
        "driver answered {count} of {} cases",
        cases.len()
    );
    assert!(
        n_diff == 0,
        "{n_diff} of {} positions differ; first ones:\n{}",
        cases.len(),
        shown.join("\n")
    );
    eprintln!(
        "replica agrees with the real program on {} positions",
        cases.len()
    );
}
