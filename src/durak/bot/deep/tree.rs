//! Information-set trees for the deep search, one below each root answer: single-observer ISMCTS
//! (Cowling, Powley and Whitehouse 2012) rooted at the bot's information set.
//!
//! A node stands for a sequence of answers from the root (who answered what), never for a
//! determinized state: every iteration brings its own determinization, descends the tree
//! with the answers legal in that determinization, and backs the result up the path, so the
//! statistics of a node average over every determinization that reached it. Our team's
//! decisions (ours and the partner's) choose by UCB1 with availability counts (an edge's
//! exploration term counts the iterations in which its answer was legal, not the visits of
//! its node); the opponents' decisions follow the playout policy of the determinization
//! (their answers are edges of the tree like ours, so what follows them is kept apart),
//! unless [`SearchSettings::tree_opp`](super::SearchSettings::tree_opp) lets them choose by UCB1 for their team too (by default,
//! each opponent seen breaking the rules the playout policy assumes). Every
//! iteration adds at most one node and evaluates the position reached like the flat search
//! evaluates an answer: heuristic playout to the empty talon, then the exact solver.
//!
//! What is left of the determinizations' clairvoyance: the evaluation below a tree's leaves
//! (the playout policy and the solver see the determinized cards), and the nodes' keys,
//! which are the answers only (cards the bot draws differ between determinizations and are
//! not part of the key; the availability counts absorb the answers they make legal or not).

use rand::{Rng, RngExt};

use super::config::DeepConfig;
use super::eval::{eval_score, evaluate};
use crate::durak::bot::endgame::Solver;
use crate::durak::bot::strategy::{heuristic_with, Ctx, HeuristicParams};
use crate::durak::rules::{team, Answer, Event, Game};

/// No child node yet.
const NONE: u32 = u32::MAX;

/// One answer out of a node: who answered, what, and the results of the iterations through
/// it (team 0's score on the 0..=6 scale of the flat search).
#[derive(Debug, Clone, Copy)]
struct Edge {
    player: u8,
    answer: Answer,
    child: u32,
    visits: u32,
    avail: u32,
    sum: u64,
}

/// A tree of answer sequences; node 0 is the first root.
#[derive(Debug, Default)]
pub(super) struct Tree {
    nodes: Vec<Vec<Edge>>,
    /// The last iteration's path (node, edge), kept for its allocation.
    path: Vec<(u32, usize)>,
}

/// What one iteration needs besides the tree.
pub(super) struct Iteration<'a> {
    /// The search's settings.
    pub cfg: &'a DeepConfig,
    /// The opponents' policy in this determinization.
    pub opp: &'a HeuristicParams,
    /// The players whose decisions choose by UCB1 although they are opponents
    /// ([`SearchSettings::tree_opp`](super::SearchSettings::tree_opp)).
    pub searching: [bool; 4],
    /// The exact solver (its table shared with the rest of the game).
    pub solver: &'a mut Solver,
    /// Node cap of an exact solve of a leaf with few cards (as the flat search's root solve).
    pub root_cap: u64,
    /// Scratch space for [`Game::apply`].
    pub events: &'a mut Vec<Event>,
}

impl Tree {
    /// A new root node; returns its index.
    pub fn add_root(&mut self) -> u32 {
        self.nodes.push(Vec::new());
        (self.nodes.len() - 1) as u32
    }

    fn edge(&self, node: u32, player: usize, answer: Answer) -> Option<usize> {
        self.nodes[node as usize]
            .iter()
            .position(|e| usize::from(e.player) == player && e.answer == answer)
    }

    fn push_edge(&mut self, node: u32, player: usize, answer: Answer) -> usize {
        let edges = &mut self.nodes[node as usize];
        edges.push(Edge {
            player: player as u8,
            answer,
            child: NONE,
            visits: 0,
            avail: 0,
            sum: 0,
        });
        edges.len() - 1
    }

    /// The child of `node` through edge `e`, made if missing.
    fn child(&mut self, node: u32, e: usize) -> u32 {
        let c = self.nodes[node as usize][e].child;
        if c != NONE {
            return c;
        }
        self.nodes.push(Vec::new());
        let c = (self.nodes.len() - 1) as u32;
        self.nodes[node as usize][e].child = c;
        c
    }

