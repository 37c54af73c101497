//! Behaviour lock for the Coup bots: every strategy's answer on a fixed set of
//! reachable positions (games played by the engine from fixed seeds), and the
//! strong bot's answers with a memory of the previous game, compared with the
//! readable answers committed in `tests/golden/coup/` (one file per strategy,
//! `strong-memory.txt` for the strong bot with memory).
//!
//! Each line is one call: `game position | history tail | cards | my/opponent
//! coins | answer | kept cards` (the history tail is the history's last,
//! possibly incomplete, line; `-` when nothing is kept). A change of any
//! answer shows as a diff of these files.
//!
//! When a change of answers is intended, rewrite the files and review and
//! commit their diff with the change:
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test --test coup_golden
//! git diff --stat tests/golden/coup/
//! ```
//!
//! (These files replace the hashes of issue 13's behaviour lock: they were
//! written by the code whose answers gave the last committed hashes,
//! `0x5aca3c99b265eef9` and `0x2669b64bc4743286` with memory.)

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cardgames::coup::opponent::Stats;
use cardgames::coup::rules::{last_line, Outcome, Table};
use cardgames::coup::{format_hand, Config, Decision, History, Remembered, Strategy, View};

/// Games played; each seat's strategy and the seed follow from the game index.
const GAMES: u64 = 200;
/// Calls per game at most.
const STEPS: usize = 80;
/// The file of the strong bot's answers with memory.
const MEMORY: &str = "strong-memory";

/// `strategy`'s decision on the arbiter's inputs, without memory.
fn decide(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
) -> Decision {
    let view = View::new(history, opp_coins, my_coins, cards, legal);
    cardgames::coup::decide(&view, Remembered::Nothing, &Config::of(strategy))
}

/// `strategy`'s decision on the arbiter's inputs with `memory`, the counts of
/// past games against this opponent (`coup::decide` with `Remembered::counts`).
fn decide_with(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
    memory: Option<&Stats>,
) -> Decision {
    let view = View::new(history, opp_coins, my_coins, cards, legal);
    cardgames::coup::decide(&view, Remembered::counts(memory), &Config::of(strategy))
}

/// The directory of the committed answers.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/coup")
}

/// One call's line: position, history tail, cards, coins, answer, kept cards.
fn line(out: &mut String, g: u64, position: usize, t: &Table, call: &Shown, d: &Decision) {
    let _ = writeln!(
        out,
        "{g} {position} | {:?} | {} | {}/{} | {:?} | {}",
        last_line(&t.history),
        call.cards,
        call.my_coins,
        call.opp_coins,
        d.answer,
        d.exchange_keep.as_deref().unwrap_or("-")
    );
}

/// What a line shows of the call.
struct Shown {
    cards: String,
    my_coins: i64,
    opp_coins: i64,
}

/// Every file's text, by file name without `.txt`: each strategy's answers, and the strong
/// bot's answers with memory (the memory of game `g` is the counts read from the finished
/// history of game `g - 1`).
fn answers() -> BTreeMap<String, String> {
    let n = Strategy::ALL.len() as u64;
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut positions = 0;
    let mut memory: Option<Stats> = None;
    for g in 0..GAMES {
        let seats = [
            Strategy::ALL[(g % n) as usize].0,
            Strategy::ALL[((g / n + g) % n) as usize].0,
        ];
        let mut t = Table::new(0x5eed_0000 + g, g % 2 == 1);
        for _ in 0..STEPS {
            let Ok(call) = t.next_call() else { break };
            positions += 1;
            let shown = Shown {
                cards: format_hand(&call.cards),
                my_coins: call.my_coins,
                opp_coins: call.opp_coins,
            };
            let mut chosen = None;
            for (s, name) in Strategy::ALL.iter() {
                let d = decide(
                    *s,
                    &t.history,
                    call.opp_coins,
                    call.my_coins,
                    &shown.cards,
                    &call.legal,
                );
                line(
                    files.entry((*name).to_string()).or_default(),
                    g,
                    positions,
                    &t,
                    &shown,
                    &d,
                );
                if *s == seats[call.seat] {
                    chosen = Some(d);
                }
            }
            if let Some(mem) = &memory {
                let d = decide_with(
                    Strategy::Strong,
                    &t.history,
                    call.opp_coins,
                    call.my_coins,
                    &shown.cards,
                    &call.legal,
                    Some(mem),
                );
                line(
                    files.entry(MEMORY.to_string()).or_default(),
                    g,
                    positions,
                    &t,
                    &shown,
                    &d,
                );
            }
            let d = chosen.expect("seat strategy is in ALL");
            match t.play(&call, &d.answer, d.exchange_keep.as_deref().unwrap_or("")) {
                None => {}
                Some(Outcome::Forfeit { reason, .. }) => panic!("forfeit: {reason}"),
                Some(_) => break,
            }
        }
        memory = History::parse(&t.history)
            .ok()
            .map(|h| Stats::from_history(&h));
    }
    assert!(positions > 1000, "only {positions} positions");
    files
}

/// The first lines where `want` and `got` differ (at most 5), and how many lines differ.
fn differences(want: &str, got: &str) -> (Vec<String>, usize) {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let mut shown = Vec::new();
    let mut count = 0;
    for i in 0..w.len().max(g.len()) {
        let (a, b) = (w.get(i).copied(), g.get(i).copied());
        if a != b {
            count += 1;
            if shown.len() < 5 {
                shown.push(format!(
                    "  line {}:\n    committed {}\n    now       {}",
                    i + 1,
                    a.unwrap_or("(none)"),
                    b.unwrap_or("(none)")
                ));
            }
        }
    }
    (shown, count)
}

#[test]
fn every_strategy_answers_as_committed() {
    let files = answers();
    let dir = golden_dir();
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(&dir).expect("create tests/golden/coup");
        for (name, text) in &files {
            std::fs::write(dir.join(format!("{name}.txt")), text).expect("write golden file");
        }
        eprintln!(
            "UPDATE_GOLDEN=1: rewrote {} files in {}",
            files.len(),
            dir.display()
        );
        return;
    }
    let mut failures = Vec::new();
    for (name, text) in &files {
        let path = dir.join(format!("{name}.txt"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != *text {
            let (shown, count) = differences(&committed, text);
            failures.push(format!(
                "{}: {count} lines differ\n{}",
                path.display(),
                shown.join("\n")
            ));
        }
    }
    // No stale file of a strategy that no longer exists.
    for entry in std::fs::read_dir(&dir).expect("tests/golden/coup") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if !files.contains_key(stem) {
            failures.push(format!("{}: no such strategy", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "answers changed; if on purpose, rewrite the files with UPDATE_GOLDEN=1 cargo test \
         --test coup_golden and commit their diff:\n{}",
        failures.join("\n")
    );
}
