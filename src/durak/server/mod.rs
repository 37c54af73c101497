//! The server side: one refereed game, seats played by programs, tournaments.
//!
//! - [`referee`]: one refereed game over any [`referee::Player`]s.
#![cfg_attr(
    feature = "cli",
    doc = " - [`audit`]: the belief audit, beliefs scored against the true deal (feature `cli`)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " - `audit`: the belief audit, beliefs scored against the true deal (feature `cli`)."
)]
#![cfg_attr(
    feature = "cli",
    doc = " - [`belief`]: how well a belief about the hidden cards predicts them (feature `cli`)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " - `belief`: how well a belief about the hidden cards predicts them (feature `cli`)."
)]
#![cfg_attr(
    feature = "cli",
    doc = " - [`process`]: a seat played by a program over pipes (feature `cli`)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " - `process`: a seat played by a program over pipes (feature `cli`)."
)]
#![cfg_attr(
    feature = "cli",
    doc = " - [`tournament`]: many games, duplicate deals, the summary (feature `cli`)."
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " - `tournament`: many games, duplicate deals, the summary (feature `cli`)."
)]

#[cfg(feature = "cli")]
pub mod audit;
#[cfg(feature = "cli")]
pub mod belief;
#[cfg(feature = "cli")]
pub mod process;
pub mod referee;
#[cfg(feature = "cli")]
pub mod tournament;
