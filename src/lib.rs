//! # cardgames
//!
//! Card games for coursework and game-playing bots, with a C ABI.
//!
//! | module | what |
//! |---|---|
//! | [`card`] | [`Card`], [`Rank`], [`Suit`]; the homework (`As`) and Durak (`AS`) notations |
//! | [`deck`] | [`Deck`], the hand-written singly linked list every pile is made of |
//! | [`shuffle`] | [`Shuffle`]: reverse, n-piles, interleave, Mongean |
//! | [`durak`] | Durak 2 vs 2: rules engine, protocol lines, tracker, bots (random, greedy, heuristic, determinized search), referee and tournaments |
//! | [`homework`] | War, Rolling Stone, Egyptian Scarabs and the checker's `in` -> `out` task |
//!
//! The rules come from `specs/homework.md` (and `specs/durak.md`) of the project's shared
//! specifications; each item's documentation names the section it follows.

#![warn(missing_docs)]

pub mod card;
pub mod deck;
pub mod durak;
pub mod homework;
pub mod shuffle;

pub use card::{Card, CardError, Notation, Rank, Suit};
pub use deck::Deck;
pub use shuffle::{Shuffle, ShuffleError};
