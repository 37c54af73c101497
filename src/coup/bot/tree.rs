//! Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling,
//! Powley and Whitehouse 2012) on the one engine
//! ([`crate::coup::game::engine`]), for the search's `SearchConfig::tree`.
//!
//! Each iteration draws one world from my information state (the caller's
//! sampler: the opponent's hand from the hand posterior, the deck from the
//! cards left) and walks the tree from the root through the real turn
//! structure (action, block, challenge, reveal, the card given up):
//! - at my calls the tree's node is my information set (the answers made
//!   since the root; my cards are mine in every world), and an answer is
//!   chosen by UCB1 among those legal in this world, counting for each
//!   answer the iterations it was available (the subset-armed bandit of
//!   IS-MCTS: after a reveal my redrawn card differs between worlds);
//! - at the opponent's calls its answer is drawn from its learnt habits
//!   ([`Habits::learnt`]) given its cards in this world, so the tree is my
//!   best response to the model, not a guess at its reasoning;
//! - an Exchange keep is the rollout policy's ([`Policies::keep`]; the
//!   call that finishes an Exchange has one legal answer and is never
//!   searched).
//!
//! One node is added per iteration; from it the game is played out by the
//! rollout policies ([`Policies::playout`]) and cut at [`Limits::horizon`]
//! calls after the root's answer, valued by [`Policies::cut`]. Deterministic:
//! the worlds and the engine's shuffles come from the caller's seeded
//! generator, and the work is capped by [`Limits::iterations`] (the
//! clock's [`Limits::deadline`] is a safety net that a working machine
//! never reaches).

use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use crate::coup::game::character::Character;
use crate::coup::game::engine::{Cards, State};
use crate::coup::game::protocol::Reply;

/// What the tree needs of the search besides the engine: the opponent's
/// policy, the Exchange keep, the playout from a leaf and
/// the value at the horizon (the flat search's, in `bot/determinized.rs`).
pub(super) trait Policies {
    /// The opponent's answer at its call, given its cards in this world.
    fn opponent(&self, s: &State, legal: &[Reply], rng: &mut ChaCha8Rng) -> Reply;
    /// The hand kept from `pool` at an Exchange.
    fn keep(&self, pool: &[Character], size: usize) -> Cards;
    /// Plays the world on from a leaf; the value for the searching seat.
    /// The horizon counts the calls since call number `start`.
    fn playout(&self, s: &mut State, start: usize, rng: &mut ChaCha8Rng) -> f64;
    /// The value for the searching seat of a position cut at the horizon.
    fn cut(&self, s: &State) -> f64;
}

/// The tree's own parameters (`SearchConfig`'s `iterations` and
/// `horizon`, the fixed exploration constant).
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// Iterations, one world each.
    pub iterations: usize,
    /// UCB1's exploration constant.
    pub exploration: f64,
    /// Calls after the root's answer at which a walk is cut (0: never).
    pub horizon: usize,
    /// The clock's safety net ([`super::SearchConfig::clock_ms`]): no
    /// iteration starts after this instant.
    pub deadline: Option<Instant>,
}

/// An answer leaving a node, with my statistics when the node is mine.
struct Edge {
    reply: Reply,
    /// Index of the node it leads to (0: not expanded yet).
    child: usize,
    visits: u32,
    wins: f64,
    /// Iterations in which this answer was legal at the node.
    available: u32,
}

impl Edge {
    fn new(reply: Reply) -> Edge {
        Edge {
            reply,
            child: 0,
            visits: 0,
            wins: 0.0,
            available: 0,
        }
    }
}

/// Searches from the root answers `roots` of seat `me`, drawing worlds with
/// `world`. Returns each root's
/// total reward and visits, in the order of `roots`, and the iterations
/// played (fewer than the cap only when the clock's deadline passed).
pub(super) fn search(
    roots: &[Reply],
    me: usize,
    policies: &impl Policies,
    config: Limits,
    world: impl Fn(&mut ChaCha8Rng) -> State,
    rng: &mut ChaCha8Rng,
) -> (Vec<f64>, Vec<usize>, usize) {
    // Node 0 is the root; nodes[i] holds the answers leaving node i.
    let mut nodes: Vec<Vec<Edge>> = vec![roots.iter().map(|&r| Edge::new(r)).collect()];
    let mut path: Vec<(usize, usize)> = Vec::new();
    let mut played = 0;
    while played < config.iterations.max(1) {
        if played > 0 && config.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        played += 1;
        let mut s = world(rng);
        let root_calls = s.calls;
        let start = root_calls + 1;
        let mut node = 0;
        path.clear();
        let mut value = None;
        loop {
            if s.out_of_calls() {
                value = Some(0.0);
                break;
            }
            let seat = s.to_call();
            let mut keep = None;
            if s.exchange_due() {
                if !s.draw_exchange() {
                    value = Some(0.0);
                    break;
                }
                keep = Some(policies.keep(s.exchange_pool().as_slice(), s.hands[seat].len()));
            }
            let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
                value = Some(0.0);
                break;
            };
            let legal = legal.as_slice();
            let edges = &mut nodes[node];
            let e = if seat == me {
                if node != 0 {
                    for &r in legal {
                        if !edges.iter().any(|e| e.reply == r) {
                            edges.push(Edge::new(r));
                        }
                    }
                }
                let mut total = 0;
                for e in edges.iter_mut().filter(|e| legal.contains(&e.reply)) {
                    e.available += 1;
                    total += 1;
                }
                if total == 0 {
                    value = Some(0.0);
                    break;
                }
                choose(edges, legal, config.exploration)
            } else {
                let r = policies.opponent(&s, legal, rng);
                match edges.iter().position(|e| e.reply == r) {
                    Some(i) => i,
                    None => {
                        edges.push(Edge::new(r));
                        edges.len() - 1
                    }
                }
            };
            let edge = &nodes[node][e];
            let (reply, child) = (edge.reply, edge.child);
            if seat == me {
                path.push((node, e));
            }
            if let Some(end) = s.apply(reply, keep.as_ref().map(|k| k.as_slice()), rng) {
                value = Some(end.reward(me));
                break;
            }
            if child == 0 {
                // Expand one node and play the rest out.
                nodes.push(Vec::new());
                let n = nodes.len() - 1;
                nodes[node][e].child = n;
                break;
            }
            node = child;
            if config.horizon > 0 && s.calls - start >= config.horizon && !s.hands[0].is_empty() {
                value = Some(policies.cut(&s));
                break;
            }
        }
        let v = match value {
            Some(v) => v,
            None => policies.playout(&mut s, start, rng),
        };
        for &(n, e) in &path {
            let edge = &mut nodes[n][e];
            edge.visits += 1;
            edge.wins += v;
        }
    }
    let (wins, visits) = nodes[0].iter().map(|e| (e.wins, e.visits as usize)).unzip();
    (wins, visits, played)
}

/// UCB1 over the edges legal in this world: an untried one first (in the
/// order the answers were listed), else the highest
/// `wins/visits + c * sqrt(ln(available)/visits)`.
fn choose(edges: &[Edge], legal: &[Reply], c: f64) -> usize {
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, e) in edges.iter().enumerate() {
        if !legal.contains(&e.reply) {
            continue;
        }
        if e.visits == 0 {
            return i;
        }
        let n = e.visits as f64;
        let score = e.wins / n + c * ((e.available as f64).ln() / n).sqrt();
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}
