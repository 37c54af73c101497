//! Durak for two teams of two (`docs/rules/durak.md`): the rules engine, the protocol lines, the
//! bots and the referee used by `durak-server`.
//!
//! - [`cards`]: card indices and [`cards::CardSet`] bit masks.
//! - [`legal`]: the legal answers, one definition for the engine, tracker and policies.
//! - [`rules`]: [`Game`], the rules as a state machine in absolute numbering.
//! - [`seat`]: [`Seat`], turn order, partners, teams and relative numbering.
//! - [`protocol`]: information lines and commands, each receiver's relative numbering.
//! - [`bot`]: the bot side, [`DurakBot`] and its parts:
//!   - [`tracker`]: what one player knows, rebuilt from the lines.
//!   - [`strategy`]: random, greedy and heuristic policies.
//!   - [`search`]: determinized search with heuristic playouts (the previous contest bot).
//!   - [`endgame`]: exact solving of empty-talon positions with a transposition table.
//!   - [`deep`]: the contest search: determinizations, playouts, exact endgames.
//! - [`server`]: the server side:
//!   - [`referee`]: one refereed game over any [`referee::Player`]s.
//!   - [`process`]: a seat played by a program over pipes (feature `cli`).
//!   - [`tournament`]: many games, duplicate deals, the summary (feature `cli`).
//!
//! The parts are re-exported here under their former paths (`durak::tracker`, ...).

pub mod bot;
pub mod cards;
pub mod legal;
pub mod protocol;
pub mod rules;
pub mod seat;
pub mod server;

pub use bot::{deep, endgame, search, strategy, tracker};
pub use server::referee;
#[cfg(feature = "cli")]
pub use server::{process, tournament};

pub use bot::DurakBot;
pub use protocol::{Command, Info, Line};
pub use rules::{Answer, Event, Game, Pending};
pub use seat::Seat;
pub use strategy::Strategy;

use thiserror::Error;

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
