//! Behaviour lock for the Coup bots: every strategy's answer at every call of
//! a fixed set of committed games (`tests/golden/coup/games.txt`), compared
//! with the readable answers committed beside it (one file per strategy;
//! `search-memory.txt` for the default bot keeping its memory across
//! the games as `coup-bot` does, its portfolio's arm included).
//!
//! The games are committed moves, replayed through the engine from their
//! seeds: a change of behaviour does not change the positions, so it
//! rewrites only the answers it changes. Each line of an answers file is
//! one call: `game position | history tail | cards | my/opponent coins |
//! answer | kept cards`, the position counted within its game (the history
//! tail is the history's last, possibly incomplete, line; `-` when nothing
//! is kept).
//!
//! When a change of answers is intended, rewrite the answers and review and
//! commit their diff with the change:
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test --test coup_golden
//! git diff --stat tests/golden/coup/
//! ```
//!
//! `UPDATE_GOLDEN=games` plays the games afresh (each seat's strategy and
//! the seed follow from the game's index) and rewrites `games.txt` and the
//! answers: only for a change of the engine or of the set of games.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cardgames::coup::memory::Memory;
use cardgames::coup::rules::{last_line, Call, Outcome, Table};
use cardgames::coup::{decide, format_hand, Config, Decision, Recall, Remembered, Strategy, View};

/// Games played by `UPDATE_GOLDEN=games`.
const GAMES: u64 = 42;
/// Calls per game at most.
const STEPS: usize = 80;
/// The file of the default bot's answers with its memory kept.
const SEARCH_MEMORY: &str = "search-memory";
/// The committed games.
const GAMES_FILE: &str = "games.txt";

/// The directory of the committed files.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/coup")
}

/// One committed game: its deck's seed and every call's answer and kept
/// cards (`""` unless the call finished an Exchange).
struct Game {
    seed: u64,
    moves: Vec<(String, String)>,
}

/// `games.txt`: per game a line `seed S`, then one line per call, the
/// answer with its newline written `\n`, a tab, and the kept cards or `-`.
fn format_games(games: &[Game]) -> String {
    let mut out = String::new();
    for g in games {
        let _ = writeln!(out, "seed {}", g.seed);
        for (answer, keep) in &g.moves {
            let keep = if keep.is_empty() { "-" } else { keep };
            let _ = writeln!(out, "{}\t{keep}", answer.replace('\n', "\\n"));
        }
    }
    out
}

/// Reads [`format_games`]'s text.
fn parse_games(text: &str) -> Vec<Game> {
    let mut games: Vec<Game> = Vec::new();
    for line in text.lines() {
        if let Some(seed) = line.strip_prefix("seed ") {
            let seed = seed.parse().expect("a seed");
            games.push(Game {
                seed,
                moves: Vec::new(),
            });
            continue;
        }
        let (answer, keep) = line.split_once('\t').expect("answer and keep");
        let keep = if keep == "-" { "" } else { keep };
        let game = games.last_mut().expect("a seed line first");
        game.moves
            .push((answer.replace("\\n", "\n"), keep.to_string()));
    }
    games
}

/// The names of the strategies that played the committed games, by the
/// index [`seats`] draws: `Strategy::ALL` as it stood then, with `strong`
/// (since deleted, its seats now played by `search`). The second seat's
/// name is the opponent under which the memory keeps each game.
const SEATED: [&str; 14] = [
    "strong",
    "calculator",
    "random",
    "income",
    "honest",
    "challenger",
    "tax-bluffer",
    "always-tax",
    "always-steal",
    "always-assassinate",
    "challenge-all",
    "never-challenge",
    "block-all",
    "search",
];

/// The names of the strategies seated in game `g` ([`SEATED`]).
fn seats(g: u64) -> [&'static str; 2] {
    let n = SEATED.len() as u64;
    [SEATED[(g % n) as usize], SEATED[((g / n + g) % n) as usize]]
}

