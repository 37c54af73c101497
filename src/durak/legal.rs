//! The legal-answer rules in one place (`docs/rules/durak.md` §2.2-2.3 and the readings §4.4
//! BEAT, §4.5 ADD, §4.6 limit and §4.10 incorrect answers), used by the engine ([`super::rules::Game`]),
//! the tracker ([`super::tracker::Tracker`]) and the policies ([`super::strategy::Ctx`]).
//!
//! - `MOVE`: any card in hand (never `NO`).
//! - `BEAT`: a card that beats the open card (a higher card of its suit, or a trump on a
//!   non-trump; a trump only by a higher trump), or `NO`.
//! - `ADD`: a card of a rank already on the table while the round holds fewer attack cards
//!   than its limit (min(6, cards the defender held at the round's start)), or `NO`.

use super::cards::{beats, CardSet};
use super::types::{Answer, Command, Round};
use crate::card::Suit;

/// The cards of `hand` that beat `open` (none when nothing is open).
pub fn beaters(hand: CardSet, open: Option<crate::card::Card>, trump: Suit) -> CardSet {
    match open {
        Some(open) => hand.iter().filter(|&c| beats(open, c, trump)).collect(),
        None => CardSet::EMPTY,
    }
}

/// The cards of `hand` that may be thrown into `round`: ranks on the table, while the round's
/// limit allows another attack card.
pub fn throwable(hand: CardSet, round: &Round) -> CardSet {
    if round.attacks >= round.limit {
        return CardSet::EMPTY;
    }
    hand.intersect(round.table.rank_closure())
}

/// The cards that answer `cmd` legally for a player holding `hand` with `round` on the
/// table (`NO` aside).
pub fn cards(cmd: Command, hand: CardSet, round: &Round, trump: Suit) -> CardSet {
    match cmd {
        Command::Move => hand,
        Command::Beat => beaters(hand, round.open, trump),
        Command::Add => throwable(hand, round),
    }
}

/// Every legal answer to `cmd` for a player holding `hand` with `round` on the table: the
/// cards in index order, then `NO` for `BEAT` and `ADD` (so `NO` is always offered where the
/// rules allow it, and a `MOVE` with an empty hand has no legal answer).
pub fn answers(cmd: Command, hand: CardSet, round: &Round, trump: Suit) -> Vec<Answer> {
    let mut v: Vec<Answer> = cards(cmd, hand, round, trump)
        .iter()
        .map(Answer::Card)
        .collect();
    if cmd != Command::Move {
        v.push(Answer::No);
    }
    v
}
