//! The contest search ([`Strategy::Deep`](crate::durak::Strategy)): determinized search whose every
//! determinization is evaluated to the end of the game with an exact endgame.
//!
//! For each decision it samples full deals consistent with what the bot has seen and inferred
//! ([`Tracker::sample_with`]: the cards a defender showed he lacks by taking, and the cheaper
//! cards an opponent showed he lacks by how he beat and threw in, are kept out of his hand),
//! applies every legal answer to each, and scores the answer by who wins from there:
//! - with the talon empty, by exact team minimax ([`Solver`], the shared
//!   [`crate::search::exact`] solver, its transposition table kept across the game);
//! - with cards in the talon, by a heuristic playout of all four players up to the moment the
//!   talon runs out, then by the exact solver (the playout finishes the game only when the
//!   endgame is too large for its node cap).
//!
//! The determinizations are shared by the answers ([`crate::search::flat`]), and an answer's
//! evaluation is not one playout per determinization but one iteration of an information-set
//! tree below the answer ([`crate::search::ismcts`], the adapter in `tree`)
//! (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): the tree's nodes are answer
//! sequences shared by all determinizations, our team's later decisions in it choose by UCB1
//! on those shared statistics (and so do an opponent's once he has broken the rules the
//! playout policy assumes, [`SearchSettings::tree_opp`]), and each iteration's new node is
//! evaluated by the playout and the exact solver as above.
//!
//! The heuristic's own answer stands unless another answer scores significantly better on the
//! same determinizations ([`SearchSettings::keep_z`]).
//!
//! Costs are counted in work units (one playout step, one solver node or one answer applied
//! in a tree), so a decision's
//! effort is a deterministic function of the seed and the lines seen: the same inputs give the
//! same answers. [`SearchSettings::units_per_second`] converts the rules' time budget
//! (2 s + 0.1 s x rounds) into work units; the wall clock is only a safety net, logged when
//! it fires.

mod config;
mod eval;
mod tree;

use std::time::Instant;

use rand::{Rng, RngExt};

use super::endgame::Solver;
use super::sample::Beliefs;
use super::strategy::HeuristicParams;
use super::tracker::Tracker;
#[cfg(feature = "measure")]
pub use crate::durak::measure::Worlds;
use crate::durak::protocol::Command;
use crate::durak::rules::{team, Answer, Event, Game};
use crate::search::flat;
use crate::search::ismcts::{NodeId, Tree};
pub use crate::search::{Caps, Progress};
pub use config::{DeepConfig, SearchSettings};

/// The measured determinizations (`measure::Worlds`, feature `measure`);
/// without the feature the type has no value, so the bot's beliefs always deal.
#[cfg(not(feature = "measure"))]
#[derive(Debug, Clone)]
pub enum Worlds {}

#[cfg(not(feature = "measure"))]
impl Worlds {
    /// Never called: there is no value to call it on.
    pub fn draw<R: Rng + ?Sized>(&self, _command: Command, _rng: &mut R) -> Option<Game> {
        match *self {}
    }
}

/// What one decision cost: determinizations evaluated, work units spent (playout steps,
/// solver nodes, tree steps) and whether the clock's safety net cut it.
pub type DecisionStats = Progress;

/// One decision of the deep search: what it is asked, what it knows, its settings, its
/// budget and its tools ([`deep_search`]'s argument).
#[derive(Debug)]
pub struct SearchContext<'a, R: Rng + ?Sized> {
    /// What the bot (player 0) knows.
    pub tracker: &'a Tracker,
    /// The command to answer.
    pub cmd: Command,
    /// The legal answers.
    pub legal: &'a [Answer],
    /// The answer kept on ties (the heuristic's).
    pub default: Answer,
    /// The search's settings.
    pub cfg: &'a DeepConfig,
    /// The exact solver (its transposition table lives across decisions).
    pub solver: &'a mut Solver,
    /// At most this many work units (playout steps + solver nodes); the cap binds.
    pub work_cap: u64,
    /// The clock's safety net: polled before every determinization after the first, before
    /// every answer's evaluation after the first determinization ([`Caps`]) and every 1024
    /// solver nodes; when it passes, the decision ends with the determinizations completed so
    /// far (`clock_cut` in the stats).
    pub deadline: Option<Instant>,
    /// The decision's randomness (determinizations, playouts).
    pub rng: &'a mut R,
    /// Where the determinizations come from in a measurement (the clairvoyant bound, feature
    /// `measure`); `None`: the bot's beliefs, always so without the feature.
    pub worlds: Option<&'a Worlds>,
}

