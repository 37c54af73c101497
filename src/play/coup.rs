//! Coup against a bot: the arbiter's true state ([`Table`], the one engine) asks each call
//! in turn, the person through the front and the bot as `coup-arbiter` asks a `builtin:`
//! seat; the game is recorded as the arbiter traces it ([`Turn`]) and saved as a
//! `coup-arbiter --json` run of the two (`docs/rules/coup.md`).
//!
//! The person is bot 0 of the run, named `you`; sitting first (`--seat 1`) the game is round
//! 0 game 0 of the two's schedule, second (`--seat 2`) round 0 game 1, seeded as the arbiter
//! seeds that game ([`arbiter::game_seed`]).

use std::time::Instant;

use super::bots::CoupBot;
use super::{back, Choice, Front, Options, Played, Screen, Told, Zone, LEFT};
use crate::coup::arbiter::{self, Bot, BotKind, GameRecord, Settings, Turn};
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::protocol::{line_events, Reply};
use crate::coup::game::rules::{hands_of, last_line, Call, Outcome, Table, MAX_CALLS};
use crate::report::coup::{chips, describe, Run};
use crate::report::Shard;

/// The person's name in the saved run.
pub const YOU: &str = "you";

/// A legal answer as the person may type it: the history's line end written `.`.
pub fn code(answer: &str) -> String {
    answer.replace('\n', ".")
}

/// The person's choices at a call: every legal answer named in words; on the call that
/// completes an Exchange, ending the turn once per distinct hand that may be kept (typed
/// `.` then the kept cards' codes). Returns the choices and, for each, the answer and the
/// kept cards (`""` when none).
pub fn choices(call: &Call, hand_size: usize) -> (Vec<Choice>, Vec<(String, String)>) {
    let mut shown = Vec::new();
    let mut moves = Vec::new();
    for a in &call.legal {
        if call.exchange && Reply::parse(a) == Some(Reply::EndTurn) {
            let mut seen = Vec::new();
            for hand in hands_of(&call.cards, hand_size) {
                let mut key = hand.clone();
                key.sort_by_key(|c| c.index());
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let kept = format_hand(&hand);
                let names: Vec<String> = hand.iter().map(|c| format!("{c:?}")).collect();
                shown.push(Choice {
                    code: format!("{}{kept}", code(a)),
                    words: format!("end the turn, keeping {}", names.join(" and ")),
                });
                moves.push((a.clone(), kept));
            }
        } else {
            shown.push(Choice {
                code: code(a),
                words: describe(a),
            });
            moves.push((a.clone(), String::new()));
        }
    }
    (shown, moves)
}

/// The turn so far in words (the history's last unfinished line).
fn turn_so_far(history: &str) -> String {
    let line = last_line(history);
    if line.is_empty() || line.ends_with('\n') {
        return String::new();
    }
    match line_events(line) {
        Ok(events) => events
            .iter()
            .map(|r| describe(&r.text()))
            .collect::<Vec<_>>()
            .join(" → "),
        Err(_) => String::new(),
    }
}

