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
