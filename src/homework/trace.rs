//! The step-by-step trace of a homework game, in the exact format of the
//! original checker's `.debug` files (`../hw-tests/tests/*/*.debug`,
//! `docs/rules/homework.md` §8: the piles after every step, players
//! numbered from 0).
//!
//! The format, as the official files show it (LF line ends; cards in the
//! homework's notation, lists written like `['As', '8c']`, `[]` when empty):
//!
//! - War: `P1: [..]`, `P2: [..]` (top card first), then for every hand the
//!   two cards turned first (`P1 card: As`, `P2 card: Jh`, the cards of a war
//!   are not listed) and the piles after the hand, each block closed by 15
//!   dashes; at the end `p1 won all the cards` or `p2 had more Qs` and the
//!   1-based winner.
//! - Rolling Stone: the four hands as per-suit lists
//!   (`Player 0: {'s': [..], 'h': [..], 'c': [..], 'd': [..]}`) and
//!   `Table: [..]` (first card played first), closed by 18 dashes: once at
//!   the start, after every card played, and twice when a player takes the
//!   table (after taking it, and after leading the next suit). The winning
//!   card gets no block; the 0-based winner ends the trace.
//! - Scarabs: after every card turned (and once at the start) `Before action`
//!   (1 while a scarab is pending, else 0), `Current player` (who turns next),
//!   `Players in game` (the seats holding cards), `Direction` (`+` or `-`),
//!   the piles (top card first), `Table: [..]` (first card turned first) and
//!   `To win player` (who turned the pending scarab, 0 when none), closed by 33 dashes; the
//!   0-based winner ends the trace.
//!
//! One difference is known and kept: `rollingstone4.debug` ends with an extra
//! line `[6, 11, 2, 13, 12, 4, 8, 7, 5, 3, 10, 1, 9]`, the pile order of the
//! test's last `npiles` shuffle, which the reference program printed after
//! the game; no rule produces it (`razboi2..4` end with an `npiles 13` line
//! too and have none), so the trace does not write it.

use std::fmt::Write as _;

use super::rolling_stone::{RollingStone, Turn as RollingTurn};
use super::scarabs::Scarabs;
use super::war::{War, WarOutcome};
use super::{GameError, HomeworkError, Input, Task};
use crate::card::{Card, Suit};
use crate::deck::Deck;

/// Writes cards as the reference's list: `['As', '8c']`, or `[]`.
fn write_list<'a>(text: &mut String, cards: impl IntoIterator<Item = &'a Card>) {
    text.push('[');
    for (i, card) in cards.into_iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        // Writing into a String cannot fail.
        let _ = write!(text, "'{card}'");
    }
    text.push(']');
}

/// Writes a deck, top card first.
fn write_deck(text: &mut String, deck: &Deck) {
    let cards: Vec<Card> = deck.iter().collect();
    write_list(text, &cards);
}

/// Writes a table kept last card on top, as the reference does: first card
/// played first.
fn write_table(text: &mut String, table: &Deck) {
    let mut cards: Vec<Card> = table.iter().collect();
    cards.reverse();
    write_list(text, &cards);
}

/// The closing line of a War block (15 dashes).
const WAR_RULE: &str = "---------------\n";
/// The closing line of a Rolling Stone block (18 dashes).
const ROLLING_RULE: &str = "------------------\n";
/// The closing line of a Scarabs block (33 dashes).
const SCARABS_RULE: &str = "---------------------------------\n";

fn write_war_piles(text: &mut String, war: &War) {
    for player in 1..=2 {
        let _ = write!(text, "P{player}: ");
        write_deck(text, war.pile(player));
        text.push('\n');
    }
}

/// Plays `war` to the end, writing its `.debug` trace into `text`, and
/// returns the outcome.
///
/// # Errors
/// [`GameError::WarTie`] when the game ends in a tie (the format has no line
/// for it; the trace then stops after the last hand).
pub fn trace_war(mut war: War, text: &mut String) -> Result<WarOutcome, GameError> {
    write_war_piles(text, &war);
    text.push_str(WAR_RULE);
    loop {
        if let Some(outcome) = war.outcome() {
            match outcome {
                WarOutcome::AllCards { winner } => {
                    let _ = writeln!(text, "p{winner} won all the cards\n{winner}");
                }
                WarOutcome::MoreOfRank { winner, rank } => {
                    let _ = writeln!(text, "p{winner} had more {}s\n{winner}", rank.code());
                }
                WarOutcome::Tie => return Err(GameError::WarTie),
            }
            return Ok(outcome);
        }
        let fronts = [war.pile(1).front(), war.pile(2).front()];
        war.play_hand();
        for (player, card) in (1..=2).zip(fronts) {
            if let Some(card) = card {
                let _ = writeln!(text, "P{player} card: {card}");
            }
        }
        write_war_piles(text, &war);
        text.push_str(WAR_RULE);
    }
}

