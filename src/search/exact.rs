//! Exact solving of a perfect-information position between two teams: boolean minimax with
//! alpha-beta's boolean form (a node is decided by the first child that decides it), a node
//! cap per call, a depth cap, and a transposition table of exact results.
//!
//! The table is indexed by the position's own 64-bit key (a fixed hash, never a random
//! hasher), so the same calls give the same results and the same node counts; it is kept
//! across calls (a position's value does not depend on how it was reached), and one solver
//! serves one game and one perspective.

use std::time::Instant;

/// Who decides a position ([`Position::to_move`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToMove {
    /// The game is over; `true` when the maximizing team won.
    Over(bool),
    /// The maximizing team moves: one winning move decides the position.
    Max,
    /// The minimizing team moves: one losing move (for the maximizer) decides it.
    Min,
}

/// A perfect-information position as the solver needs it (implemented by a game's adapter).
pub trait Position: Clone {
    /// A move.
    type Move: Copy;
    /// Scratch space the moves need to be applied (kept by the solver).
    type Scratch: Default;

    /// Who moves, or the result.
    fn to_move(&self) -> ToMove;
    /// A 64-bit key of everything that decides the position's future (its low bit is
    /// ignored).
    fn key(&self) -> u64;
    /// The legal moves into `out` (cleared by the solver), most promising first: the order
    /// decides how early the cut-offs come, never the result.
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// Plays `m`; `false` when it cannot be played (the move is skipped).
    fn play(&mut self, m: Self::Move, scratch: &mut Self::Scratch) -> bool;
}

/// The exact solver of positions `P`, with its transposition table.
#[derive(Clone)]
pub struct Solver<P: Position> {
    table: Vec<u64>,
    bits: u32,
    max_depth: usize,
    /// Nodes searched over the solver's life.
    pub visited: u64,
    /// Calls cut by the node cap, the depth cap or the clock.
    pub aborted: u64,
    /// Calls answered (from the table or by search).
    pub solved: u64,
    /// The clock's safety net: past this instant (polled every 1024 nodes) a call is cut
    /// like at the node cap. `None`: the caps only.
    pub deadline: Option<Instant>,
    /// Polled with the deadline: once it returns true a call is cut like at the node cap
    /// (a server's interruption). `None`: not polled.
    pub stop: Option<fn() -> bool>,
    scratch: P::Scratch,
    moves: Vec<Vec<P::Move>>,
}

impl<P: Position> std::fmt::Debug for Solver<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("slots", &self.table.len())
            .field("visited", &self.visited)
            .field("solved", &self.solved)
            .field("aborted", &self.aborted)
            .finish()
    }
}

impl<P: Position> Solver<P> {
    /// An empty solver with `2^bits` table slots (8 bytes each) that explores at most
    /// `max_depth` plies below the position of a call.
    pub fn new(bits: u32, max_depth: usize) -> Solver<P> {
        Solver {
            table: vec![0; 1 << bits],
            bits,
            max_depth,
            visited: 0,
            aborted: 0,
            solved: 0,
            deadline: None,
            stop: None,
            scratch: P::Scratch::default(),
            moves: Vec::new(),
        }
    }