/// The deep search's answer for player 0 of `ctx.tracker` to `ctx.cmd` (see
/// [`SearchContext`] for the budget and the safety net), and what the decision cost: the
/// shared flat evaluation ([`flat::evaluate`]) of every legal answer over common
/// determinizations, each answer's value in one being an iteration of its information-set
/// tree (the adapter of [`crate::search::ismcts`]), then the keep rule.
pub fn deep_search<R: Rng + ?Sized>(ctx: SearchContext<'_, R>) -> (Answer, DecisionStats) {
    let (legal, default, cfg) = (ctx.legal, ctx.default, ctx.cfg);
    if legal.len() <= 1 {
        let stats = DecisionStats::default();
        return (legal.first().copied().unwrap_or(default), stats);
    }
    ctx.solver.deadline = ctx.deadline;
    let caps = Caps {
        max_samples: cfg.max_samples,
        min_samples: cfg.min_samples,
        work: ctx.work_cap,
        deadline: ctx.deadline,
    };
    let mut trees = Tree::new(cfg.ucb_c);
    let roots = legal.iter().map(|_| trees.add_root(0, &[])).collect();
    let searching = opponents_searching(cfg, ctx.tracker);
    let mut decision = Decision {
        ctx,
        trees,
        roots,
        searching,
        events: Vec::with_capacity(64),
    };
    // Every determinization's scores are kept for the keep rule's paired test.
    let flat = flat::evaluate(&mut decision, legal.len(), &caps, cfg.keep_z > 0.0);
    let stats = flat.progress;
    if stats.samples == 0 {
        return (default, stats);
    }
    let kept = legal.iter().position(|&a| a == default);
    let mut best = flat.best(kept).unwrap_or(0);
    if let Some(k) = kept.filter(|_| cfg.keep_z > 0.0) {
        if paired_z(&flat.rows, legal.len(), best, k) < cfg.keep_z {
            best = k;
        }
    }
    (legal[best], stats)
}

/// The flat evaluation's Durak adapter: one decision's determinizations and the trees below
/// its answers.
struct Decision<'a, R: Rng + ?Sized> {
    ctx: SearchContext<'a, R>,
    trees: Tree<Answer>,
    /// The root of each answer's tree, in the order of `ctx.legal`.
    roots: Vec<NodeId>,
    /// [`opponents_searching`].
    searching: [bool; 4],
    events: Vec<Event>,
}

/// One determinization, the opponents' policy in it, and the node cap of a root answer's
/// exact solve (what is left of the decision's work cap per answer, within
/// [`SearchSettings::root_nodes`]).
struct World {
    game: Game,
    opp: HeuristicParams,
    root_cap: u64,
}

impl<R: Rng + ?Sized> flat::Worlds for Decision<'_, R> {
    type World = World;

    /// The next determinization (the measured worlds under the feature `measure`, else the
    /// bot's play beliefs), and the opponents' policy: the alternative model in
    /// [`SearchSettings::opponent_mix`] of them.
    fn draw(&mut self, progress: &Progress) -> Option<World> {
        let ctx = &mut self.ctx;
        let game = match ctx.worlds {
            Some(worlds) => worlds.draw(ctx.cmd, &mut *ctx.rng)?,
            None => ctx
                .tracker
                .sample_with(ctx.cmd, Beliefs::Play, &mut *ctx.rng)?,
        };
        let cfg = ctx.cfg;
        let opp = if ctx.rng.random_bool(cfg.opponent_mix.clamp(0.0, 1.0)) {
            cfg.opponent
        } else {
            cfg.heuristic
        };
        // A root solve may use what is left of the decision's cap, within its own cap.
        let left = ctx.work_cap.saturating_sub(progress.work) / ctx.legal.len() as u64;
        let root_cap = cfg.root_nodes.min(left.max(cfg.leaf_nodes));
        Some(World {
            game,
            opp,
            root_cap,
        })
    }

    /// The answer applied (one work unit), then one iteration of its tree, on the 0..=6 scale
    /// of [`eval::eval_score`]; 0 for an answer that cannot be applied.
    fn value(&mut self, world: &World, i: usize) -> (f64, u64) {
        let ctx = &mut self.ctx;
        let mut game = world.game.clone();
        self.events.clear();
        if game.apply(ctx.legal[i], &mut self.events).is_err() {
            return (0.0, 0);
        }
        let mut walk = tree::Walk {
            game,
            cfg: ctx.cfg,
            opp: &world.opp,
            searching: self.searching,
            solver: &mut *ctx.solver,
            root_cap: world.root_cap,
            events: &mut self.events,
            depth: 0,
            steps: 0,
        };
        let (v, leaf_work) = self.trees.iterate(self.roots[i], &mut walk, &mut *ctx.rng);
        (v, 1 + walk.steps + leaf_work)
    }
}

