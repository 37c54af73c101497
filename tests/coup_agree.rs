//! One decision path: `coup-bot` in its working folder (memory file, history
//! files beside the current one) and the library's `coup::decide` with a
//! memory kept in the caller's hands (what the C ABI's
//! `cg_coup_decide_remembering` calls, its memory handle updated with each
//! finished game as `cg_coup_memory_update` does) decide the same on every
//! call of a few games against a sparring strategy that answers blocks both
//! ways (so the portfolio's arm 1 comes into play), and keep the same
//! memory, byte for byte.

#[path = "support/coup_decide.rs"]
mod coup_decide;

use std::path::Path;
use std::process::Command;

use cardgames::coup::memory::{Memory, FILE_NAME};
use cardgames::coup::rules::{Outcome, Table};
use cardgames::coup::{decide, format_hand, Config, Recall, Remembered, Strategy, View};

/// Games played; our bot takes the first seat in even games.
const GAMES: u64 = 12;
/// Calls per game at most.
const STEPS: usize = 60;

/// `coup-bot`'s answer and kept cards for one call, run in `me` (the bot's
/// folder) on the history file `file` (holding the history so far).
fn cli(
    me: &Path,
    file: &Path,
    opp: i64,
    mine: i64,
    cards: &str,
    legal: &[String],
) -> (String, String) {
    let before = std::fs::read_to_string(file).expect("history");
    let out = Command::new(env!("CARGO_BIN_EXE_coup-bot"))
        .current_dir(me)
        .arg(file)
        .args([opp.to_string(), mine.to_string(), cards.to_string()])
        .args(legal)
        .output()
        .expect("run coup-bot");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = std::fs::read_to_string(file).expect("history");
    let answer = after
        .strip_prefix(before.as_str())
        .expect("coup-bot appends")
        .to_string();
    let keep = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
    (answer, keep)
}

#[test]
fn the_library_with_memory_decides_as_coup_bot() {
    let root = tempfile::tempdir().expect("temp dir");
    let games = root.path().join("games");
    let me = root.path().join("Ours");
    std::fs::create_dir_all(&games).expect("games");
    std::fs::create_dir_all(&me).expect("bot folder");
    let mut memory = Memory::default();
    let mut calls = 0;
    let mut arms = Vec::new();
    for g in 0..GAMES {
        let (ours, name) = coup_decide::memory_game(g);
        let file = games.join(&name);
        std::fs::write(&file, "").expect("history");
        let mut t = Table::new(0x5eed_0000 + g, false);
        for _ in 0..STEPS {
            let Ok(call) = t.next_call() else { break };
            let cards = format_hand(&call.cards);
            let view = View::new(
                &t.history,
                call.opp_coins,
                call.my_coins,
                &cards,
                &call.legal,
            );
            let (answer, keep) = if call.seat == ours {
                calls += 1;
                let recall = Recall {
                    memory: &mut memory,
                    opponent: "Rnd",
                    game: &name,
                };
                let d = decide(&view, Remembered::Kept(recall), &Config::default());
                let keep = d.exchange_keep.clone().unwrap_or_default();
                let got = cli(
                    &me,
                    &file,
                    call.opp_coins,
                    call.my_coins,
                    &cards,
                    &call.legal,
                );
                assert_eq!(
                    got,
                    (d.answer.clone(), keep.clone()),
                    "game {g}, history {:?}",
                    t.history
                );
                if let Some(line) = d
                    .explanation
                    .lines()
                    .find(|l| l.starts_with("portfolio: arm"))
                {
                    arms.push(line.to_string());
                }
                (d.answer, keep)
            } else {
                let d = decide(&view, Remembered::Nothing, &Config::of(Strategy::Random));
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&file)
                    .expect("file");
                std::io::Write::write_all(&mut f, d.answer.as_bytes()).expect("append");
                (d.answer.clone(), d.exchange_keep.unwrap_or_default())
            };
            match t.play(&call, &answer, &keep) {
                None => {}
                Some(Outcome::Forfeit { reason, .. }) => panic!("forfeit: {reason}"),
                Some(_) => break,
            }
        }
        assert_eq!(std::fs::read_to_string(&file).expect("history"), t.history);
        // The finished game settles in the caller's memory as coup-bot
        // settles it from the file at its next game's first call.
        memory.settle("Ours", "Rnd", &name, &t.history);
    }
    assert!(calls > 80, "only {calls} calls");
    // Both arms played: the random player answers blocks both ways.
    assert!(arms.iter().any(|a| a.contains("arm 1")), "{arms:?}");
    // The memory file holds what the caller's memory holds, but for the last
    // game, which coup-bot settles only at its next game.
    let file = Memory::load(&me);
    let mut settled_last = file.clone();
    let (_, last) = coup_decide::memory_game(GAMES - 1);
    let text = std::fs::read_to_string(games.join(&last)).expect("last game");
    settled_last.settle("Ours", "Rnd", &last, &text);
    assert_eq!(settled_last.format(), memory.format());
    assert!(me.join(FILE_NAME).exists());
}