/// Plays the fresh set of games.
fn play_games() -> Vec<Game> {
    (0..GAMES)
        .map(|g| {
            let seats = seats(g).map(|s| Strategy::parse(s).unwrap_or(Strategy::Search));
            let seed = 0x5eed_0000 + g;
            let mut t = Table::new(seed, false);
            let mut moves = Vec::new();
            for _ in 0..STEPS {
                let Ok(call) = t.next_call() else { break };
                let cards = format_hand(&call.cards);
                let view = view(&t, &call, &cards);
                let d = decide(&view, Remembered::Nothing, &Config::of(seats[call.seat]));
                let keep = d.exchange_keep.unwrap_or_default();
                let end = t.play(&call, &d.answer, &keep);
                moves.push((d.answer, keep));
                match end {
                    None => {}
                    Some(Outcome::Forfeit { reason, .. }) => panic!("forfeit: {reason}"),
                    Some(_) => break,
                }
            }
            Game { seed, moves }
        })
        .collect()
}

/// The arbiter's arguments of `call` at table `t`.
fn view<'a>(t: &'a Table, call: &'a Call, cards: &'a str) -> View<'a> {
    View::new(
        &t.history,
        call.opp_coins,
        call.my_coins,
        cards,
        &call.legal,
    )
}

/// One call's line: game, position, history tail, cards, coins, answer, kept cards.
fn line(out: &mut String, g: usize, position: usize, t: &Table, call: &Call, d: &Decision) {
    let _ = writeln!(
        out,
        "{g} {position} | {:?} | {} | {}/{} | {:?} | {}",
        last_line(&t.history),
        format_hand(&call.cards),
        call.my_coins,
        call.opp_coins,
        d.answer,
        d.exchange_keep.as_deref().unwrap_or("-")
    );
}

/// Every answers file's text, by file name without `.txt`, at every call of
/// `games`.
fn answers(games: &[Game]) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    // The default bot in the first seat of every game, its memory kept across
    // them under its opponent's strategy's name, as coup-bot keeps it.
    let mut memory = Memory::default();
    for (g, game) in games.iter().enumerate() {
        let mut t = Table::new(game.seed, false);
        let opponent = seats(g as u64)[1];
        let name = format!("Ours_{opponent}_{g}_0.txt");
        for (position, (answer, keep)) in game.moves.iter().enumerate() {
            let call = t.next_call().expect("a committed move has its call");
            let cards = format_hand(&call.cards);
            let view = view(&t, &call, &cards);
            for (s, file) in Strategy::ALL.iter() {
                let d = decide(&view, Remembered::Nothing, &Config::of(*s));
                line(
                    files.entry(file.to_string()).or_default(),
                    g,
                    position,
                    &t,
                    &call,
                    &d,
                );
            }
            if call.seat == 0 {
                let recall = Recall {
                    memory: &mut memory,
                    opponent,
                    game: &name,
                };
                let d = decide(&view, Remembered::Kept(recall), &Config::default());
                let out = files.entry(SEARCH_MEMORY.to_string()).or_default();
                line(out, g, position, &t, &call, &d);
            }
            match t.play(&call, answer, keep) {
                None => {}
                Some(Outcome::Forfeit { reason, .. }) => panic!("game {g}: forfeit: {reason}"),
                Some(_) => break,
            }
        }
        memory.settle("Ours", opponent, &name, &t.history);
    }
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
    let dir = golden_dir();
    let update = std::env::var("UPDATE_GOLDEN").unwrap_or_default();
    if update == "games" {
        std::fs::create_dir_all(&dir).expect("create tests/golden/coup");
        let text = format_games(&play_games());
        std::fs::write(dir.join(GAMES_FILE), text).expect("write games.txt");
    }
    let text = std::fs::read_to_string(dir.join(GAMES_FILE)).expect("tests/golden/coup/games.txt");
    let games = parse_games(&text);
    assert_eq!(format_games(&games), text, "games.txt reads back");
    let positions: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(positions > 1000, "only {positions} positions");
    let files = answers(&games);
    if update == "1" || update == "games" {
        for (name, text) in &files {
            std::fs::write(dir.join(format!("{name}.txt")), text).expect("write golden file");
        }
        eprintln!(
            "UPDATE_GOLDEN: rewrote {} files in {}",
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
        if !files.contains_key(stem) && path.file_name().is_some_and(|n| n != GAMES_FILE) {
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
