//! Exact solving of the empty-talon endgame (`docs/rules/durak.md` §2.7-2.8): once the talon
//! is empty every card's place is fixed, so a determinized position is a perfect-information
//! game that a team either wins or loses against perfect play.
//!
//! The solver is the shared one ([`crate::search::exact`]: boolean two-team minimax, node and
//! depth caps, a transposition table kept over the game, the clock as a safety net); this
//! module is its Durak adapter: [`Game`] as an [`exact::Position`] (team 0 maximizes, the
//! fixed [`key`], the moves in [`ordered_answers`]'s order) and [`Solver`], which refuses a
//! position with cards in the talon. Everything is deterministic: the same calls give the
//! same results and the same node counts.

use crate::durak::cards::{value, CardSet};
use crate::durak::rules::{team, Answer, Event, Game, Pending};
use crate::search::exact::{self, Position, ToMove};

/// Plies explored at most below the position being solved; deeper lines (only long take/take
/// sequences get there) abort the call like the node cap.
pub const MAX_DEPTH: usize = 160;

/// log2 of the number of transposition-table slots (2^20 slots of 8 bytes = 8 MiB, well inside
/// the statement's 128 MB memory limit).
pub const TT_BITS: u32 = 20;

impl Position for Game {
    type Move = Answer;
    type Scratch = Vec<Event>;

    fn to_move(&self) -> ToMove {
        match self.pending {
            Pending::Over(w) => ToMove::Over(w == Some(0)),
            Pending::Move(p) | Pending::Beat(p) | Pending::Add(p) if team(p) == 0 => ToMove::Max,
            _ => ToMove::Min,
        }
    }

    fn key(&self) -> u64 {
        key(self)
    }

    fn moves(&self, out: &mut Vec<Answer>) {
        let mut moves = [Answer::No; 40];
        let n = ordered_answers(self, &mut moves);
        out.extend_from_slice(&moves[..n]);
    }

    fn play(&mut self, m: Answer, scratch: &mut Vec<Event>) -> bool {
        scratch.clear();
        self.apply(m, scratch).is_ok()
    }
}

/// The exact endgame solver for team 0 with its transposition table (one per game and
/// perspective, in the absolute numbering of the games it is given): the shared
/// [`exact::Solver`] (its fields and `clear` through `Deref`), [`MAX_DEPTH`] plies and
/// 2^[`TT_BITS`] slots.
#[derive(Debug, Clone)]
pub struct Solver(exact::Solver<Game>);

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl std::ops::Deref for Solver {
    type Target = exact::Solver<Game>;
    fn deref(&self) -> &exact::Solver<Game> {
        &self.0
    }
}

impl std::ops::DerefMut for Solver {
    fn deref_mut(&mut self) -> &mut exact::Solver<Game> {
        &mut self.0
    }
}

impl Solver {
    /// An empty solver.
    pub fn new() -> Solver {
        Solver(exact::Solver::new(TT_BITS, MAX_DEPTH))
    }

    /// Whether team 0 wins `game` (talon empty) with perfect play by all four players, using at
    /// most `*nodes` new nodes (decremented). `None` when a cap or the clock cut the call; a
    /// game stopped by the rules' round cap counts as not won.
    ///
    /// Positions with cards still in the talon are not perfect-information games: for them the
    /// result is `None` at once.
    pub fn solve(&mut self, game: &Game, nodes: &mut u64) -> Option<bool> {
        if !game.talon.is_empty() {
            return None;
        }
        self.0.solve(game, nodes)
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
                let g = self.0.after(game, a)?;
                self.solve(&g, nodes)
            })
            .collect()
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
