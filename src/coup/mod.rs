//! Coup, two players, under the "King of the Hill" arbiter (`docs/rules/coup.md`),
//! laid out like Durak (`tests/coup_modules.rs` checks the layering):
//!
//! - [`game`]: the game itself, no strategy in it:
//!   - [`character`]: the five characters and their held / revealed codes;
//!   - [`protocol`]: actions, blocks and replies as types, parsed from and
//!     formatted to the arbiter's codes, and the coin effects of a turn;
//!   - [`engine`]: the rules as a state machine over typed answers, the one
//!     engine the arbiter, the search and the tests play through;
//!   - [`rules`]: legal answers exactly as the arbiter computes them, and the
//!     arbiter's true state ([`Table`]) with every answer's effects;
//!   - [`history`]: a history file read from one player's side (turns, claims,
//!     proofs, caught bluffs, lost cards);
//! - [`sparring`]: opponents to spar against, on [`game`] alone: the
//!   archetypes, the simple strategies on a narrow view of the seat,
//!   [`replica`], the contest winner's decision rule, replicated, and the
//!   `coup-bot` program's strategies by name;
//! - [`measure`]: the kinds of decision the clairvoyant bound can be limited to;
#![cfg_attr(
    feature = "measure",
    doc = " - [`exploit`]: the best-response exploiter of `coup-bot` (feature `measure`);"
)]
#![cfg_attr(
    not(feature = "measure"),
    doc = " - `exploit`: the best-response exploiter of `coup-bot` (feature `measure`);"
)]
//! - [`bot`]: the strategies and [`decide`], the pure decision function the
//!   `coup-bot` program and the C ABI wrap, with the seat's view, the hand
//!   posterior ([`model`]), the opponent's behaviour as counts
//!   and Bayesian rates ([`opponent`]), those counts kept per opponent across
//!   games ([`memory`]), and the search;
#![cfg_attr(
    feature = "cli",
    doc = " - [`server`]: [`arbiter`], tournaments of external bot commands (or built-in strategies)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " - `server`: `arbiter`, tournaments of external bot commands (or built-in strategies) (feature `cli`)."
)]
//!
//! The parts are re-exported here under their former paths (`coup::engine`,
//! `coup::opponent`, `coup::replica`, ...); inside Coup, import from the
//! defining module.

pub mod bot;
#[cfg(feature = "measure")]
pub mod exploit;
pub mod game;
pub mod measure;
#[cfg(feature = "cli")]
pub mod server;
pub mod sparring;

// The parts under their former paths (`coup::engine`, `coup::opponent`, ...).
pub use bot::{known, memory, model, opponent};
pub use game::{character, engine, history, protocol, rules};
#[cfg(feature = "cli")]
pub use server::arbiter;
pub use sparring::replica;

pub use bot::{
    decide, Config, Decision, Past, Recall, Remembered, SearchConfig, Strategy, View, SEARCH_KEYS,
};
pub use character::{format_hand, parse_hand, Character};
pub use game::CoupError;
pub use history::{History, Record, Side, Turn};
pub use protocol::{effects, Action, Block, Reply};
pub use rules::{legal_answers, Call, Outcome, Table};
