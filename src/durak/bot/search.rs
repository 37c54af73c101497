//! Determinized search (perfect-information Monte Carlo): sample full deals consistent with
//! what the bot has seen ([`Tracker::sample_game`]), play every legal answer out to the end of
//! the game with the heuristic policy for all four players (so the partner is modelled by the
//! same program's policy), and keep the answer that wins most often.

use std::time::{Duration, Instant};

use rand::{Rng, RngExt};

use super::deep::DeepConfig;
use super::strategy::{heuristic_with, Ctx, HeuristicParams};
use super::tracker::Tracker;
use crate::durak::protocol::Command;
use crate::durak::rules::{team, Answer, Event, Game, Pending};

/// Search settings.
#[derive(Debug, Clone, Copy)]
pub struct SearchConfig {
    /// Determinizations per decision at most.
    pub samples: usize,
    /// Wall-clock safety net per decision (the sample cap is meant to bind, so answers
    /// replay; this only fires on a starved machine).
    pub max_decision: Duration,
    /// Share of the game's time budget (2 s + 0.1 s per round) the bot allows itself.
    pub budget_share: f64,
    /// The heuristic's knobs (the policy of [`Strategy::Heuristic`](crate::durak::Strategy) and of
    /// the playouts).
    pub heuristic: HeuristicParams,
    /// Solve exactly (perfect information, both teams optimal) once the talon is empty and at
    /// most this many cards remain in the hands and on the table; 0 disables.
    pub exact_cards: usize,
    /// Node limit of one exact solve; over it, the sample falls back to a playout.
    pub exact_nodes: u32,
    /// An alternative model of the opponents...
    pub opponent: HeuristicParams,
    /// ...used in this share of the determinizations (the others model the opponents with
    /// [`SearchConfig::heuristic`], like the own team): a hedge over unknown opponents.
    pub opponent_mix: f64,
    /// The settings of [`Strategy::Deep`](crate::durak::Strategy) (carried here so a tournament's
    /// in-process team spec holds every strategy's settings).
    pub deep: DeepConfig,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            samples: 160,
            max_decision: Duration::from_millis(200),
            budget_share: 0.3,
            heuristic: HeuristicParams::default(),
            exact_cards: 6,
            exact_nodes: 1500,
            opponent: HeuristicParams::plain(),
            opponent_mix: 0.5,
            deep: DeepConfig::default(),
        }
    }
}

/// Plays `game` to the end with the heuristic for every player (`own` knobs for team 0,
/// `opp` for team 1); returns the winning team.
pub fn playout(
    own: &HeuristicParams,
    opp: &HeuristicParams,
    game: &mut Game,
    events: &mut Vec<Event>,
) -> Option<usize> {
    while let Some((cmd, ctx)) = Ctx::from_game(game) {
        events.clear();
        let hp = if team(ctx.me) == 0 { own } else { opp };
        let a = heuristic_with(hp, cmd, &ctx);
        if game.apply(a, events).is_err() {
            // The heuristic only answers from the legal sets; this is a safety net.
            // No legal answer at all (a team out of the game) ends the playout.
            let &first = game.legal_answers().first()?;
            if game.apply(first, events).is_err() {
                return None;
            }
        }
    }
    game.winner()
}

/// Whether team 0 wins `game` when all four play perfectly with all cards known (boolean
/// minimax: team 0 needs one winning answer, team 1 needs one losing answer for team 0).
/// `None` once `nodes` is used up. A capped game counts as not won.
pub fn solve(game: &Game, nodes: &mut u32, events: &mut Vec<Event>) -> Option<bool> {
    let p = match game.pending {
        Pending::Over(w) => return Some(w == Some(0)),
        Pending::Move(p) | Pending::Beat(p) | Pending::Add(p) => p,
    };
    if *nodes == 0 {
        return None;
    }
    *nodes -= 1;
    let maximize = team(p) == 0;
    let mut answers = game.legal_answers();
    // Try the heuristic's choice first: it is often best, which makes cut-offs early.
    if let Some((cmd, ctx)) = Ctx::from_game(game) {
        let h = heuristic_with(&HeuristicParams::default(), cmd, &ctx);
        if let Some(i) = answers.iter().position(|&a| a == h) {
            answers.swap(0, i);
        }
    }
    for a in answers {
        let mut g = game.clone();
        events.clear();
        if g.apply(a, events).is_err() {
            continue;
        }
        let v = solve(&g, nodes, events)?;
        if v == maximize {
            return Some(v);
        }
    }
    Some(!maximize)
}

/// The search's answer for player 0 of `tracker` to `cmd`, stopping at `deadline`.
pub fn search<R: Rng + ?Sized>(
    tracker: &Tracker,
    cmd: Command,
    legal: &[Answer],
    default: Answer,
    cfg: &SearchConfig,
    deadline: Instant,
    rng: &mut R,
) -> Answer {
    if legal.len() <= 1 {
        return legal.first().copied().unwrap_or(default);
    }
    let mut wins = vec![0u32; legal.len()];
    let mut n = 0u32;
    let mut events = Vec::with_capacity(64);
    for _ in 0..cfg.samples {
        if Instant::now() >= deadline {
            break;
        }
        let Some(base) = tracker.sample_game(cmd, rng) else {
            break;
        };
        let opp = if rng.random_bool(cfg.opponent_mix.clamp(0.0, 1.0)) {
            &cfg.opponent
        } else {
            &cfg.heuristic
        };
        let in_play: usize =
            base.hands.iter().map(|h| h.len()).sum::<usize>() + base.round.table.len();
        let exact = base.talon.is_empty() && in_play <= cfg.exact_cards;
        for (i, &a) in legal.iter().enumerate() {
            let mut g = base.clone();
            events.clear();
            if g.apply(a, &mut events).is_err() {
                continue;
            }
            if exact {
                let mut nodes = cfg.exact_nodes;
                if let Some(v) = solve(&g, &mut nodes, &mut events) {
                    wins[i] += 2 * u32::from(v);
                    continue;
                }
            }
            if let Some(w) = playout(&cfg.heuristic, opp, &mut g, &mut events) {
                if w == team(0) {
                    wins[i] += 2;
                }
            } else {
                wins[i] += 1;
            }
        }
        n += 1;
    }
    if n == 0 {
        return default;
    }
    let default_ix = legal.iter().position(|&a| a == default);
    let mut best = default_ix.unwrap_or(0);
    for i in 0..legal.len() {
        if wins[i] > wins[best] {
            best = i;
        }
    }
    legal[best]
}
