//! The contest search ([`Strategy::Deep`](crate::durak::Strategy)): determinized search whose every
//! determinization is evaluated to the end of the game with an exact endgame.
//!
//! For each decision it samples full deals consistent with what the bot has seen and inferred
//! ([`Tracker::sample_game`]: the cards a defender showed he lacks by taking are kept out of his
//! hand), applies every legal answer to each, and scores the answer by who wins from there:
//! - with the talon empty, by exact team minimax ([`Solver`], transposition table kept across
//!   the game);
//! - with cards in the talon, by a heuristic playout of all four players up to the moment the
//!   talon runs out, then by the exact solver (the playout finishes the game only when the
//!   endgame is too large for its node cap).
//!
//! Costs are counted in work units (one playout step or one solver node), so a decision's
//! effort is a deterministic function of the seed and the lines seen: the same inputs give the
//! same answers. [`DeepConfig::units_per_second`] converts the rules' time budget
//! (2 s + 0.1 s x rounds) into work units; the wall clock is only a safety net, logged when
//! it fires.

use std::time::Instant;

use rand::{Rng, RngExt};

use super::endgame::Solver;
use super::strategy::{heuristic_with, Ctx, HeuristicParams};
use super::tracker::Tracker;
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
    /// 2-core machine shared by several jobs: 1.2 to 2.7 million per second).
    pub units_per_second: f64,
    /// Share of the budget after which the wall-clock safety net cuts a decision short.
    pub hard_share: f64,
    /// Determinizations per decision at most.
    pub max_samples: usize,
    /// Determinizations per decision at least, when the work cap allows one per answer.
    pub min_samples: usize,
    /// Node cap of one root answer's exact solve (talon empty at the decision).
    pub root_nodes: u64,
    /// Solve a decision's positions exactly when the talon is empty and at most this many
    /// cards are in the hands and on the table (larger endgames rarely finish within
    /// [`DeepConfig::root_nodes`]: measured, 16-19 cards need a median 55,000 nodes).
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
        }
    }
}

impl DeepConfig {
    /// Reads `key=value` pairs separated by commas over the defaults (keys: the field names
    /// other than the heuristics').
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
                _ => return Err(format!("unknown deep search parameter {k:?}")),
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

/// Scores one position for team 0. An exactly solved position scores 4 for a win and 0 for a
/// loss, plus the result of one heuristic playout from it (2 won, 0 lost): perfect-play values
/// saturate (against an opponent who sees every card most positions are simply won or
/// lost), so the playout ranks the answers the solver cannot tell apart. A position not
/// solved scores twice its playout (0, 1 for a capped playout, 2): the same scale when the
/// solver and the playout agree. Returns (score, work).
fn evaluate(
    cfg: &DeepConfig,
    opp: &HeuristicParams,
    solver: &mut Solver,
    mut game: Game,
    root_cap: u64,
    events: &mut Vec<Event>,
) -> (u32, u64) {
    let mut work = 0;
    let cap = if game.talon.is_empty() && in_play(&game) <= cfg.root_cards {
        root_cap
    } else {
        work += playout_to_small_endgame(&cfg.heuristic, opp, &mut game, cfg.exact_cards, events);
        cfg.leaf_nodes
    };
    if let Some(w) = game.winner() {
        return (if w == 0 { 6 } else { 0 }, work);
    }
    let mut nodes = cap;
    let exact = solver.solve(&game, &mut nodes);
    work += cap - nodes;
    let (v, steps) = playout_to_end(&cfg.heuristic, opp, &mut game, events);
    work += steps;
    let p = v.map_or(1, |v| 2 * u32::from(v));
    match exact {
        Some(e) => (4 * u32::from(e) + p, work),
        None => (3 * p, work),
    }
}

/// The deep search's answer for player 0 of `tracker` to `cmd`: at most `work_cap` work units
/// (the cap binds). `deadline` is the clock's safety net: polled before every answer's
/// evaluation and every 1024 solver nodes; when it passes, the decision ends with the
/// determinizations completed so far (`clock_cut` in the stats).
/// `default` is the answer kept on ties (the heuristic's).
#[allow(clippy::too_many_arguments)]
pub fn deep_search<R: Rng + ?Sized>(
    tracker: &Tracker,
    cmd: Command,
    legal: &[Answer],
    default: Answer,
    cfg: &DeepConfig,
    solver: &mut Solver,
    work_cap: u64,
    deadline: Option<Instant>,
    rng: &mut R,
) -> (Answer, DecisionStats) {
    let mut stats = DecisionStats::default();
    if legal.len() <= 1 {
        return (legal.first().copied().unwrap_or(default), stats);
    }
    solver.deadline = deadline;
    let mut score = vec![0u64; legal.len()];
    let mut sample_score = vec![0u64; legal.len()];
    let mut events = Vec::with_capacity(64);
    while stats.samples < cfg.max_samples {
        if stats.work >= work_cap && stats.samples >= cfg.min_samples {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stats.clock_cut = true;
            break;
        }
        let Some(base) = tracker.sample_game(cmd, rng) else {
            break;
        };
        let opp = if rng.random_bool(cfg.opponent_mix.clamp(0.0, 1.0)) {
            cfg.opponent
        } else {
            cfg.heuristic
        };
        // A root solve may use what is left of the decision's cap, within its own cap.
        let left = work_cap.saturating_sub(stats.work) / legal.len() as u64;
        let root_cap = cfg.root_nodes.min(left.max(cfg.leaf_nodes));
        // The safety net is polled before every answer's evaluation (one evaluation costs at
        // most a root solve's cap plus a playout); a determinization cut short is dropped so
        // every answer is scored on the same determinizations.
        sample_score.iter_mut().for_each(|x| *x = 0);
        for (i, &a) in legal.iter().enumerate() {
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
            let (s, w) = evaluate(cfg, &opp, solver, g, root_cap, &mut events);
            sample_score[i] = u64::from(s);
            stats.work += w;
        }
        if stats.clock_cut {
            break;
        }
        for (total, s) in score.iter_mut().zip(&sample_score) {
            *total += s;
        }
        stats.samples += 1;
    }
    if stats.samples == 0 {
        return (default, stats);
    }
    let mut best = legal.iter().position(|&a| a == default).unwrap_or(0);
    for i in 0..legal.len() {
        if score[i] > score[best] {
            best = i;
        }
    }
    (legal[best], stats)
}
