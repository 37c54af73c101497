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
//! on those shared statistics, and each iteration's new node is evaluated by the playout and
//! the exact solver as above.
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

mod tree;

use std::time::Instant;

use rand::{Rng, RngExt};

use super::endgame::Solver;
use super::strategy::{heuristic_with, Ctx, HeuristicParams};
use super::tracker::{Beliefs, Tracker};
use crate::durak::protocol::Command;
use crate::durak::rules::{team, Answer, Event, Game};

/// Settings of the deep search; every field is a cap or a share with a stated meaning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeepConfig {
    /// Share of the game's time budget (2 s + 0.1 s x rounds started) the work caps aim to
    /// spend, assuming [`DeepConfig::units_per_second`].
    pub budget_share: f64,
    /// Work units (playout steps + solver nodes) this machine runs per second, taken low so a
    /// loaded machine stays inside [`DeepConfig::budget_share`] of the budget (measured on the
    /// 2-core test machine: about 7 million per second alone, 2.5 to 3.5 million with a load
    /// of 4, under 2 million at a load of 6-7).
    pub units_per_second: f64,
    /// Share of the budget after which the wall-clock safety net cuts a decision short.
    pub hard_share: f64,
    /// Determinizations per decision at most (one byte per answer and determinization is kept
    /// for the rejection tests). At 400 this cap, not the work cap, ends most decisions (about
    /// 5% of the budget spent on a quiet machine). Raising it so the work cap binds
    /// (`max_samples=100000,root_cards=16,exact_cards=12,root_nodes=200000,leaf_nodes=20000,
    /// reject_z=3`, share 0.2 at 4e6 units/s) was measured no stronger, referee.py, seed 9001,
    /// 1000 games each: 59.4% against 60.8% vs `bot_smart.py`, 77.5% against 80.1% vs
    /// `bot_greedy.py`, while spending 4 times the work and reaching the wall-clock net on a
    /// loaded machine.
    pub max_samples: usize,
    /// Determinizations per decision at least, when the work cap allows one per answer.
    pub min_samples: usize,
    /// Node cap of one root answer's exact solve (talon empty at the decision).
    pub root_nodes: u64,
    /// Solve a decision's positions exactly when the talon is empty and at most this many
    /// cards are in the hands and on the table (larger endgames rarely finish within
    /// [`DeepConfig::root_nodes`]: measured, 16-19 cards need a median 55,000 nodes; and
    /// solving them scored worse against `bot_smart.py`: root_cards 24 with exact_cards 14
    /// won 50-54% of 200 games where 16 and 12 won 60-66%, as perfect-information values of
    /// large endgames assume opponents who see every card).
    pub root_cards: usize,
    /// Playouts stop for an exact solve once the talon is empty and at most this many cards
    /// are in play (12-15 cards: a median 2,500 nodes).
    pub exact_cards: usize,
    /// Node cap of the exact solve that ends a playout when the talon runs out.
    pub leaf_nodes: u64,
    /// Own team's playout policy.
    pub heuristic: HeuristicParams,
    /// An alternative model of the opponents in playouts...
    pub opponent: HeuristicParams,
    /// ...used in this share of the determinizations: a hedge over unknown opponents.
    pub opponent_mix: f64,
    /// Successive rejection: after `min_samples`, then at every doubling of the
    /// determinizations, an answer whose mean score trails the leader's by more than this many
    /// standard errors (paired on the same determinizations) is no longer evaluated, so the
    /// work goes to the answers still in contention; the decision ends when one is left.
    /// 0 turns it off (the default: with the 400-sample cap it was not measured at scale).
    /// 3 keeps a false rejection of an equal answer near 0.1% per test.
    pub reject_z: f64,
    /// The heuristic's answer (the playout policy's own choice) is kept unless another answer
    /// scores this many standard errors above it on the same determinizations (a one-sided
    /// paired test; 1.645 = 5% false switches when the answers are equal): a prior for the
    /// rule-based answer where the samples cannot tell the answers apart (early in the game
    /// most answers differ by less than the sampling error, and the argmax of noisy scores
    /// then picks at random). Measured against `bot_smart.py` under `referee.py`, seed 777,
    /// 400 deals = 800 games: off 61.3%, 1.5 69.2%, 1.645 67.4%, 3 65.2%; with 1.645 and
    /// 1600 determinizations 64.6%. 0 turns it off.
    pub keep_z: f64,
    /// What the determinizations assume about the hidden cards beyond the facts.
    pub beliefs: Beliefs,
    /// The search over information sets: 0 the flat search (every answer scored by one
    /// playout and solve per determinization: after the answer, everybody plays as if the
    /// determinization's cards were seen); 1 the same paired root, but each answer's
    /// evaluation is an iteration of single-observer ISMCTS in a tree below it, where our
    /// team's later decisions choose by UCB1 over statistics shared by every determinization
    /// that reached them, so a later choice cannot depend on cards the bot does not see
    /// (strategy fusion); 2 single-observer ISMCTS from the root, UCB1 choosing our answer too
    /// (at most [`DeepConfig::max_samples`] x answers iterations, the flat search's number of
    /// evaluations; the most visited answer is played, subject to [`DeepConfig::keep_z`] as
    /// an unpaired test). Trees follow the answers from the root, opponents' included (with
    /// [`DeepConfig::tree_opp`] off they answer by the playout policy), and add one node per
    /// iteration, whose position is evaluated like the flat search's answers.
    ///
    /// Measured (`durak-bot` seed 1, tournament seed 777, duplicate deals, 800 games each),
    /// flat / 1: 85.2% / 89.4% vs `inproc:greedy` and 60.8% / 72.4% vs `inproc:search` under
    /// `durak-server`, 66.6% / 73.8% vs `bot_smart.py` under `referee.py`; at seed 9001
    /// 87.2% / 90.1% vs greedy; 1 against flat, 400 games: 56.8%. In 400 games vs
    /// greedy, 2 scored 87.5%, 2 with [`DeepConfig::tree_opp`] 85.2% and 1 with it 87.2%
    /// where 1 scored 91.5%. Trees cost 1.5 to 2 times the flat search's thinking time
    /// (more work per decision, and a tree step costs more than a playout step).
    pub tree: u8,
    /// UCB1's exploration constant in the trees (scores scaled to 0..1). Measured vs
    /// `inproc:greedy`, 400 games, seed 777: 0.4 89.8%, 0.7 91.5%, 1.2 90.2% (within noise).
    pub ucb_c: f64,
    /// In the trees, the opponents' decisions choose by UCB1 for their team as well (SO-ISMCTS
    /// proper) instead of following the playout policy.
    pub tree_opp: bool,
    /// Decisions that choose by UCB1 on one path of a tree at most; below, the playout
    /// evaluates. Measured vs `inproc:greedy`, 400 games, seed 777: 1 89.2%, 3 92.5%, 64 (no
    /// cap in practice) 91.5% (within noise; and 800 determinizations instead of 400:
    /// 91.8%).
    pub tree_depth: usize,
}

