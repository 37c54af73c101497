//! The statement's sample interaction (`docs/rules/durak.md` §3.5) reproduced by the referee,
//! line by line from player 1's view, and the bots' legality over many random games.

use std::collections::VecDeque;
use std::time::Duration;

use cardgames::durak::cards::CardSet;
use cardgames::durak::deep::DeepConfig;
use cardgames::durak::referee::{
    play_game, play_game_named, GameRecord, Naming, Player, SeatFault,
};
use cardgames::durak::tournament::BotSeat;
use cardgames::durak::{Command, DurakBot, Game, Strategy};
use cardgames::{Card, Notation, Suit};

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| Card::parse(t, Notation::Durak).unwrap())
        .collect()
}

/// A seat answering from a fixed script.
struct Scripted(VecDeque<&'static str>);

impl Player for Scripted {
    fn send(&mut self, _line: &str) -> Result<(), SeatFault> {
        Ok(())
    }
    fn ask(&mut self, _command: Command, _left: Duration) -> Result<String, SeatFault> {
        self.0
            .pop_front()
            .map(str::to_owned)
            .ok_or(SeatFault::Crash("script over".into()))
    }
}

#[test]
fn sample_interaction_from_player_one_view() {
    let dealt = [
        cards("6S 7S 8S 9S TS JS"),
        cards("6D 9D TD JD QD KD"),
        cards("7D 6C 7H 9H TH JH"),
        cards("7C AS 9C TC JC QC"),
    ];
    let mut talon = cards("8D 6H QH KH QS KS AC AH AD 8H 8C KC");
    talon.reverse();
    let hands = dealt.clone().map(|h| h.into_iter().collect::<CardSet>());
    // Player 2 (absolute 1) moves first.
    let game = Game::from_parts(Suit::Spades, hands, talon, 1);
    let mut s0 = Scripted(["6S", "7S", "8S"].into());
    let mut s1 = Scripted(["6D", "NO"].into());
    let mut s2 = Scripted(["7D", "6C", "7H", "NO", "NO", "NO"].into());
    let mut s3 = Scripted(["NO", "7C", "AS", "NO"].into());
    let rec = play_game(
        game,
        &dealt,
        &mut [&mut s0, &mut s1, &mut s2, &mut s3],
        true,
    );
    let mut expected: Vec<String> = vec!["trump S".into()];
    for c in ["6S", "7S", "8S", "9S", "TS", "JS"] {
        expected.push(format!("give 1 {c}"));
    }
    for p in 2..=4 {
        for _ in 0..6 {
            expected.push(format!("give {p} ??"));
        }
    }
    let rest = "move 2 3 6D|beat 3 7D|give 2 ??|give 3 ??|move 3 4 6C|beat 4 7C|add 3 4 7H|beat 4 AS|\
                ADD|> 6S|add 1 4 6S|take 4|ADD|> 7S|add 1 4 7S|give 3 ??|give 3 ??|give 1 QS|give 1 KS|\
                MOVE|> 8S|move 1 2 8S|take 2|give 1 AC";
    expected.extend(rest.split('|').map(str::to_owned));
    let transcript = rec.transcript.expect("transcript requested");
    assert_eq!(transcript[0], expected);
    // The script ends there: absolute player 2 must lead next and cannot.
    assert!(rec.forfeit.is_some());
}

fn bot_game(seed: u64, a: Strategy, b: Strategy) -> GameRecord {
    bot_game_named(seed, a, b, Naming::Physical)
}

fn bot_game_named(seed: u64, a: Strategy, b: Strategy, naming: Naming) -> GameRecord {
    let (game, dealt) = Game::new(seed);
    // A small search setting keeps the debug-profile test fast; legality does not depend on it.
    let config = DeepConfig::parse("max_samples=3,min_samples=1").unwrap();
    let mut seats = [0u64, 1, 2, 3].map(|i| {
        let s = if i % 2 == 0 { a } else { b };
        BotSeat(DurakBot::new(s, seed.wrapping_mul(4).wrapping_add(i)).with_config(config))
    });
    let [s0, s1, s2, s3] = &mut seats;
    play_game_named(game, &dealt, &mut [s0, s1, s2, s3], false, naming)
}

#[test]
fn bots_never_answer_illegally_against_random_opponents() {
    for strategy in [Strategy::Random, Strategy::Greedy, Strategy::Heuristic] {
        for seed in 0..700u64 {
            let rec = bot_game(seed, strategy, Strategy::Random);
            assert!(
                rec.forfeit.is_none(),
                "{strategy:?} seed {seed}: {:?}",
                rec.forfeit
            );
            assert!(
                rec.winner.is_some(),
                "{strategy:?} seed {seed} did not finish"
            );
        }
    }
}

#[test]
fn deep_bot_never_answers_illegally() {
    for seed in 0..25u64 {
        let rec = bot_game(seed, Strategy::Deep, Strategy::Random);
        assert!(rec.forfeit.is_none(), "seed {seed}: {:?}", rec.forfeit);
        let rec = bot_game(seed, Strategy::Random, Strategy::Deep);
        assert!(rec.forfeit.is_none(), "seed {seed}: {:?}", rec.forfeit);
    }
}

#[test]
fn bots_accept_seat_naming_of_a_substituting_partner() {
    // Substitution happens in most endgames; with lines naming the out seat instead of the
    // physical player a confused tracker would replay a card it no longer holds.
    for seed in 0..400u64 {
        for (a, b) in [
            (Strategy::Heuristic, Strategy::Greedy),
            (Strategy::Greedy, Strategy::Random),
        ] {
            let rec = bot_game_named(seed, a, b, Naming::Seat);
            assert!(rec.forfeit.is_none(), "seed {seed}: {:?}", rec.forfeit);
        }
    }
    for seed in 0..15u64 {
        let rec = bot_game_named(seed, Strategy::Deep, Strategy::Heuristic, Naming::Seat);
        assert!(rec.forfeit.is_none(), "seed {seed}: {:?}", rec.forfeit);
    }
}

#[test]
fn tracker_follows_the_sample_with_crlf_and_extra_spaces() {
    let mut lines = vec!["trump S".to_owned()];
    for c in ["6S", "7S", "8S", "9S", "TS", "JS"] {
        lines.push(format!("give 1 {c}"));
    }
    for p in 2..=4 {
        for _ in 0..6 {
            lines.push(format!("give {p} ??"));
        }
    }
    let rest = "move 2 3 6D|beat 3 7D|give 2 ??|give 3 ??|move 3 4 6C|beat 4 7C|add 3 4 7H|beat 4 AS|\
                add 1 4 6S|take 4|add 1 4 7S|give 3 ??|give 3 ??|give 1 QS|give 1 KS|move 1 2 8S|take 2|give 1 AC";
    lines.extend(rest.split('|').map(str::to_owned));
    let mut bot = DurakBot::new(Strategy::Deep, 3);
    for l in &lines {
        assert_eq!(
            bot.feed(&format!("  {}  \r\n", l.replace(' ', "   "))),
            Ok(None)
        );
    }
    let t = bot.tracker();
    let set = |s: &str| cards(s).into_iter().collect::<CardSet>();
    assert_eq!(t.hand, set("9S TS JS QS KS AC"));
    assert_eq!(t.sizes, [6, 7, 6, 10]);
    assert_eq!(t.known[1], set("8S"));
    assert_eq!(t.known[3], set("6C 7C 7H AS 6S 7S"));
    assert_eq!(t.gone, set("6D 7D"));
    assert_eq!(t.talon(), 5);
    // Cards are conserved: hands + talon + gone = 36.
    assert_eq!(t.sizes.iter().sum::<usize>() + t.talon() + t.gone.len(), 36);
    assert_eq!(t.unseen().len(), 36 - 6 - 1 - 6 - 2);
    // After `take 2` the round is over (the draws closed it) and the next lead skips the
    // taker: player 3 (0-based 2), not player 2 who defended.
    assert!(t.seats_known);
    assert_eq!(t.round, None);
    assert_eq!(t.mover_seat.index(), 2);
    let cmd = bot.feed("BEAT").unwrap();
    assert_eq!(cmd, Some(Command::Beat));
}
