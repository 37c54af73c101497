//! The contest search ([`Strategy::Deep`](crate::durak::Strategy)): determinized search whose every
//! determinization is evaluated to the end of the game with an exact endgame.
//!
//! For each decision it samples full deals consistent with what the bot has seen and inferred
//! ([`Tracker::sample_with`]: the cards a defender showed he lacks by taking, and the cheaper
//! cards an opponent showed he lacks by how he beat and threw in, are kept out of his hand),
//! applies every legal answer to each, and scores the answer by who wins from there:
//! - with the talon empty, by exact team minimax ([`Solver`], transposition table kept across
//!   the game);
//! - with cards in the talon, by a heuristic playout of all four players up to the moment the
//!   talon runs out, then by the exact solver (the playout finishes the game only when the
//!   endgame is too large for its node cap).
//!
//! By default ([`DeepConfig::tree`] 1) an answer's evaluation is not one playout per
//! determinization but one iteration of an information-set tree below the answer
//! (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): the tree's nodes are answer
//! sequences shared by all determinizations, our team's later decisions in it choose by UCB1
//! on those shared statistics (and so do an opponent's once he has broken the rules the
//! playout policy assumes, [`DeepConfig::tree_opp`]), and each iteration's new node is
//! evaluated by the playout and the exact solver as above.
//!
//! The heuristic's own answer stands unless another answer scores significantly better on the
//! same determinizations ([`DeepConfig::keep_z`]).
//!
//! Costs are counted in work units (one playout step, one solver node or one answer applied
//! in a tree), so a decision's
//! effort is a deterministic function of the seed and the lines seen: the same inputs give the
//! same answers. [`DeepConfig::units_per_second`] converts the rules' time budget
//! (2 s + 0.1 s x rounds) into work units; the wall clock is only a safety net, logged when
//! it fires.

mod config;
mod eval;
mod tree;

use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use super::endgame::Solver;
use super::strategy::HeuristicParams;
use super::tracker::Tracker;
use crate::durak::protocol::Command;
use crate::durak::rules::{team, Answer, Game};
pub use config::{command_bit, phase_bit, DeepConfig, EVERY_HAND};
use eval::{eval_score, evaluate};

/// What one decision cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecisionStats {
    /// Determinizations evaluated.
    pub samples: usize,
    /// Work units spent (playout steps + solver nodes).
    pub work: u64,
    /// Whether the wall-clock safety net stopped the decision.
    pub clock_cut: bool,
}

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
    /// The clock's safety net: polled before every answer's evaluation and every 1024 solver
    /// nodes; when it passes, the decision ends with the determinizations completed so far
    /// (`clock_cut` in the stats).
    pub deadline: Option<Instant>,
    /// The decision's randomness (determinizations, playouts).
    pub rng: &'a mut R,
    /// The true state, numbered from the bot (player 0), for the clairvoyant bound
    /// ([`DeepConfig::clairvoyant`]): when given, every determinization is this game (with
    /// its talon shuffled unless `clairvoyant` is 2) instead of a sample of the bot's beliefs.
    pub oracle: Option<&'a Game>,
}

