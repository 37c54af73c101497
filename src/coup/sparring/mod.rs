//! Opponents to spar against, on [`crate::coup::game`] alone:
//!
//! - [`archetypes`]: exploitable archetypes, each playing one simple idea;
//! - [`simple`]: the simple strategies (`random`, `income`, `honest`,
//!   `challenger`, `tax-bluffer`) on a narrow view of the seat
//!   ([`simple::Seat`]), the card values and the passive fallback answer;
//! - [`replica`]: the contest winner's decision rule, replicated;
//! - [`strategy`]: the `coup-bot` program's strategies by name and the
//!   sparring ones' answers.

pub mod archetypes;
pub mod replica;
pub mod simple;
pub mod strategy;

pub use archetypes::{answer, Archetype};
