//! Coup, two players, under the "King of the Hill" arbiter (`docs/rules/coup.md`).
//!
//! - [`character`]: the five characters and their held / revealed codes;
//! - [`protocol`]: actions, blocks and replies as types, parsed from and
//!   formatted to the arbiter's codes, and the coin effects of a turn;
//! - [`engine`]: the rules as a state machine over typed answers, the one
//!   engine the arbiter, the search and the tests play through;
//! - [`rules`]: legal answers exactly as the arbiter computes them, and the
//!   arbiter's true state ([`Table`]) with every answer's effects;
//! - [`history`]: a history file read from one player's side (turns, claims,
//!   proofs, caught bluffs, lost cards);
//! - [`bot`]: the strategies and [`decide`], the pure decision function the
//!   `coup-bot` program and the C ABI wrap;
//! - [`opponent`]: the opponent's behaviour as counts and Bayesian rates;
//! - [`memory`]: those counts kept per opponent across games in the bot's folder;
//! - [`replica`]: the contest winner's decision rule, replicated;
//! - [`sparring`]: exploitable archetypes to spar against;
#![cfg_attr(
    feature = "cli",
    doc = " - [`arbiter`]: tournaments of external bot commands (or built-in strategies)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " - `arbiter`: tournaments of external bot commands (or built-in strategies)."
)]

pub mod bot;
pub mod game;
pub mod sparring;
#[cfg(feature = "cli")]
pub mod server;

// The parts under their former paths (`coup::engine`, `coup::opponent`, ...).
pub use bot::{memory, model, opponent};
pub use game::{character, engine, history, protocol, rules};
#[cfg(feature = "cli")]
pub use server::arbiter;
pub use sparring::replica;

use thiserror::Error;

pub use bot::{decide, decide_configured, decide_with, Decision, SearchConfig, Strategy};
pub use character::{format_hand, parse_hand, Character};
pub use history::{History, Record, Side, Turn};
pub use protocol::{effects, Action, Block, Reply};
pub use rules::{legal_answers, Call, Outcome, Table};

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
    #[error("unknown strategy {0:?} (known: search, strong, calculator, random, income, honest, challenger, tax-bluffer, always-tax, always-steal, always-assassinate, challenge-all, never-challenge, block-all)")]
    UnknownStrategy(String),
    /// A bad command-line argument.
    #[error("bad argument: {0}")]
    BadArgument(String),
}