/// The deep search's answer for player 0 of `ctx.tracker` to `ctx.cmd` (see
/// [`SearchContext`] for the budget and the safety net), and what the decision cost.
pub fn deep_search<R: Rng + ?Sized>(mut ctx: SearchContext<'_, R>) -> (Answer, DecisionStats) {
    let mut stats = DecisionStats::default();
    if ctx.legal.len() <= 1 {
        return (ctx.legal.first().copied().unwrap_or(ctx.default), stats);
    }
    ctx.solver.deadline = ctx.deadline;
    if ctx.cfg.tree == 2 {
        return tree_search(ctx);
    }
    let (legal, cfg, work_cap, deadline) = (ctx.legal, ctx.cfg, ctx.work_cap, ctx.deadline);
    let n = legal.len();
    // With `tree` 1, one ISMCTS tree below each answer.
    let mut trees = tree::Tree::default();
    let roots: Vec<u32> = if cfg.tree == 1 {
        (0..n).map(|_| trees.add_root()).collect()
    } else {
        Vec::new()
    };
    let searching = opponents_searching(cfg, ctx.tracker);
    let mut score = vec![0u64; n];
    // This determinization's scores (answers not evaluated score 0).
    let mut sample_score = vec![0u64; n];
    // Every determinization's scores, row by row, for the paired tests of the rejection and
    // keep rules (recorded only when one of them is on).
    let mut rows: Vec<u8> = Vec::new();
    let mut alive = vec![true; n];
    let mut events = Vec::with_capacity(64);
    let mut next_check = cfg.min_samples.max(2);
    while stats.samples < cfg.max_samples {
        let Some((base, opp)) = next_sample(&mut ctx, &mut stats, cfg.min_samples) else {
            break;
        };
        let live = alive.iter().filter(|&&x| x).count() as u64;
        // A root solve may use what is left of the decision's cap, within its own cap.
        let left = work_cap.saturating_sub(stats.work) / live.max(1);
        let root_cap = cfg.root_nodes.min(left.max(cfg.leaf_nodes));
        // The safety net is polled before every answer's evaluation (one evaluation costs at
        // most a root solve's cap plus a playout); a determinization cut short is dropped so
        // every answer is scored on the same determinizations.
        sample_score.iter_mut().for_each(|e| *e = 0);
        for (i, &a) in legal.iter().enumerate() {
            if !alive[i] {
                continue;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stats.clock_cut = true;
                break;
            }
            let mut g = base.clone();
            events.clear();
            if g.apply(a, &mut events).is_err() {
                continue;
            }
            stats.work += 1;
            if cfg.tree == 1 {
                let mut it = tree::Iteration {
                    cfg,
                    opp: &opp,
                    searching,
                    solver: &mut *ctx.solver,
                    root_cap,
                    events: &mut events,
                };
                let (s, w) = trees.iterate(roots[i], g, &mut it, &mut *ctx.rng);
                sample_score[i] = u64::from(s);
                stats.work += w;
            } else {
                let (e, w) = evaluate(cfg, &opp, &mut *ctx.solver, g, root_cap, &mut events);
                sample_score[i] = u64::from(eval_score(&e));
                stats.work += w;
            }
        }
        if stats.clock_cut {
            break;
        }
        for (total, s) in score.iter_mut().zip(&sample_score) {
            *total += s;
        }
        stats.samples += 1;
        if cfg.reject_z > 0.0 || cfg.keep_z > 0.0 {
            rows.extend(sample_score.iter().map(|&s| s as u8));
        }
        if cfg.reject_z > 0.0 && stats.samples >= next_check {
            next_check *= 2;
            reject(&rows, n, &mut alive, cfg.reject_z);
            if alive.iter().filter(|&&x| x).count() == 1 {
                break;
            }
        }
    }
    if stats.samples == 0 {
        return (ctx.default, stats);
    }
    let kept = legal
        .iter()
        .position(|&a| a == ctx.default)
        .filter(|&i| alive[i]);
    let mut best = kept.or_else(|| alive.iter().position(|&x| x)).unwrap_or(0);
    for i in 0..n {
        if alive[i] && score[i] > score[best] {
            best = i;
        }
    }
    if let Some(k) = kept.filter(|_| cfg.keep_z > 0.0) {
        if paired_z(&rows, n, best, k) < cfg.keep_z {
            best = k;
        }
    }
    (legal[best], stats)
}

/// The opponents whose decisions in the trees choose by UCB1 ([`DeepConfig::tree_opp`]), by
/// player index from the bot (0 the bot; the opponents are 1 and 3, the protocol's players 2
/// and 4).
pub fn opponents_searching(cfg: &DeepConfig, tracker: &Tracker) -> [bool; 4] {
    std::array::from_fn(|p| {
        team(p) != 0 && (cfg.tree_opp == 1 || (cfg.tree_opp == 2 && tracker.broke[p]))
    })
}

/// The next determinization of a decision and the opponents' playout policy in it (the
/// alternative model in [`DeepConfig::opponent_mix`] of them), or `None` when the decision
/// ends: the work cap is spent after at least `min_samples` samples, the wall-clock safety net
/// fired (`stats.clock_cut`), or no deal fits what the bot knows and believes.
fn next_sample<R: Rng + ?Sized>(
    ctx: &mut SearchContext<'_, R>,
    stats: &mut DecisionStats,
    min_samples: usize,
) -> Option<(Game, HeuristicParams)> {
    if stats.work >= ctx.work_cap && stats.samples >= min_samples {
        return None;
    }
    if ctx.deadline.is_some_and(|d| Instant::now() >= d) {
        stats.clock_cut = true;
        return None;
    }
    let cfg = ctx.cfg;
    let base = match ctx.oracle {
        Some(truth) => {
            let mut g = truth.clone();
            if cfg.clairvoyant < 2 {
                g.talon.shuffle(&mut *ctx.rng);
            }
            g
        }
        None => ctx
            .tracker
            .sample_with(ctx.cmd, &cfg.beliefs, &mut *ctx.rng)?,
    };
    let opp = if ctx.rng.random_bool(cfg.opponent_mix.clamp(0.0, 1.0)) {
        cfg.opponent
    } else {
        cfg.heuristic
    };
    Some((base, opp))
}