    /// Forgets every stored result and statistic (a new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = 0);
        self.visited = 0;
        self.aborted = 0;
        self.solved = 0;
    }

    /// Whether the maximizing team wins `pos` with perfect play by everyone, searching at
    /// most `*nodes` new nodes (decremented). `None` when the node cap, the depth cap or the
    /// clock cut the call.
    pub fn solve(&mut self, pos: &P, nodes: &mut u64) -> Option<bool> {
        let v = self.node(pos, nodes, 0);
        if v.is_some() {
            self.solved += 1;
        } else {
            self.aborted += 1;
        }
        v
    }

    /// Plays `m` on a copy of `pos` with the solver's scratch space; `None` when it cannot
    /// be played.
    pub fn after(&mut self, pos: &P, m: P::Move) -> Option<P> {
        let mut next = pos.clone();
        next.play(m, &mut self.scratch).then_some(next)
    }

    fn probe(&self, k: u64) -> Option<bool> {
        let e = self.table[(k >> (64 - self.bits)) as usize];
        (e | 1 == k).then_some(e & 1 == 1)
    }

    fn store(&mut self, k: u64, v: bool) {
        self.table[(k >> (64 - self.bits)) as usize] = (k & !1) | u64::from(v);
    }

    fn node(&mut self, pos: &P, nodes: &mut u64, depth: usize) -> Option<bool> {
        let maximize = match pos.to_move() {
            ToMove::Over(won) => return Some(won),
            ToMove::Max => true,
            ToMove::Min => false,
        };
        let k = pos.key() | 1;
        if let Some(v) = self.probe(k) {
            return Some(v);
        }
        if *nodes == 0 || depth >= self.max_depth {
            return None;
        }
        if self.visited.is_multiple_of(1024)
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.is_some_and(|stop| stop()))
        {
            return None;
        }
        *nodes -= 1;
        self.visited += 1;
        if self.moves.len() <= depth {
            self.moves.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        moves.clear();
        pos.moves(&mut moves);
        let mut result = Some(!maximize);
        for &m in &moves {
            let Some(next) = self.after(pos, m) else {
                continue;
            };
            match self.node(&next, nodes, depth + 1) {
                Some(v) if v == maximize => {
                    result = Some(v);
                    break;
                }
                Some(_) => {}
                // An unknown child matters only if no other child decides the node.
                None => result = None,
            }
        }
        self.moves[depth] = moves;
        if let Some(v) = result {
            self.store(k, v);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim taking 1 to 3 sticks, the last stick wins, two teams of one player each moving in
    /// turn: the player to move wins exactly when the sticks are not a multiple of 4.
    #[derive(Debug, Clone)]
    struct Nim {
        sticks: u32,
        max_to_move: bool,
    }

    impl Position for Nim {
        type Move = u32;
        type Scratch = ();
        fn to_move(&self) -> ToMove {
            if self.sticks == 0 {
                // The previous mover took the last stick.
                ToMove::Over(!self.max_to_move)
            } else if self.max_to_move {
                ToMove::Max
            } else {
                ToMove::Min
            }
        }
        fn key(&self) -> u64 {
            let x = u64::from(self.sticks) << 1 | u64::from(self.max_to_move);
            x.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }
        fn moves(&self, out: &mut Vec<u32>) {
            out.extend((1..=3).filter(|&t| t <= self.sticks));
        }
        fn play(&mut self, m: u32, _: &mut ()) -> bool {
            self.sticks -= m;
            self.max_to_move = !self.max_to_move;
            true
        }
    }

    #[test]
    fn nim_is_won_exactly_off_multiples_of_four() {
        let mut solver = Solver::new(12, 200);
        for sticks in 0..60 {
            let pos = Nim {
                sticks,
                max_to_move: true,
            };
            let mut nodes = 1_000_000;
            let won = solver.solve(&pos, &mut nodes);
            assert_eq!(won, Some(sticks % 4 != 0), "{sticks} sticks");
        }
        assert_eq!(solver.solved, 60);
        assert_eq!(solver.aborted, 0);
    }

    #[test]
    fn the_table_answers_a_position_seen_before() {
        let mut solver = Solver::new(12, 200);
        let pos = Nim {
            sticks: 30,
            max_to_move: true,
        };
        let mut nodes = 1_000_000;
        solver.solve(&pos, &mut nodes);
        let spent = 1_000_000 - nodes;
        assert!(spent > 0);
        let mut again = 1_000_000;
        assert_eq!(solver.solve(&pos, &mut again), Some(true));
        assert_eq!(again, 1_000_000, "answered from the table");
    }

    #[test]
    fn caps_cut_a_call_without_storing_a_guess() {
        let mut solver = Solver::new(12, 200);
        let pos = Nim {
            sticks: 40,
            max_to_move: false,
        };
        let mut nodes = 3;
        assert_eq!(solver.solve(&pos, &mut nodes), None);
        assert_eq!(nodes, 0);
        let mut shallow = Solver::new(12, 5);
        assert_eq!(shallow.solve(&pos, &mut 1_000_000), None);
        // Uncapped, the cut calls left nothing wrong behind.
        assert_eq!(solver.solve(&pos, &mut 1_000_000), Some(true));
        assert_eq!(solver.aborted, 1);
    }
}