/// One Rolling Stone block; `held_back` is a card shown at the front of its
/// suit in `player`'s hand and missing from the table (the state between
/// taking the table and leading).
fn write_rolling_state(text: &mut String, game: &RollingStone, held_back: Option<(usize, Card)>) {
    for player in 0..game.players() {
        let _ = write!(text, "Player {player}: {{");
        for (i, suit) in Suit::ALL.into_iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "'{}': ", suit.code());
            let mut cards: Vec<Card> = game.hand(player, suit).iter().collect();
            if let Some((_, card)) = held_back.filter(|&(p, c)| p == player && c.suit == suit) {
                cards.insert(0, card);
            }
            write_list(text, &cards);
        }
        text.push_str("}\n");
    }
    text.push_str("Table: ");
    if held_back.is_some() {
        write_list(text, &[]);
    } else {
        write_table(text, game.table());
    }
    text.push('\n');
    text.push_str(ROLLING_RULE);
}

/// Plays `game` to the end (at most `turn_limit` turns in all), writing its
/// `.debug` trace into `text`, and returns the 0-based winner.
///
/// # Errors
/// [`GameError::TooLong`] at the turn limit; [`GameError::NoCards`] for a
/// game nobody can win.
pub fn trace_rolling_stone(
    mut game: RollingStone,
    turn_limit: u64,
    text: &mut String,
) -> Result<usize, GameError> {
    write_rolling_state(text, &game, None);
    while game.turns() < turn_limit {
        let Some(turn) = game.play_turn() else {
            break;
        };
        if game.winner().is_some() {
            break;
        }
        if let RollingTurn::TookAndLed { player, card, .. } = turn {
            write_rolling_state(text, &game, Some((player, card)));
        }
        write_rolling_state(text, &game, None);
    }
    let winner = game.winner().ok_or(if game.turns() >= turn_limit {
        GameError::TooLong {
            game: "rollingstone",
            turns: game.turns(),
        }
    } else {
        GameError::NoCards
    })?;
    let _ = writeln!(text, "{winner}");
    Ok(winner)
}

fn write_scarabs_state(text: &mut String, game: &Scarabs) {
    let _ = writeln!(
        text,
        "Before action: {}\nCurrent player: {}",
        u8::from(game.scarab_pending()),
        game.current_player()
    );
    text.push_str("Players in game: [");
    let holders: Vec<String> = (0..game.players())
        .filter(|&p| !game.pile(p).is_empty())
        .map(|p| p.to_string())
        .collect();
    text.push_str(&holders.join(", "));
    text.push_str("]\n");
    let _ = writeln!(
        text,
        "Direction: {}",
        if game.forward() { '+' } else { '-' }
    );
    for player in 0..game.players() {
        let _ = write!(text, "Player {player}: ");
        write_deck(text, game.pile(player));
        text.push('\n');
    }
    text.push_str("Table: ");
    write_table(text, game.table());
    // The reference shows 0 when no scarab is pending.
    let _ = writeln!(text, "\nTo win player: {}", game.claimant().unwrap_or(0));
    text.push_str(SCARABS_RULE);
}

/// Plays `game` to the end (at most `turn_limit` turns in all), writing its
/// `.debug` trace into `text`, and returns the 0-based winner.
///
/// # Errors
/// [`GameError::TooLong`] at the turn limit; [`GameError::NoCards`] for a
/// game nobody can win.
pub fn trace_scarabs(
    mut game: Scarabs,
    turn_limit: u64,
    text: &mut String,
) -> Result<usize, GameError> {
    write_scarabs_state(text, &game);
    while game.turns() < turn_limit && game.play_turn().is_some() {
        write_scarabs_state(text, &game);
    }
    let winner = game.winner().ok_or(if game.turns() >= turn_limit {
        GameError::TooLong {
            game: "scarabei",
            turns: game.turns(),
        }
    } else {
        GameError::NoCards
    })?;
    let _ = writeln!(text, "{winner}");
    Ok(winner)
}

/// The text of `out` and of the `.debug` trace of one homework run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traced {
    /// What [`super::run`] returns: the text of `out`.
    pub out: String,
    /// The `.debug` trace. For `amestecare` (which has no official trace) the
    /// deck after each shuffle, one list per line.
    pub debug: String,
}

impl Input {
    /// Like [`Input::run`], and also writes the game's `.debug` trace (see
    /// the module documentation for the format).
    ///
    /// # Errors
    /// As [`Input::run`].
    pub fn trace(&self) -> Result<Traced, HomeworkError> {
        let mut debug = String::new();
        let mut deck = Deck::standard();
        for (line, shuffle) in &self.shuffles {
            shuffle
                .apply(&mut deck)
                .map_err(|source| HomeworkError::Shuffle {
                    line: *line,
                    source,
                })?;
            if self.task == Task::Shuffle {
                write_deck(&mut debug, &deck);
                debug.push('\n');
            }
        }
        let out = match self.task {
            Task::Shuffle => deck.to_string(),
            Task::War => match trace_war(War::deal(deck), &mut debug)? {
                WarOutcome::AllCards { winner } => winner.to_string(),
                WarOutcome::MoreOfRank { winner, rank } => format!("{winner} {}", rank.code()),
                WarOutcome::Tie => return Err(GameError::WarTie.into()),
            },
            Task::RollingStone => (trace_rolling_stone(
                RollingStone::deal(deck),
                RollingStone::TURN_LIMIT,
                &mut debug,
            )? + 1)
                .to_string(),
            Task::Scarabs => (trace_scarabs(Scarabs::deal(deck), Scarabs::TURN_LIMIT, &mut debug)?
                + 1)
            .to_string(),
        };
        Ok(Traced {
            out: out + "\n",
            debug,
        })
    }
}

