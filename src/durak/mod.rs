//! Durak for two teams of two (`docs/rules/durak.md`): the rules engine, the protocol lines, the
//! bots and the referee used by `durak-server`.
//!
//! - [`types`]: the game's vocabulary ([`Command`], [`Answer`], [`Event`], [`rules::Round`],
//!   [`DurakError`]), a leaf module that the engine, the legality table and the protocol
//!   share (none of the three imports another's types).
//! - [`cards`]: card indices and [`cards::CardSet`] bit masks.
//! - [`legal`]: the legal answers, one definition for the engine, tracker and policies.
//! - [`rules`]: [`Game`], the rules as a state machine in absolute numbering.
//! - [`seat`]: [`Seat`], turn order, partners, teams and relative numbering.
//! - [`protocol`]: information lines and commands, each receiver's relative numbering.
//! - [`bot`]: the bot side, [`DurakBot`] and its parts:
//!   - [`tracker`]: what one player knows, rebuilt from the lines.
//!   - [`sample`]: determinizations from what it knows and believes.
//!   - [`strategy`]: random, greedy and heuristic policies.
//!   - [`endgame`]: exact solving of empty-talon positions with a transposition table.
//!   - [`deep`]: the contest search: determinizations, playouts, exact endgames.
//! - [`server`]: the server side:
//!   - [`referee`]: one refereed game over any [`referee::Player`]s.
#![cfg_attr(
    feature = "cli",
    doc = "   - [`process`]: a seat played by a program over pipes (feature `cli`)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = "   - `process`: a seat played by a program over pipes (feature `cli`)."
)]
#![cfg_attr(
    feature = "cli",
    doc = "   - [`tournament`]: many games, duplicate deals, the summary (feature `cli`)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = "   - `tournament`: many games, duplicate deals, the summary (feature `cli`)."
)]
//!
//! The parts are re-exported here under their former paths (`durak::tracker`, ...).

#[macro_use]
pub mod bot;
pub mod cards;
pub mod legal;
pub mod protocol;
pub mod rules;
pub mod seat;
pub mod server;
pub mod types;

#[cfg(feature = "measure")]
pub mod measure;
pub use bot::{deep, endgame, sample, strategy, tracker};
pub use server::referee;
#[cfg(feature = "cli")]
pub use server::{audit, process, tournament};

pub use bot::DurakBot;
pub use protocol::{Command, Info, Line};
pub use rules::{Answer, Event, Game, Pending};
pub use seat::Seat;
pub use strategy::Strategy;
pub use types::DurakError;
