//! Exact solving of the empty-talon endgame (`docs/rules/durak.md` §2.7-2.8):
//! once the talon is empty every card's place is fixed, so a determinized position is a
//! perfect-information game that a team either wins or loses against perfect play.
//!
//! [`Solver`] runs a boolean team minimax (team 0 needs one winning answer at its decisions,
//! team 1 one losing answer at its own) with alpha-beta's boolean form (stop at the first answer
//! that decides the node), a node cap per call, a depth cap against take/take cycles, and a
//! transposition table of exact results that is kept across the decisions of a game (a
//! position's value does not depend on the determinization it was reached from).
//! Everything is deterministic: the table is indexed by a fixed hash, never by a random
//! hasher, so the same calls give the same results and the same node counts.

use std::time::Instant;

use crate::durak::cards::{value, CardSet};
use crate::durak::rules::{team, Answer, Event, Game, Pending};

/// Plies explored at most below the position being solved; deeper lines (only long take/take
/// sequences get there) abort the call like the node cap.
pub const MAX_DEPTH: usize = 160;

/// log2 of the number of transposition-table slots (2^20 slots of 8 bytes = 8 MiB, well inside
/// the statement's 128 MB memory limit).
pub const TT_BITS: u32 = 20;

/// The exact endgame solver with its transposition table (results for team 0, in the
/// absolute numbering of the games it is given; use one solver per game and perspective).
#[derive(Clone)]
pub struct Solver {
    table: Vec<u64>,
    /// Nodes visited over the solver's life (for statistics).
    pub visited: u64,
    /// Calls that hit the node or depth cap.
    pub aborted: u64,
    /// Calls answered (from the table or by search).
    pub solved: u64,
    /// The wall-clock safety net: past this instant (checked every 1024 nodes) a call is
    /// cut like at the node cap. `None`: no clock, only the caps.
    pub deadline: Option<Instant>,
    /// Polled with the deadline: once it returns true a call is cut like at the node cap (a
    /// server's interruption). `None`: not polled.
    pub stop: Option<fn() -> bool>,
    events: Vec<Event>,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("slots", &self.table.len())
            .field("visited", &self.visited)
            .field("solved", &self.solved)
            .field("aborted", &self.aborted)
            .finish()
    }
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser: a fixed, well-spread 64-bit mixing function.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A 64-bit key of everything that decides an empty-talon position's future: hands, who is
/// out, the next mover, the round on the table and the pending decision. (The round counter is
/// left out: it only matters at the 1000-round safety cap.)
pub fn key(g: &Game) -> u64 {
    let r = &g.round;
    let (kind, p) = match g.pending {
        Pending::Move(p) => (1u64, p),
        Pending::Beat(p) => (2, p),
        Pending::Add(p) => (3, p),
        Pending::Over(w) => (4, w.unwrap_or(2)),
    };
    let mut h = 0x2545_F491_4F6C_DD1Du64;
    for hand in g.hands {
        h = mix(h ^ hand.0);
    }
    let out = g
        .out
        .iter()
        .enumerate()
        .fold(0u64, |a, (i, &o)| a | (u64::from(o) << i));
    let open = r
        .open
        .map_or(63, |c| u64::from(crate::durak::cards::index(c)));
    let small = out
        | (g.mover_seat.index() as u64) << 4
        | (r.attacker_seat.index() as u64) << 6
        | (r.defender as u64) << 8
        | (r.attacks as u64) << 10
        | (r.limit as u64) << 14
        | u64::from(r.taking) << 18
        | (r.add_index as u64) << 19
        | open << 21
        | kind << 28
        | (p as u64) << 31
        | (g.trump.index() as u64) << 34;
    h = mix(h ^ r.table.0);
    mix(h ^ small) | 1
}

impl Solver {
    /// An empty solver.
    pub fn new() -> Solver {
        Solver {
            table: vec![0; 1 << TT_BITS],
            visited: 0,
            aborted: 0,
            solved: 0,
            deadline: None,
            stop: None,
            events: Vec::with_capacity(16),
        }
    }