impl Default for DeepConfig {
    fn default() -> DeepConfig {
        DeepConfig {
            budget_share: 0.25,
            units_per_second: 1.6e6,
            hard_share: 0.3,
            max_samples: 400,
            min_samples: 8,
            root_nodes: 60_000,
            root_cards: 12,
            exact_cards: 8,
            leaf_nodes: 5_000,
            heuristic: HeuristicParams::default(),
            opponent: HeuristicParams::plain(),
            opponent_mix: 0.5,
            reject_z: 0.0,
            keep_z: 1.645,
            beliefs: Beliefs {
                play: true,
                bottom_trump: 0.0,
            },
            tree: 1,
            ucb_c: 0.7,
            tree_opp: false,
            tree_depth: 64,
        }
    }
}

impl DeepConfig {
    /// Reads `key=value` pairs separated by commas over the defaults (keys: the field names
    /// other than the heuristics'; `own.<knob>` and `opp.<knob>` set a knob of
    /// [`DeepConfig::heuristic`] and [`DeepConfig::opponent`], see [`HeuristicParams::set`]).
    ///
    /// # Errors
    /// A message naming the first unknown key or bad number.
    pub fn parse(text: &str) -> Result<DeepConfig, String> {
        let mut c = DeepConfig::default();
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, got {item:?}"))?;
            let x: f64 = v.parse().map_err(|_| format!("bad number in {item:?}"))?;
            if !(x >= 0.0 && x.is_finite()) {
                return Err(format!("out of range: {item:?}"));
            }
            match k {
                "budget_share" => c.budget_share = x,
                "units_per_second" => c.units_per_second = x,
                "hard_share" => c.hard_share = x,
                "max_samples" => c.max_samples = x as usize,
                "min_samples" => c.min_samples = x as usize,
                "root_nodes" => c.root_nodes = x as u64,
                "root_cards" => c.root_cards = x as usize,
                "exact_cards" => c.exact_cards = x as usize,
                "leaf_nodes" => c.leaf_nodes = x as u64,
                "opponent_mix" => c.opponent_mix = x.min(1.0),
                "reject_z" => c.reject_z = x,
                "keep_z" => c.keep_z = x,
                "play_beliefs" => c.beliefs.play = x != 0.0,
                "bottom_trump" => c.beliefs.bottom_trump = x.min(1.0),
                "tree" => {
                    if x > 2.0 {
                        return Err(format!("tree is 0, 1 or 2: {item:?}"));
                    }
                    c.tree = x as u8;
                }
                "ucb_c" => c.ucb_c = x,
                "tree_opp" => c.tree_opp = x != 0.0,
                "tree_depth" => c.tree_depth = x as usize,
                _ => match (k.strip_prefix("own."), k.strip_prefix("opp.")) {
                    (Some(knob), _) => c.heuristic.set(knob, x as i64)?,
                    (_, Some(knob)) => c.opponent.set(knob, x as i64)?,
                    _ => return Err(format!("unknown deep search parameter {k:?}")),
                },
            }
        }
        Ok(c)
    }
}

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