/// Parses the text of `in` and returns the texts of `out` and of its `.debug`
/// trace; see [`Input::parse`] and [`Input::trace`].
///
/// # Errors
/// Any [`HomeworkError`] of either step.
pub fn trace(in_text: &str) -> Result<Traced, HomeworkError> {
    Input::parse(in_text)?.trace()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(text: &str) -> Deck {
        text.parse().unwrap()
    }

    #[test]
    fn war_lists_the_first_cards_of_each_hand_and_the_piles_after_it() {
        // 5s-5h tie: one more card each (P2 has one left): 9c beats 2d.
        let mut text = String::new();
        let outcome = trace_war(War::new(deck("5s 9c Kd"), deck("5h 2d")), &mut text).unwrap();
        assert_eq!(outcome, WarOutcome::AllCards { winner: 1 });
        let rule = WAR_RULE;
        assert_eq!(
            text,
            format!(
                "P1: ['5s', '9c', 'Kd']\nP2: ['5h', '2d']\n{rule}\
                 P1 card: 5s\nP2 card: 5h\nP1: ['Kd', '9c', '5s', '2d', '5h']\nP2: []\n{rule}\
                 p1 won all the cards\n1\n"
            )
        );
    }

    #[test]
    fn rolling_stone_shows_a_take_and_the_lead_after_it_and_no_winning_card() {
        // 0 leads 2s; 1 has no spade: takes it, leads Kh; 2 has no heart:
        // takes it, leads 3s (clubs, diamonds empty); 0 plays 9s, his last
        // card, and wins: that card gets no block.
        let game = RollingStone::new(vec![deck("2s 9s"), deck("Kh"), deck("3s")]);
        let mut text = String::new();
        assert_eq!(trace_rolling_stone(game, 100, &mut text), Ok(0));
        let block = |hands: [&str; 3], table: &str| {
            let [a, b, c] = hands.map(|h| {
                let suit = |s: char| {
                    let cards: Vec<String> = h
                        .split_whitespace()
                        .filter(|c| c.ends_with(s))
                        .map(|c| format!("'{c}'"))
                        .collect();
                    format!("'{s}': [{}]", cards.join(", "))
                };
                format!(
                    "{{{}, {}, {}, {}}}",
                    suit('s'),
                    suit('h'),
                    suit('c'),
                    suit('d')
                )
            });
            format!("Player 0: {a}\nPlayer 1: {b}\nPlayer 2: {c}\nTable: {table}\n{ROLLING_RULE}")
        };
        let expected = [
            block(["2s 9s", "Kh", "3s"], "[]"),
            block(["9s", "Kh", "3s"], "['2s']"),
            block(["9s", "2s Kh", "3s"], "[]"),
            block(["9s", "2s", "3s"], "['Kh']"),
            block(["9s", "2s", "3s Kh"], "[]"),
            block(["9s", "2s", "Kh"], "['3s']"),
            "0\n".to_owned(),
        ]
        .concat();
        assert_eq!(text, expected);
    }

    #[test]
    fn scarabs_shows_the_claim_the_holders_and_the_direction() {
        let game = Scarabs::new(vec![deck("Qd"), deck("2c 3c")]);
        let mut text = String::new();
        assert_eq!(trace_scarabs(game, 100, &mut text), Ok(1));
        let rule = SCARABS_RULE;
        assert_eq!(
            text,
            format!(
                "Before action: 0\nCurrent player: 0\nPlayers in game: [0, 1]\nDirection: +\n\
                 Player 0: ['Qd']\nPlayer 1: ['2c', '3c']\nTable: []\nTo win player: 0\n{rule}\
                 Before action: 1\nCurrent player: 1\nPlayers in game: [1]\nDirection: +\n\
                 Player 0: []\nPlayer 1: ['2c', '3c']\nTable: ['Qd']\nTo win player: 0\n{rule}\
                 1\n"
            )
        );
    }

    #[test]
    fn amestecare_traces_the_deck_after_each_shuffle_and_out_matches_run() {
        let input = "amestecare\n2\ninversare\nmongean\n";
        let traced = trace(input).unwrap();
        assert_eq!(traced.out, super::super::run(input).unwrap());
        assert_eq!(traced.debug.lines().count(), 2);
        assert!(traced.debug.starts_with("['2d', '2c', "));
    }
}
