//! The game's vocabulary: the commands, the answers, the public events, the round on the
//! table and the module's error (`docs/rules/durak.md` §2 and §3).
//!
//! A leaf among Durak's modules (it uses only [`super::cards`] and [`super::seat`]): the
//! rules engine ([`super::rules`]), the legality table ([`super::legal`]) and the wire format
//! ([`super::protocol`]) all take their types from here, so none of them imports another for
//! its types. The types are re-exported under their former paths (`rules::Answer`,
//! `protocol::Command`, ...).

use thiserror::Error;

use super::cards::CardSet;
use super::seat::Seat;
use crate::card::Card;

/// A command that requires an answer line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// `MOVE`: lead a card.
    Move,
    /// `BEAT`: beat the open card or `NO`.
    Beat,
    /// `ADD`: throw in a card or `NO`.
    Add,
}

/// An answer to a command: a card, or `NO` (refuse to beat / decline to throw in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Play this card.
    Card(Card),
    /// `NO`.
    No,
}

/// A public change of state, in absolute numbering (the protocol's information lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `player` drew `card` from the talon.
    Give {
        /// Who drew.
        player: usize,
        /// The card (shown only to its receiver).
        card: Card,
    },
    /// `by` led `card` under `under` (physical players).
    Move {
        /// The physical attacker.
        by: usize,
        /// The physical defender.
        under: usize,
        /// The card.
        card: Card,
    },
    /// `by` threw `card` in under `under`.
    Add {
        /// The physical thrower.
        by: usize,
        /// The physical defender.
        under: usize,
        /// The card.
        card: Card,
    },
    /// `by` beat the open card with `card`.
    Beat {
        /// The defender.
        by: usize,
        /// The beating card.
        card: Card,
    },
    /// `player` refused to beat and will take the table.
    Take {
        /// The defender.
        player: usize,
    },
    /// `player` has no cards left with the talon empty and left the game.
    Out {
        /// Who left.
        player: usize,
    },
}

/// The state of the current round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Round {
    /// The seat that attacks (its controller leads and throws in first).
    pub attacker_seat: Seat,
    /// The seat moved under (`attacker_seat + 1`).
    pub defender_seat: Seat,
    /// The physical defender (the controller of the defender seat at the round's start).
    pub defender: usize,
    /// The physical player who led the round; drawing starts with him (Rules, 6).
    pub first_attacker: usize,
    /// Every card on the table (attacks and beats).
    pub table: CardSet,
    /// The attack cards put under the defender so far.
    pub attacks: usize,
    /// The attack card the defender has yet to answer, if any.
    pub open: Option<Card>,
    /// The round's limit: min(6, cards the defender held at the round's start).
    pub limit: usize,
    /// Whether the defender has refused (said `NO` to `BEAT`).
    pub taking: bool,
    /// Position in [`Game::throwers`](super::rules::Game::throwers) of the player currently asked to throw in.
    pub add_index: usize,
}

/// Errors of the Durak module.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DurakError {
    /// An answer the rules forbid (`docs/rules/durak.md` §4.10).
    #[error("illegal answer: {0}")]
    Illegal(String),
    /// A protocol line that cannot be read.
    #[error("malformed line {0:?}")]
    Malformed(String),
}
