//! Durak for two teams of two (`specs/durak.md`): the rules engine, the protocol lines, the
//! bots and the referee used by `durak-server`.
//!
//! - [`cards`]: card indices and [`cards::CardSet`] bit masks.
//! - [`rules`]: [`Game`], the rules as a state machine in absolute numbering.
//! - [`protocol`]: information lines and commands, each receiver's relative numbering.

pub mod cards;
pub mod protocol;
pub mod rules;

pub use rules::{Answer, Event, Game, Pending};

use thiserror::Error;

/// Errors of the Durak module.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DurakError {
    /// An answer the rules forbid (`specs/durak.md`, reading "Any incorrect answer").
    #[error("illegal answer: {0}")]
    Illegal(String),
    /// A protocol line that cannot be read.
    #[error("malformed line {0:?}")]
    Malformed(String),
}
