//! Opponents to spar against: exploitable archetypes and simple strategies
//! ([`archetypes`]), and the contest winner's decision rule, replicated
//! ([`replica`]).

pub mod archetypes;
pub mod replica;

pub use archetypes::{answer, Archetype};
