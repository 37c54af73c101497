//! The game of Coup itself, with no strategy in it (`docs/rules/coup.md`).
//!
//! - [`character`]: the five characters and their held / revealed codes;
//! - [`protocol`]: actions, blocks and replies as types, parsed from and
//!   formatted to the arbiter's codes, and the coin effects of a turn;
//! - [`engine`]: the rules as a state machine over typed answers, the one
//!   engine the arbiter, the search and the tests play through;
//! - [`rules`]: legal answers exactly as the arbiter computes them, and the
//!   arbiter's true state ([`rules::Table`]) with every answer's effects;
//! - [`history`]: a history file read from one player's side (turns, claims,
//!   proofs, caught bluffs, lost cards).

pub mod character;
pub mod engine;
pub mod history;
pub mod protocol;
pub mod rules;

use thiserror::Error;

/// Errors of the Coup module.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CoupError {
    /// A card code that is none of `~^*!$` (or `_'<=0` where held codes are expected).
    #[error("bad card code {0:?}")]
    BadCard(char),
    /// A history the protocol cannot produce.
    #[error("bad history: {0}")]
    BadHistory(String),
    /// An unknown strategy name.
    #[error("unknown strategy {0:?} (known: search, calculator, random, income, honest, challenger, tax-bluffer, always-tax, always-steal, always-assassinate, challenge-all, never-challenge, block-all)")]
    UnknownStrategy(String),
    /// A bad command-line argument.
    #[error("bad argument: {0}")]
    BadArgument(String),
}