/// What the person sees: their cards (the two drawn first on an Exchange call), the bot's
/// cards face down (face up at the end, `call` `None`), the cards each side has lost face up, coins and the deck.
fn screen(
    opts: &Options,
    table: &Table,
    me: usize,
    bot: &str,
    lost: &[Vec<Character>; 2],
    call: Option<&Call>,
) -> Screen {
    let mut mine = match call.filter(|c| c.exchange) {
        Some(c) => {
            let mut v = chips(&format_hand(&c.cards[..2]), "offered");
            v.extend(chips(&format_hand(&table.cards(me)), ""));
            v
        }
        None => chips(&format_hand(&table.cards(me)), ""),
    };
    mine.extend(chips(&format_hand(&lost[me]), "lost"));
    // At the end (no call) the bot's cards are turned face up.
    let mut theirs: Vec<_> = match call {
        Some(_) => table.cards(1 - me).iter().map(|_| back()).collect(),
        None => chips(&format_hand(&table.cards(1 - me)), "revealed"),
    };
    theirs.extend(chips(&format_hand(&lost[1 - me]), "lost"));
    let coins = |s: usize| {
        let n = table.coins(s);
        format!("{n} coin{}", if n == 1 { "" } else { "s" })
    };
    let so_far = turn_so_far(&table.history);
    Screen {
        title: format!("Coup against {bot}, seed {}", opts.seed),
        facts: vec![
            ("your coins".into(), coins(me)),
            ("bot's coins".into(), coins(1 - me)),
            ("deck".into(), format!("{} cards", table.deck().len())),
            ("calls".into(), format!("{} of {MAX_CALLS}", table.calls())),
        ],
        zones: vec![
            Zone {
                name: "Your cards".into(),
                cards: mine,
                note: if call.is_some_and(|c| c.exchange) {
                    "the two dashed cards were drawn by your Exchange: keep two of the four".into()
                } else {
                    "lost cards are crossed out".into()
                },
                mine: true,
            },
            Zone {
                name: format!("Bot ({bot})"),
                cards: theirs,
                note: if call.is_some() {
                    format!("{} face down", table.cards(1 - me).len())
                } else {
                    "its cards at the end, turned face up".into()
                },
                mine: false,
            },
        ],
        asked: if call.is_none() {
            String::new()
        } else if so_far.is_empty() {
            "Your turn: choose an action".into()
        } else {
            format!("This turn so far: {so_far}. Your answer:")
        },
    }
}