/// Cards in the hands and on the table.
fn in_play(game: &Game) -> usize {
    game.hands.iter().map(|h| h.len()).sum::<usize>() + game.round.table.len()
}

/// Plays `game` with the heuristic for every player until the game ends or the talon is empty
/// with at most `exact_cards` cards in play; returns the number of steps.
fn playout_to_small_endgame(
    own: &HeuristicParams,
    opp: &HeuristicParams,
    game: &mut Game,
    exact_cards: usize,
    events: &mut Vec<Event>,
) -> u64 {
    let mut steps = 0;
    while !(game.talon.is_empty() && in_play(game) <= exact_cards) {
        let Some((cmd, ctx)) = Ctx::from_game(game) else {
            break;
        };
        events.clear();
        let hp = if team(ctx.me) == 0 { own } else { opp };
        let a = heuristic_with(hp, cmd, &ctx);
        if game.apply(a, events).is_err() {
            // The heuristic answers from the legal sets; this is a safety net (and no legal
            // answer at all ends the playout).
            let Some(&first) = game.legal_answers().first() else {
                break;
            };
            if game.apply(first, events).is_err() {
                break;
            }
        }
        steps += 1;
    }
    steps
}

/// Plays `game` to the end with the heuristic; returns (team 0 won, steps).
fn playout_to_end(
    own: &HeuristicParams,
    opp: &HeuristicParams,
    game: &mut Game,
    events: &mut Vec<Event>,
) -> (Option<bool>, u64) {
    let mut steps = 0;
    while let Some((cmd, ctx)) = Ctx::from_game(game) {
        events.clear();
        let hp = if team(ctx.me) == 0 { own } else { opp };
        let a = heuristic_with(hp, cmd, &ctx);
        if game.apply(a, events).is_err() {
            let Some(&first) = game.legal_answers().first() else {
                return (None, steps);
            };
            if game.apply(first, events).is_err() {
                return (None, steps);
            }
        }
        steps += 1;
    }
    (game.winner().map(|w| w == 0), steps)
}

/// One position's evaluation for team 0: the exact result when the position was solved (or the
/// game ended on the way there) and the result of one heuristic playout to the end (2 won,
/// 1 cut by the round cap, 0 lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Eval {
    exact: Option<bool>,
    playout: u32,
}

/// The score of one answer in one determinization, for team 0. A solved answer scores 4 for a
/// win and 0 for a loss, plus its playout (0..=2): perfect-play values saturate (against an
/// opponent who sees every card most positions are simply won or lost), so the playout ranks
/// the answers the solver cannot tell apart. An answer whose solve was cut scores three times
/// its playout: the same scale when the solver and the playout agree. (Putting a whole row on
/// the playout scale as soon as one answer's solve was cut, so exact and playout values never
/// mix, measured no different: 73.5% both ways against `bot_greedy.py`, 200 games, seed
/// 31337.)
fn eval_score(e: &Eval) -> u8 {
    let playout = e.playout.min(2) as u8;
    match e.exact {
        Some(x) => 4 * u8::from(x) + playout,
        None => 3 * playout,
    }
}

/// Evaluates one position for team 0 (see [`Eval`]). Returns the evaluation and its work.
fn evaluate(
    cfg: &DeepConfig,
    opp: &HeuristicParams,
    solver: &mut Solver,
    mut game: Game,
    root_cap: u64,
    events: &mut Vec<Event>,
) -> (Eval, u64) {
    let mut work = 0;
    let cap = if game.talon.is_empty() && in_play(&game) <= cfg.root_cards {
        root_cap
    } else {
        work += playout_to_small_endgame(&cfg.heuristic, opp, &mut game, cfg.exact_cards, events);
        cfg.leaf_nodes
    };
    if let Some(w) = game.winner() {
        let won = w == 0;
        return (
            Eval {
                exact: Some(won),
                playout: 2 * u32::from(won),
            },
            work,
        );
    }
    let mut nodes = cap;
    let exact = solver.solve(&game, &mut nodes);
    work += cap - nodes;
    let (v, steps) = playout_to_end(&cfg.heuristic, opp, &mut game, events);
    work += steps;
    let playout = v.map_or(1, |v| 2 * u32::from(v));
    (Eval { exact, playout }, work)
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
    let base = ctx
        .tracker
        .sample_with(ctx.cmd, &cfg.beliefs, &mut *ctx.rng)?;
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
        assert_eq!(
            (t.tree, t.ucb_c, t.tree_opp, t.tree_depth),
            (2, 0.5, true, 3)
        );
        assert_eq!(DeepConfig::parse("tree=0").unwrap().tree, 0);
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
