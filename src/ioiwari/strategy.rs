//! Players that choose a move on a board: the optimal one (exact solver), a
//! uniformly random one and a one-step greedy one (the last two are test
//! opponents that should lose or draw most starts against an optimal player).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rules::Board;
use super::solver::Solver;

/// How a [`Player`] chooses its move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Strategy {
    /// A move of the best game-theoretic value (the lowest pit among ties).
    Optimal,
    /// A legal move chosen uniformly at random (seeded).
    Random,
    /// The move with the largest immediate bank difference for the mover
    /// (stones banked minus stones given away), the lowest pit among ties;
    /// it does not look at the opponent's reply.
    Greedy,
}

/// A player: a strategy, the solver's table it fills lazily, and its seeded
/// random number generator.
#[derive(Debug, Clone)]
pub struct Player {
    strategy: Strategy,
    solver: Solver,
    rng: ChaCha8Rng,
}

impl Player {
    /// A player with an empty (lazily filled) table; `seed` drives
    /// [`Strategy::Random`].
    pub fn new(strategy: Strategy, seed: u64) -> Player {
        Player {
            strategy,
            solver: Solver::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A player whose table is solved in full up front (about 280k boards)
    /// instead of lazily.
    pub fn with_full_table(strategy: Strategy, seed: u64) -> Player {
        Player {
            solver: Solver::full(),
            ..Player::new(strategy, seed)
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Solves every board reachable from `board` (for the optimal strategy),
    /// so later moves are table look-ups; returns the board's value for the
    /// side to move.
    pub fn prepare(&mut self, board: Board) -> i32 {
        self.solver.value(board)
    }

    /// The 0-based pit index to empty; `None` when the board is empty.
    pub fn choose(&mut self, board: Board) -> Option<usize> {
        match self.strategy {
            Strategy::Optimal => self.solver.best_move(board),
            Strategy::Random => {
                let moves: Vec<usize> = board.moves().collect();
                if moves.is_empty() {
                    None
                } else {
                    Some(moves[self.rng.random_range(0..moves.len())])
                }
            }
            Strategy::Greedy => {
                let mut best: Option<(usize, i32)> = None;
                for pit in board.moves() {
                    if let Some(sow) = board.sow(pit) {
                        if best.is_none_or(|(_, b)| sow.net() > b) {
                            best = Some((pit, sow.net()));
                        }
                    }
                }
                best.map(|(pit, _)| pit)
            }
        }
    }
}