/// Plays one game of Coup (see the module's doc).
///
/// # Errors
/// A one-line message: a bad `--bot` setting, or the game cannot be encoded.
pub fn play(opts: &Options, front: &mut dyn Front) -> Result<Played, String> {
    let bot = CoupBot::new(&opts.bot)?;
    let me = opts.seat - 1;
    // Bot 0 is the person; the arbiter's schedule of two bots plays (0, 1) then (1, 0).
    let (first, second, game) = if me == 0 { (0, 1, 0) } else { (1, 0, 1) };
    let seed = arbiter::game_seed(opts.seed, 0, game);
    let mut table = Table::new(seed, false);
    let mut record = GameRecord::new(0, game, first, second, seed);
    let mut lost: [Vec<Character>; 2] = Default::default();
    let mut left = false;
    let outcome = loop {
        let call = match table.next_call() {
            Ok(c) => c,
            Err(o) => break o,
        };
        let coins = [table.coins(0), table.coins(1)];
        let hands = [format_hand(&table.cards(0)), format_hand(&table.cards(1))];
        let start = Instant::now();
        let (answer, keep, why) = if call.seat == me {
            let size = table.cards(me).len();
            let (shown, moves) = choices(&call, size);
            let s = screen(opts, &table, me, bot.name(), &lost, Some(&call));
            match front.choose(&s, &shown) {
                Some(i) => {
                    let (a, k) = moves[i].clone();
                    (a, k, String::new())
                }
                None => {
                    left = true;
                    (String::new(), String::new(), String::new())
                }
            }
        } else {
            let d = bot.decide(&table.history, &call);
            (
                d.answer,
                d.exchange_keep.unwrap_or_default(),
                if opts.explain {
                    CoupBot::explain(&d.explanation)
                } else {
                    String::new()
                },
            )
        };
        let ns = start.elapsed().as_nanos() as u64;
        record.call_ns[call.seat].0 += ns;
        record.call_ns[call.seat].1 += 1;
        record.max_call_ns[call.seat] = record.max_call_ns[call.seat].max(ns);
        let result = if left {
            Some(Outcome::Forfeit {
                loser: me,
                reason: LEFT.into(),
            })
        } else {
            table.play(&call, &answer, &keep)
        };
        let played = !left
            && !matches!(&result, Some(Outcome::Forfeit { loser, .. }) if *loser == call.seat);
        if played {
            if let Some(c) = Reply::parse(&answer).and_then(Reply::given_up) {
                lost[call.seat].push(c);
            }
        }
        record.turns.push(Turn {
            seat: call.seat,
            coins,
            hands,
            offered: call.exchange.then(|| format_hand(&call.cards)),
            legal: call.legal.clone(),
            kept: (call.exchange && played).then(|| format_hand(&table.cards(call.seat))),
            answer: if played {
                answer.clone()
            } else {
                String::new()
            },
            ns,
        });
        if played {
            let mut text = describe(&answer);
            if call.exchange && call.seat == me {
                text.push_str(&format!(", keeping {}", names(&table.cards(me))));
            }
            front.told(Told {
                who: if call.seat == me { "You" } else { "Bot" }.into(),
                text,
                why,
            });
        }
        if let Some(o) = result {
            break o;
        }
    };
    record.calls = table.calls();
    record.history = table.history.clone();
    let seats = [first, second];
    let result = match &outcome {
        Outcome::Win { winner } => {
            record.winner = Some(seats[*winner]);
            if *winner == me {
                "You win: the bot has lost both its cards".to_string()
            } else {
                "The bot wins: you have lost both your cards".to_string()
            }
        }
        Outcome::Forfeit { loser, reason } => {
            record.winner = Some(seats[1 - loser]);
            record.forfeit = Some((seats[*loser], reason.clone()));
            if *loser == me {
                format!("You left: the game is saved as your forfeit ({reason})")
            } else {
                format!("You win: the bot forfeited ({reason})")
            }
        }
        Outcome::Draw => "Draw: 200 calls without a winner (both lose)".to_string(),
    };
    let last = screen(opts, &table, me, bot.name(), &lost, None);
    let bots = [
        Bot {
            name: YOU.into(),
            kind: BotKind::Process(vec!["cardgames-play".into()]),
        },
        Bot {
            name: bot.name().into(),
            kind: BotKind::Process(vec![bot.command(&opts.bot)]),
        },
    ];
    let commands = ["cardgames-play coup".to_string(), bot.command(&opts.bot)];
    let settings = Settings {
        rounds: 1,
        seed: opts.seed,
        quirks: false,
        work_dir: Default::default(),
        show_stderr: false,
        timeout: arbiter::DEFAULT_TIMEOUT,
        keep_bot_dirs: false,
    };
    let run = Run::new(
        &bots,
        &commands,
        vec![record],
        &settings,
        1,
        left,
        Shard::ALL,
    );
    let json =
        serde_json::to_string_pretty(&run).map_err(|e| format!("cannot encode the game: {e}"))?;
    let index = run.index(&run.games[0]);
    Ok(Played {
        json,
        write_html: Box::new(move |p| crate::report::coup::write_html(&run, p)),
        index,
        screen: last,
        result,
        left,
    })
}

/// Cards' names joined with "and".
fn names(cards: &[Character]) -> String {
    cards
        .iter()
        .map(|c| format!("{c:?}"))
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exchange_offers_each_distinct_hand_once() {
        use Character::*;
        let call = Call {
            seat: 0,
            legal: vec!["\n".into()],
            cards: vec![Duke, Duke, Captain, Contessa],
            exchange: true,
            opp_coins: 1,
            my_coins: 1,
        };
        let (shown, moves) = choices(&call, 2);
        // {Duke, Duke}, {Duke, Captain}, {Duke, Contessa}, {Captain, Contessa}.
        assert_eq!(shown.len(), 4, "{shown:?}");
        assert!(shown.iter().all(|c| c.code.starts_with('.')));
        assert!(shown
            .iter()
            .any(|c| c.words == "end the turn, keeping Captain and Contessa"));
        assert!(moves
            .iter()
            .all(|(a, k)| a == "\n" && k.chars().count() == 2));
    }
}