    /// Forgets every stored result (a new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = 0);
        self.visited = 0;
        self.aborted = 0;
        self.solved = 0;
    }

    fn probe(&self, k: u64) -> Option<bool> {
        let e = self.table[(k >> (64 - TT_BITS)) as usize];
        (e | 1 == k).then_some(e & 1 == 1)
    }

    fn store(&mut self, k: u64, v: bool) {
        self.table[(k >> (64 - TT_BITS)) as usize] = (k & !1) | u64::from(v);
    }

    /// Whether team 0 wins `game` (talon empty) with perfect play by all four players, using at
    /// most `*nodes` new nodes (decremented). `None` when the cap or [`MAX_DEPTH`] is hit; a
    /// game stopped by the rules' round cap counts as not won.
    ///
    /// Positions with cards still in the talon are not perfect-information games: for them the
    /// result is `None` at once.
    pub fn solve(&mut self, game: &Game, nodes: &mut u64) -> Option<bool> {
        if !game.talon.is_empty() {
            return None;
        }
        let v = self.node(game, nodes, 0);
        if v.is_some() {
            self.solved += 1;
        } else {
            self.aborted += 1;
        }
        v
    }

    /// The value for team 0 of each answer in `answers` at `game` (each applied, then solved),
    /// sharing one node cap; `None` for an answer whose solve was cut.
    pub fn solve_answers(
        &mut self,
        game: &Game,
        answers: &[Answer],
        nodes: &mut u64,
    ) -> Vec<Option<bool>> {
        answers
            .iter()
            .map(|&a| {
                let mut g = game.clone();
                let mut ev = std::mem::take(&mut self.events);
                ev.clear();
                let ok = g.apply(a, &mut ev).is_ok();
                self.events = ev;
                if ok {
                    self.solve(&g, nodes)
                } else {
                    None
                }
            })
            .collect()
    }

    fn node(&mut self, game: &Game, nodes: &mut u64, depth: usize) -> Option<bool> {
        let p = match game.pending {
            Pending::Over(w) => return Some(w == Some(0)),
            Pending::Move(p) | Pending::Beat(p) | Pending::Add(p) => p,
        };
        let k = key(game);
        if let Some(v) = self.probe(k) {
            return Some(v);
        }
        if *nodes == 0 || depth >= MAX_DEPTH {
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
        let maximize = team(p) == 0;
        let mut moves = [Answer::No; 40];
        let n = ordered_answers(game, &mut moves);
        let mut result = Some(!maximize);
        for &a in &moves[..n] {
            let mut g = game.clone();
            let mut ev = std::mem::take(&mut self.events);
            ev.clear();
            let ok = g.apply(a, &mut ev).is_ok();
            self.events = ev;
            if !ok {
                continue;
            }
            match self.node(&g, nodes, depth + 1) {
                Some(v) if v == maximize => {
                    result = Some(v);
                    break;
                }
                Some(_) => {}
                None => {
                    // An unknown child only matters if no other child decides the node.
                    result = None;
                }
            }
        }
        // `result` is None only when no child decided the node and some child is unknown.
        if let Some(v) = result {
            self.store(k, v);
        }
        result
    }
}

/// The legal answers at `game`'s pending decision, most promising first (cheap ordering that
/// makes the boolean cut-offs come early): leads of low plain cards first and ranks held several
/// times before single ones; beats with the cheapest card first, taking last; throw-ins of
/// the cheapest cards first, declining last. Returns how many were written into `out`.
pub fn ordered_answers(game: &Game, out: &mut [Answer; 40]) -> usize {
    let trump = game.trump;
    let mut n = 0;
    let mut push_sorted = |set: CardSet, hand: CardSet, out: &mut [Answer; 40]| {
        let mut cards: [(i32, u8); 40] = [(0, 0); 40];
        let mut m = 0;
        for c in set.iter() {
            if m == 40 {
                break;
            }
            let same = hand.intersect(CardSet::from_iter([c]).rank_closure()).len() as i32;
            let key = 2 * i32::from(value(c, trump)) - 2 * (same - 1);
            cards[m] = (key, crate::durak::cards::index(c));
            m += 1;
        }
        cards[..m].sort_unstable();
        for &(_, i) in &cards[..m] {
            if n < 40 {
                out[n] = Answer::Card(crate::durak::cards::card_at(i));
                n += 1;
            }
        }
    };
    match game.pending {
        Pending::Move(p) => push_sorted(game.hands[p], game.hands[p], out),
        Pending::Beat(p) => {
            push_sorted(game.beaters(p), CardSet::EMPTY, out);
            if n < 40 {
                out[n] = Answer::No;
                n += 1;
            }
        }
        Pending::Add(p) => {
            push_sorted(game.throwable(p), CardSet::EMPTY, out);
            if n < 40 {
                out[n] = Answer::No;
                n += 1;
            }
        }
        Pending::Over(_) => {}
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_answers_are_exactly_the_legal_answers() {
        for seed in 0..200u64 {
            let (mut g, _) = Game::new(seed);
            let mut ev = Vec::new();
            while !g.is_over() {
                let mut legal = g.legal_answers();
                let mut out = [Answer::No; 40];
                let n = ordered_answers(&g, &mut out);
                let mut got = out[..n].to_vec();
                let ord = |a: &Answer| match a {
                    Answer::No => 99,
                    Answer::Card(c) => crate::durak::cards::index(*c),
                };
                legal.sort_by_key(ord);
                got.sort_by_key(ord);
                assert_eq!(got, legal, "seed {seed}");
                let a = legal[seed as usize % legal.len()];
                g.apply(a, &mut ev).unwrap();
            }
        }
    }
}
