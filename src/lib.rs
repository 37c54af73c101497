//! # cardgames
//!
//! Card games for coursework and game-playing bots, with a C ABI.
//!
//! | module | what |
//! |---|---|
//! | [`card`] | [`Card`], [`Rank`], [`Suit`]; the homework (`As`) and Durak (`AS`) notations |
//! | [`deck`] | [`Deck`], the hand-written singly linked list every pile is made of |
//! | [`shuffle`] | [`Shuffle`]: reverse, n-piles, interleave, Mongean |
//! | [`coup`] | Coup under the King-of-the-Hill arbiter: rules, history files, bots, tournaments |
//! | [`durak`] | Durak 2 vs 2: rules engine, protocol lines, tracker, bots (random, greedy, heuristic, determinized search), referee and tournaments |
//! | [`homework`] | War, Rolling Stone, Egyptian Scarabs and the checker's `in` -> `out` task |
//! | [`ioiwari`] | Ioiwari (IOI 2001): rules, exact solver, players, referee |
//! | [`search`] | game-agnostic search both contest bots use: flat determinized evaluation, information-set MCTS, exact two-team minimax, work caps |
//! | [`stats`] | the Wilson interval every tournament reports |
//! | `play` | a person against the bots in a terminal or a browser, `cardgames-play` (feature `cli`) |
//! | `report` | tournament reports and replay pages as static HTML, shards and their merge (feature `cli`) |
//! | [`ffi`] | the C ABI of `include/cardgames.h` (the only module with `unsafe`) |
//!
//! The rules are written down in the project's own words in `docs/rules/`
//! (`homework.md`, `durak.md`, `ioiwari.md`, `coup.md`, numbered sections);
//! each item's documentation names the section it follows.

#![warn(missing_docs)]
#![deny(unsafe_code)]

/// `eprintln!` for the programs: writes one line to stderr and ignores a failed write (a
/// closed pipe, a full disk), where `eprintln!` panics. A bot says why on stderr and must
/// still answer on stdout; a server that cannot report an error still exits with its status.
#[macro_export]
macro_rules! diag {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stderr(), $($arg)*);
    }};
}

pub mod card;
#[cfg(feature = "cli")]
pub mod child;
pub mod coup;
pub mod deck;
pub mod durak;
pub mod ffi;
pub mod homework;
pub mod ioiwari;
#[cfg(feature = "cli")]
pub mod play;
pub mod quote;
#[cfg(feature = "cli")]
pub mod report;
pub mod search;
pub mod shuffle;
pub mod stats;

pub use card::{Card, CardError, Notation, Rank, Suit};
pub use deck::Deck;
pub use shuffle::{Shuffle, ShuffleError};
