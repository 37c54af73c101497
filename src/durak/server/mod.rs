//! The server side: one refereed game, seats played by programs, tournaments.
//!
//! - [`referee`]: one refereed game over any [`referee::Player`]s.
//! - [`process`]: a seat played by a program over pipes (feature `cli`).
//! - [`tournament`]: many games, duplicate deals, the summary (feature `cli`).

#[cfg(feature = "cli")]
pub mod process;
pub mod referee;
#[cfg(feature = "cli")]
pub mod tournament;
