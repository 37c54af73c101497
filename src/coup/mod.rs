//! Coup, two players, under the "King of the Hill" arbiter (`specs/coup.md`).
//!
//! - [`character`]: the five characters and their held / revealed codes;
//! - [`rules`]: legal answers exactly as the arbiter computes them, and the
//!   arbiter's true state ([`Table`]) with every answer's effects;
//! - [`history`]: a history file read from one player's side (turns, claims,
//!   proofs, caught bluffs, lost cards);
//! - [`bot`]: the strategies and [`decide`], the pure decision function the
//!   `coup-bot` program and the C ABI wrap;
//! - [`arbiter`]: tournaments of external bot commands (or built-in strategies).

#[cfg(feature = "cli")]
pub mod arbiter;
pub mod bot;
pub mod character;
pub mod history;
pub mod model;
pub mod rules;

use thiserror::Error;

pub use bot::{decide, Decision, Strategy};
pub use character::{format_hand, parse_hand, Character};
pub use history::{History, Record, Side, Turn};
pub use rules::{legal_answers, Call, Outcome, Seat, Table};

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
    #[error("unknown strategy {0:?} (known: strong, calculator, random, income, honest, challenger, tax-bluffer)")]
    UnknownStrategy(String),
    /// A bad command-line argument.
    #[error("bad argument: {0}")]
    BadArgument(String),
}