/// [`DeepConfig::tree`] 2: single-observer ISMCTS from the bot's information set, one
/// determinization per iteration, at most [`DeepConfig::max_samples`] x answers iterations
/// and `work_cap` work units (after [`DeepConfig::min_samples`] x answers iterations). The
/// most visited answer is played (ties: the higher mean, then `default`); `default` stands
/// unless that answer's mean score lies [`DeepConfig::keep_z`] standard errors above its own
/// (unpaired: the answers were tried on different determinizations).
fn tree_search<R: Rng + ?Sized>(mut ctx: SearchContext<'_, R>) -> (Answer, DecisionStats) {
    let (legal, default, cfg, work_cap) = (ctx.legal, ctx.default, ctx.cfg, ctx.work_cap);
    let searching = opponents_searching(cfg, ctx.tracker);
    let mut stats = DecisionStats::default();
    let n = legal.len();
    let mut tree = tree::Tree::default();
    let root = tree.add_root();
    let mut events = Vec::with_capacity(64);
    let max_iterations = cfg.max_samples.saturating_mul(n);
    let min_iterations = cfg.min_samples.saturating_mul(n);
    while stats.samples < max_iterations {
        let Some((base, opp)) = next_sample(&mut ctx, &mut stats, min_iterations) else {
            break;
        };
        let left = work_cap.saturating_sub(stats.work) / n as u64;
        let root_cap = cfg.root_nodes.min(left.max(cfg.leaf_nodes));
        let mut it = tree::Iteration {
            cfg,
            opp: &opp,
            searching,
            solver: &mut *ctx.solver,
            root_cap,
            events: &mut events,
        };
        let (_, w) = tree.iterate(root, base, &mut it, &mut *ctx.rng);
        stats.work += w;
        stats.samples += 1;
    }
    let answers: Vec<_> = tree
        .answers(root, 0)
        .into_iter()
        .filter(|(a, visits, _, _)| *visits > 0 && legal.contains(a))
        .collect();
    let rank = |x: &(Answer, u32, f64, f64)| (x.1, x.2, x.0 == default);
    let Some(best) = answers.iter().copied().max_by(|x, y| {
        rank(x)
            .partial_cmp(&rank(y))
            .unwrap_or(std::cmp::Ordering::Equal)
    }) else {
        return (default, stats);
    };
    if let Some(k) = answers.iter().find(|x| x.0 == default) {
        if cfg.keep_z > 0.0 && best.0 != default {
            let se = (best.3.max(1.0) / f64::from(best.1) + k.3.max(1.0) / f64::from(k.1)).sqrt();
            if (best.2 - k.2) / se < cfg.keep_z {
                return (default, stats);
            }
        }
    }
    (best.0, stats)
}

/// Successive rejection (a sequential paired test): drops every live answer whose score, on
/// the same determinizations, trails the live leader's (the live answer of highest total) by
/// more than `z` standard errors of the paired difference. `rows` holds one score per answer
/// and determinization, row-major with `n` answers per row; live answers were evaluated on
/// every row, and only live answers are compared.
fn reject(rows: &[u8], n: usize, alive: &mut [bool], z: f64) {
    let m = rows.len() / n;
    if m < 2 {
        return;
    }
    let total = |i: usize| -> u64 { (0..m).map(|r| u64::from(rows[r * n + i])).sum() };
    let Some(leader) = (0..n)
        .filter(|&i| alive[i])
        .max_by_key(|&i| (total(i), usize::MAX - i))
    else {
        return;
    };
    for (i, live) in alive.iter_mut().enumerate() {
        if i != leader && *live && paired_z(rows, n, leader, i) > z {
            *live = false;
        }
    }
}