/// The opponents whose decisions in the trees choose by UCB1 ([`SearchSettings::tree_opp`]), by
/// player index from the bot (0 the bot; the opponents are 1 and 3, the protocol's players 2
/// and 4).
pub fn opponents_searching(cfg: &DeepConfig, tracker: &Tracker) -> [bool; 4] {
    std::array::from_fn(|p| {
        team(p) != 0 && (cfg.tree_opp == 1 || (cfg.tree_opp == 2 && tracker.broke[p]))
    })
}

/// How many standard errors answer `a`'s mean score lies above answer `b`'s on the same
/// determinizations (`rows` holds one score per answer and determinization, row-major with
/// `n` answers per row, as [`flat::Flat::rows`]): the mean of the paired differences over its
/// standard error. A difference seen on every determinization so far (zero variance) still
/// needs the test's evidence: one score step (1) of spread is assumed at least. 0 with fewer
/// than two rows.
fn paired_z(rows: &[f64], n: usize, a: usize, b: usize) -> f64 {
    let m = rows.len() / n;
    if m < 2 {
        return 0.0;
    }
    let (mut sum, mut sq) = (0.0f64, 0.0f64);
    for r in 0..m {
        let d = rows[r * n + a] - rows[r * n + b];
        sum += d;
        sq += d * d;
    }
    let mf = m as f64;
    let var = ((sq - sum * sum / mf) / (mf - 1.0)).max(1.0);
    (sum / mf) / (var / mf).sqrt()
}

#[cfg(test)]
mod tests {
    use super::eval::{eval_score, Eval};
    use super::*;

    fn score(exact: Option<bool>, playout: u32) -> u8 {
        eval_score(&Eval { exact, playout })
    }

    #[test]
    fn paired_z_is_the_mean_difference_over_its_standard_error() {
        // Answer 1 scores 2 more than answer 0 on every other determinization: differences
        // 2, 0, 2, 0 have mean 1 and sample variance (8 - 16 / 4) / 3 = 4/3, so the standard
        // error is sqrt(4/3 / 4) and z = sqrt(3).
        let rows = [3.0, 5.0, 4.0, 4.0, 0.0, 2.0, 6.0, 6.0];
        assert!((paired_z(&rows, 2, 1, 0) - 3f64.sqrt()).abs() < 1e-12);
        assert!((paired_z(&rows, 2, 0, 1) + 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(paired_z(&rows[..2], 2, 1, 0), 0.0, "one row: no evidence");
    }

    #[test]
    fn exact_and_playout_answers_score_on_one_scale() {
        assert_eq!(score(Some(true), 0), 4);
        assert_eq!(score(Some(false), 2), 2);
        // A cut solve scores its playout on the same 0..=6 scale.
        assert_eq!(score(None, 2), 6);
        assert_eq!(score(None, 1), 3);
        assert_eq!(score(Some(true), 2), 6);
    }

    #[test]
    fn only_an_opponent_seen_breaking_the_play_beliefs_searches_in_the_trees() {
        let mut t = Tracker::new();
        let cfg = DeepConfig::default();
        assert_eq!(opponents_searching(&cfg, &t), [false; 4]);
        t.broke[3] = true;
        assert_eq!(opponents_searching(&cfg, &t), [false, false, false, true]);
        // The partner's breaks do not count: our team searches anyway.
        t.broke[2] = true;
        assert_eq!(opponents_searching(&cfg, &t), [false, false, false, true]);
        let every = DeepConfig::parse("tree_opp=1").unwrap();
        assert_eq!(
            opponents_searching(&every, &Tracker::new()),
            [false, true, false, true]
        );
        let none = DeepConfig::parse("tree_opp=0").unwrap();
        assert_eq!(opponents_searching(&none, &t), [false; 4]);
    }
}