    /// One iteration from `node`, whose position in this determinization is `game`: descends,
    /// adds at most one node, evaluates the position reached and backs the score up. Returns
    /// team 0's score (0..=6) and the work spent (one unit per answer applied in the tree,
    /// plus the evaluation's playout steps and solver nodes).
    pub fn iterate<R: Rng + ?Sized>(
        &mut self,
        node: u32,
        mut game: Game,
        it: &mut Iteration<'_>,
        rng: &mut R,
    ) -> (u8, u64) {
        let cfg = it.cfg;
        let mut work = 0u64;
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut node = node;
        let mut depth = 0usize;
        let score = loop {
            let Some((cmd, ctx)) = Ctx::from_game(&game) else {
                break if game.winner() == Some(0) { 6 } else { 0 };
            };
            let p = ctx.me;
            let hp = if team(p) == 0 { &cfg.heuristic } else { it.opp };
            // The answers are listed only where the tree may branch; the policy's answer
            // elsewhere is checked directly (a playout step's cost).
            let may_branch = team(p) == 0 || it.searching[p];
            let legal = if may_branch {
                game.legal_answers()
            } else {
                Vec::new()
            };
            let branching = may_branch && legal.len() > 1;
            if branching && depth >= cfg.tree_depth {
                break self.leaf(game, it, &mut work);
            }
            let (e, fresh) = if branching {
                depth += 1;
                self.select(node, p, &legal, hp, cmd, &ctx, cfg.ucb_c, rng)
            } else {
                let mut a = heuristic_with(hp, cmd, &ctx);
                if !game.is_legal(a) {
                    a = game.legal_answers().first().copied().unwrap_or(Answer::No);
                }
                match self.edge(node, p, a) {
                    Some(e) => (e, false),
                    None => (self.push_edge(node, p, a), true),
                }
            };
            let a = self.nodes[node as usize][e].answer;
            it.events.clear();
            if game.apply(a, it.events).is_err() {
                break self.leaf(game, it, &mut work);
            }
            work += 1;
            path.push((node, e));
            let next = self.child(node, e);
            node = next;
            if fresh {
                break self.leaf(game, it, &mut work);
            }
        };
        for &(n, e) in &path {
            let edge = &mut self.nodes[n as usize][e];
            edge.visits += 1;
            edge.sum += u64::from(score);
        }
        self.path = path;
        (score, work)
    }

    /// The evaluation of a leaf position (see [`evaluate`]).
    fn leaf(&self, game: Game, it: &mut Iteration<'_>, work: &mut u64) -> u8 {
        if let Some(w) = game.winner() {
            return if w == 0 { 6 } else { 0 };
        }
        let (e, w) = evaluate(it.cfg, it.opp, it.solver, game, it.root_cap, it.events);
        *work += w;
        eval_score(&e)
    }

    /// UCB1 with availability at a decision of `player` with answers `legal`: an answer not
    /// yet tried from this node comes first (the policy's own answer before the others, which
    /// are drawn at random). Returns the edge and whether it is new.
    #[allow(clippy::too_many_arguments)]
    fn select<R: Rng + ?Sized>(
        &mut self,
        node: u32,
        player: usize,
        legal: &[Answer],
        hp: &HeuristicParams,
        cmd: crate::durak::protocol::Command,
        ctx: &Ctx,
        c: f64,
        rng: &mut R,
    ) -> (usize, bool) {
        let mut untried: Vec<Answer> = Vec::new();
        for &a in legal {
            match self.edge(node, player, a) {
                Some(e) => self.nodes[node as usize][e].avail += 1,
                None => untried.push(a),
            }
        }
        if !untried.is_empty() {
            let own = heuristic_with(hp, cmd, ctx);
            let a = if untried.contains(&own) {
                own
            } else {
                untried[rng.random_range(0..untried.len())]
            };
            let e = self.push_edge(node, player, a);
            self.nodes[node as usize][e].avail = 1;
            return (e, true);
        }
        let own_team = team(player) == 0;
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, e) in self.nodes[node as usize].iter().enumerate() {
            if usize::from(e.player) != player || !legal.contains(&e.answer) {
                continue;
            }
            let n = f64::from(e.visits.max(1));
            let mean = e.sum as f64 / (6.0 * n);
            let v = if own_team { mean } else { 1.0 - mean };
            let u = v + c * (f64::from(e.avail.max(1)).ln() / n).sqrt();
            if u > best.0 {
                best = (u, i);
            }
        }
        (best.1, false)
    }
}