/// How many standard errors answer `a`'s mean score lies above answer `b`'s on the same
/// determinizations (`rows` as in [`reject`]): the mean of the paired differences over its
/// standard error. A difference seen on every determinization so far (zero variance) still
/// needs the test's evidence: one score step (1) of spread is assumed at least. 0 with fewer
/// than two rows.
fn paired_z(rows: &[u8], n: usize, a: usize, b: usize) -> f64 {
    let m = rows.len() / n;
    if m < 2 {
        return 0.0;
    }
    let (mut sum, mut sq) = (0.0f64, 0.0f64);
    for r in 0..m {
        let d = f64::from(rows[r * n + a]) - f64::from(rows[r * n + b]);
        sum += d;
        sq += d * d;
    }
    let mf = m as f64;
    let var = ((sq - sum * sum / mf) / (mf - 1.0)).max(1.0);
    (sum / mf) / (var / mf).sqrt()
}

#[cfg(test)]
mod tests {
    use super::eval::Eval;
    use super::*;

    fn score(exact: Option<bool>, playout: u32) -> u8 {
        eval_score(&Eval { exact, playout })
    }

    #[test]
    fn rejection_drops_only_answers_clearly_behind() {
        // Answer 0 loses on every determinization, answers 1 and 2 win alike, answer 3 wins
        // on half of them: after 16 determinizations only answer 0 is clearly behind the
        // leader (a mean gap of 6 with spread 0); answer 3 trails by 3 with a standard
        // error of 3/4, i.e. 4 standard errors, so it goes too at z = 3, not at z = 5.
        let n = 4;
        let rows: Vec<u8> = (0..16)
            .flat_map(|r| [0u8, 6, 6, if r % 2 == 0 { 6 } else { 0 }])
            .collect();
        let mut alive = vec![true; n];
        reject(&rows, n, &mut alive, 3.0);
        assert_eq!(alive, [false, true, true, false]);
        let mut alive = vec![true; n];
        reject(&rows, n, &mut alive, 5.0);
        assert_eq!(alive, [false, true, true, true]);
        // A dropped answer is never the leader and is not tested again.
        let mut alive = vec![false, true, true, true];
        reject(&rows[..n], n, &mut alive, 3.0);
        assert_eq!(alive, [false, true, true, true], "one row: no test");
    }

    #[test]
    fn paired_z_is_the_mean_difference_over_its_standard_error() {
        // Answer 1 scores 2 more than answer 0 on every other determinization: differences
        // 2, 0, 2, 0 have mean 1 and sample variance (8 - 16 / 4) / 3 = 4/3, so the standard
        // error is sqrt(4/3 / 4) and z = sqrt(3).
        let rows = [3u8, 5, 4, 4, 0, 2, 6, 6];
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

    #[test]
    fn knobs_reach_the_playout_policies_and_unknown_ones_are_refused() {
        let c = DeepConfig::parse("keep_z=2,opp.lead_pair=0,own.take_talon=12").unwrap();
        assert_eq!(c.keep_z, 2.0);
        assert_eq!(c.opponent.lead_pair, 0);
        assert_eq!(
            c.opponent.take_trump_rank,
            HeuristicParams::plain().take_trump_rank
        );
        assert_eq!(c.heuristic.take_talon, 12);
        assert_eq!(c.heuristic.lead_pair, HeuristicParams::default().lead_pair);
        let t = DeepConfig::parse("tree=2,ucb_c=0.5,tree_opp=1,tree_depth=3").unwrap();
        assert_eq!((t.tree, t.ucb_c, t.tree_opp, t.tree_depth), (2, 0.5, 1, 3));
        assert_eq!(DeepConfig::default().tree_opp, 2);
        assert!(DeepConfig::parse("tree_opp=3").is_err());
        assert_eq!(DeepConfig::parse("tree=0").unwrap().tree, 0);
        // The clairvoyant bound's commands: a mask of command_bit, all three by default.
        assert_eq!(DeepConfig::default().clairvoyant_commands, 7);
        let c = DeepConfig::parse("clairvoyant_commands=2").unwrap();
        assert_eq!(c.clairvoyant_commands, command_bit(Command::Beat));
        assert_eq!(
            [Command::Move, Command::Beat, Command::Add].map(command_bit),
            [1, 2, 4]
        );
        for bad in [
            "tree=3",
            "opp.nonsense=1",
            "own.throw_late=300",
            "keep_z=-1",
            "samples=3",
        ] {
            assert!(DeepConfig::parse(bad).is_err(), "{bad} accepted");
        }
    }
}
