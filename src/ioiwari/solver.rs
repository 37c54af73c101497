//! The exact solver: memoised negamax over boards.
//!
//! A board's value is the final bank difference (the mover's stones minus the
//! opponent's) that the side to move obtains from it, both sides playing
//! optimally, counting only stones banked from now on. Banks only ever grow,
//! so the banks already filled add to it unchanged: the value depends on the
//! seven pits alone and is memoised on [`Board::code`] (`6^7` = 279,936
//! boards, one `i8` each, 273 KiB).
//!
//! Every move takes at least one stone off the board, so the game graph is
//! acyclic and the recursion is at most 35 deep.

use std::sync::OnceLock;

use super::rules::{Board, CODES, PITS};

const UNKNOWN: i8 = i8::MIN;

/// A lazily filled table of board values: solves only the boards a query
/// reaches, and remembers them for the next query.
#[derive(Debug, Clone)]
pub struct Solver {
    table: Vec<i8>,
    solved: usize,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// An empty table (273 KiB, all unknown).
    pub fn new() -> Solver {
        Solver {
            table: vec![UNKNOWN; CODES],
            solved: 0,
        }
    }

    /// A table with every board solved (about 280k boards).
    pub fn full() -> Solver {
        let mut solver = Solver::new();
        for code in 0..CODES {
            if solver.table[code] == UNKNOWN {
                // Every code is a valid board (pits 0..=5).
                if let Ok(board) = Board::from_code(code) {
                    solver.value(board);
                }
            }
        }
        solver
    }

    /// How many boards the table holds values for.
    pub fn solved(&self) -> usize {
        self.solved
    }

    /// The value of `board` for the side to move: the final difference
    /// (own bank minus opponent's) of the stones banked from here on under
    /// optimal play by both sides. 0 for the empty board.
    pub fn value(&mut self, board: Board) -> i32 {
        let code = board.code();
        let known = self.table[code];
        if known != UNKNOWN {
            return i32::from(known);
        }
        let mut best = i32::MIN;
        for pit in 0..PITS {
            if let Some(sow) = board.sow(pit) {
                let v = sow.net() - self.value(sow.board);
                best = best.max(v);
            }
        }
        if best == i32::MIN {
            best = 0; // the empty board: the game is over
        }
        // |value| <= stones on the board <= 35, so it fits an i8.
        self.table[code] = best as i8;
        self.solved += 1;
        best
    }

    /// Each move's value for the side to move: `values[i]` is the final bank
    /// difference after emptying pit index `i` and then optimal play, `None`
    /// for an empty pit.
    pub fn move_values(&mut self, board: Board) -> [Option<i32>; PITS] {
        let mut values = [None; PITS];
        for (pit, slot) in values.iter_mut().enumerate() {
            if let Some(sow) = board.sow(pit) {
                *slot = Some(sow.net() - self.value(sow.board));
            }
        }
        values
    }

    /// The lowest-numbered pit index among the moves of the best value;
    /// `None` on the empty board.
    pub fn best_move(&mut self, board: Board) -> Option<usize> {
        best_of(&self.move_values(board))
    }
}

/// The lowest index holding the maximum of `values`, ignoring `None`s.
fn best_of(values: &[Option<i32>; PITS]) -> Option<usize> {
    let mut best: Option<(usize, i32)> = None;
    for (pit, v) in values.iter().enumerate() {
        if let Some(v) = *v {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((pit, v));
            }
        }
    }
    best.map(|(pit, _)| pit)
}

/// A fully solved table, shared read-only; built on first use (about 40 ms in
/// a release build) by [`table`].
#[derive(Debug)]
pub struct SolvedTable {
    table: Vec<i8>,
}

impl SolvedTable {
    /// Solves every board.
    pub fn build() -> SolvedTable {
        SolvedTable {
            table: Solver::full().table,
        }
    }

    /// The value of `board` for the side to move (see [`Solver::value`]).
    pub fn value(&self, board: Board) -> i32 {
        i32::from(self.table[board.code()])
    }

    /// Each move's value for the side to move (see [`Solver::move_values`]).
    pub fn move_values(&self, board: Board) -> [Option<i32>; PITS] {
        let mut values = [None; PITS];
        for (pit, slot) in values.iter_mut().enumerate() {
            if let Some(sow) = board.sow(pit) {
                *slot = Some(sow.net() - self.value(sow.board));
            }
        }
        values
    }

    /// The lowest-numbered pit index among the best moves (see
    /// [`Solver::best_move`]).
    pub fn best_move(&self, board: Board) -> Option<usize> {
        best_of(&self.move_values(board))
    }
}

/// The process-wide fully solved table, built once on first call
/// (thread-safe).
pub fn table() -> &'static SolvedTable {
    static TABLE: OnceLock<SolvedTable> = OnceLock::new();
    TABLE.get_or_init(SolvedTable::build)
}
