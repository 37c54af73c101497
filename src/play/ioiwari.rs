//! Ioiwari against the optimal player: the engine ([`Game`]) on a start drawn from every
//! legal start with the seed, the person player 1 or 2 (`--seat`), the bot the `ioiwari`
//! program's player; recorded as `ioiwari-referee` records a game ([`GameRecord`]: the
//! start's value, every move, the suboptimal ones counted with the solved table) and saved
//! as a one-game run of its log (`docs/rules/ioiwari.md`).

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bots::IoiwariBot;
use super::{Choice, Front, Options, Played, Screen, Told, Zone, LEFT};
use crate::ioiwari::referee::{GameRecord, Outcome};
use crate::ioiwari::{table, Board, Game};
use crate::report::ioiwari::{pits, Entry, Run};
use crate::report::ReplayPick;

/// The start of game `seed`: one of [`Board::all_starts`], drawn with the seed.
pub fn start(seed: u64) -> Board {
    let starts = Board::all_starts();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    starts[rng.random_range(0..starts.len())]
}

/// A move in words: the pit, its stones, and what the sowing banks.
fn words(board: Board, pit: usize, mine: &str, theirs: &str) -> String {
    let stones = board.pits()[pit];
    match board.sow(pit) {
        Some(s) => format!(
            "empty pit {} ({stones} stone{}): {} to {mine} bank{}",
            pit + 1,
            if stones == 1 { "" } else { "s" },
            s.mover_gain,
            if s.opponent_gain > 0 {
                format!(", {} to {theirs}", s.opponent_gain)
            } else {
                String::new()
            }
        ),
        None => format!("pit {} is empty", pit + 1),
    }
}

fn screen(opts: &Options, game: &Game, me: usize, asked: String, last: Option<usize>) -> Screen {
    let banks = game.banks();
    Screen {
        title: format!("Ioiwari against the optimal player, seed {}", opts.seed),
        facts: vec![
            ("your bank".into(), banks[me].to_string()),
            ("bot's bank".into(), banks[1 - me].to_string()),
            (
                "stones on the board".into(),
                game.board().stones().to_string(),
            ),
            ("you are".into(), format!("player {}", me + 1)),
        ],
        zones: vec![Zone {
            name: "The pits (1 to 7, sown clockwise)".into(),
            cards: pits(game.board(), last),
            note: "both players sow from any pit".into(),
            mine: true,
        }],
        asked,
    }
}

/// Plays one game of Ioiwari (see the module's doc).
///
/// # Errors
/// A one-line message: a bad `--bot` setting, or the game cannot be encoded.
pub fn play(opts: &Options, front: &mut dyn Front) -> Result<Played, String> {
    let mut bot = IoiwariBot::new(&opts.bot, opts.seed)?;
    let me = opts.seat - 1;
    let board = start(opts.seed);
    let mut game = Game::new(board);
    let solved = table();
    let mut record = GameRecord::new(board, solved.value(board));
    let mut last = None;
    let mut left = false;
    while !game.is_over() {
        let seat = game.to_move().index();
        let board = game.board();
        let t0 = Instant::now();
        let (pit, why) = if seat == me {
            let moves: Vec<usize> = board.moves().collect();
            let choices: Vec<Choice> = moves
                .iter()
                .map(|&p| Choice {
                    code: (p + 1).to_string(),
                    words: words(board, p, "your", "the bot's"),
                })
                .collect();
            let s = screen(
                opts,
                &game,
                me,
                "Your move: choose a pit to empty".into(),
                last,
            );
            match front.choose(&s, &choices) {
                Some(i) => (moves[i], String::new()),
                None => {
                    left = true;
                    break;
                }
            }
        } else {
            match bot.choose(board) {
                (Some(p), why) => (p, why),
                (None, _) => break,
            }
        };
        let us = t0.elapsed().as_micros() as u64;
        match (seat, record.p1_first_us) {
            (0, None) => record.p1_first_us = Some(us),
            (0, Some(_)) => record.p1_move_us.push(us),
            _ => {
                if record.p2_first_us.is_none() {
                    record.p2_first_us = Some(0);
                }
                record.p2_move_us.push(us)
            }
        }
        let values = solved.move_values(board);
        if values[pit] < values.iter().flatten().max().copied() {
            record.suboptimal_moves[seat] += 1;
        }
        if game.play(pit).is_err() {
            // The engine's own list never holds an illegal pit.
            break;
        }
        record.moves.push(pit as u8 + 1);
        last = Some(pit);
        front.told(Told {
            who: if seat == me { "You" } else { "Bot" }.into(),
            text: if seat == me {
                words(board, pit, "your", "the bot's")
            } else {
                words(board, pit, "its", "yours")
            },
            why: if seat != me && opts.explain {
                why
            } else {
                String::new()
            },
        });
    }
    record.banks = game.banks();
    let banks = game.banks();
    let result = if left {
        record.outcome = Outcome::Forfeit {
            player: me as u8 + 1,
            reason: LEFT.into(),
        };
        format!("You left: the game is saved as your forfeit ({LEFT})")
    } else {
        record.outcome = Outcome::Finished {
            margin: game.margin(),
        };
        let (mine, theirs) = (banks[me], banks[1 - me]);
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => format!("You win, {mine} to {theirs}"),
            std::cmp::Ordering::Less => format!("The bot wins, {theirs} to {mine}"),
            std::cmp::Ordering::Equal => format!("Draw, {mine} each"),
        }
    };
    let screen = screen(opts, &game, me, String::new(), last);
    let (p1, p2) = if me == 0 {
        ("cardgames-play".to_string(), bot.command())
    } else {
        (bot.command(), "cardgames-play".to_string())
    };
    let run = Run {
        p1: p1.clone(),
        p2: p2.clone(),
        partial: left,
        shard: None,
        games: vec![Entry {
            index: 0,
            shard: None,
            p1,
            p2,
            record,
        }],
    };
    let json =
        serde_json::to_string_pretty(&run).map_err(|e| format!("cannot encode the game: {e}"))?;
    Ok(Played {
        json,
        write_html: Box::new(move |p| {
            crate::report::ioiwari::write_html(&run, ReplayPick { first: 1 }, p)
        }),
        index: 0,
        screen,
        result,
        left,
    })
}
