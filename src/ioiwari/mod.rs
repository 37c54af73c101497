//! Ioiwari (IOI 2001): a Mancala game on seven pits, its exact solver, the
//! players and a referee for the IOI's stdin/stdout protocol
//! (`docs/rules/ioiwari.md`).
//!
//! | file | what |
//! |---|---|
//! | [`rules`] | [`Board`], the sowing move [`Board::sow`], [`Game`] with its banks |
//! | [`solver`] | [`Solver`] (memoised negamax, lazy) and the shared fully solved [`table`] |
//! | [`protocol`] | the start line and move lines of the protocol |
//! | [`strategy`] | [`Player`]: optimal, random or one-step greedy |
#![cfg_attr(
    feature = "cli",
    doc = " | [`referee`] | plays two programs against each other and checks every move |"
)]
#![cfg_attr(
    not(feature = "cli"),
    doc = " | `referee` | plays two programs against each other and checks every move |"
)]
//!
//! The plain functions [`value`], [`move_values`] and [`best_move`] answer
//! from the process-wide solved table; they are what a C wrapper calls.

pub mod protocol;
#[cfg(feature = "cli")]
pub mod referee;
pub mod rules;
pub mod solver;
pub mod strategy;

use thiserror::Error;

pub use rules::{Board, Game, Seat, Sow, PITS};
pub use solver::{table, SolvedTable, Solver};
pub use strategy::{Player, Strategy};

/// Everything that can be wrong with a board, a move or a protocol line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IoiwariError {
    /// A pit holds more than 5 stones, which no game can reach.
    #[error("pit {pit} holds {stones} stones, at most 5 are possible")]
    TooManyStones {
        /// 1-based pit number.
        pit: usize,
        /// Its stones.
        stones: u8,
    },
    /// Not a legal start (each pit 2..4 stones, 20 in all).
    #[error("not a legal start: {0}")]
    BadStart(String),
    /// A board code outside `0..6^7`.
    #[error("board code {0} is out of range 0..279936")]
    BadCode(usize),
    /// A move asked for after every pit is empty.
    #[error("the game is over: every pit is empty")]
    GameOver,
    /// A pit number outside 1..=7.
    #[error("pit {0} does not exist (pits are numbered 1 to 7)")]
    NoSuchPit(u64),
    /// The chosen pit (1-based) holds no stone.
    #[error("pit {0} is empty")]
    EmptyPit(usize),
    /// A move line that is not one integer.
    #[error("expected a pit number 1..7, got {0:?}")]
    BadMoveLine(String),
    /// A start line that is not seven integers.
    #[error("expected seven stone counts, got {0:?}")]
    BadStartLine(String),
}

/// The value of the board `pits` (index `i` = pit number `i + 1`) for the side
/// to move, with empty banks: the final bank difference (own minus opponent's)
/// under optimal play by both sides. Positive means the side to move wins.
/// For a legal start this is player 1's winning margin.
///
/// Answers from the shared table (solved on first use, about 40 ms).
///
/// # Errors
/// [`IoiwariError::TooManyStones`] if a pit holds more than 5.
pub fn value(pits: [u8; PITS]) -> Result<i32, IoiwariError> {
    Ok(table().value(Board::new(pits)?))
}

/// Each move's value for the side to move (see [`value`]): element `i` is the
/// final bank difference after emptying pit index `i` (pit number `i + 1`) and
/// then optimal play; `None` for an empty pit.
///
/// # Errors
/// [`IoiwariError::TooManyStones`] if a pit holds more than 5.
pub fn move_values(pits: [u8; PITS]) -> Result<[Option<i32>; PITS], IoiwariError> {
    Ok(table().move_values(Board::new(pits)?))
}

/// A best move for the side to move on `pits`: the **0-based** index of the
/// pit to empty (the protocol's pit number is this plus 1); the lowest such
/// index when several moves share the best value. `Ok(None)` when every pit is
/// empty (the game is over).
///
/// # Errors
/// [`IoiwariError::TooManyStones`] if a pit holds more than 5.
pub fn best_move(pits: [u8; PITS]) -> Result<Option<usize>, IoiwariError> {
    Ok(table().best_move(Board::new(pits)?))
}
