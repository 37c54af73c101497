//! Determinized search (perfect-information Monte Carlo): sample full deals consistent with
//! what the bot has seen ([`Tracker::sample_game`]), play every legal answer out to the end of
//! the game with the heuristic policy for all four players (so the partner is modelled by the
//! same program's policy), and keep the answer that wins most often.

use std::time::{Duration, Instant};

use rand::{Rng, RngExt};

use super::protocol::Command;
use super::rules::{team, Answer, Event, Game};
use super::strategy::{heuristic_with, Ctx, HeuristicParams};
use super::tracker::Tracker;

/// Search settings.
#[derive(Debug, Clone, Copy)]
pub struct SearchConfig {
    /// Determinizations per decision at most.
    pub samples: usize,
    /// Wall-clock cap per decision.
    pub max_decision: Duration,
    /// Share of the game's time budget (2 s + 0.1 s per round) the bot allows itself.
    pub budget_share: f64,
    /// The heuristic's knobs (the policy of [`Strategy::Heuristic`](super::Strategy) and of
    /// the playouts).
    pub heuristic: HeuristicParams,
    /// An alternative model of the opponents...
    pub opponent: HeuristicParams,
    /// ...used in this share of the determinizations (the others model the opponents with
    /// [`SearchConfig::heuristic`], like the own team): a hedge over unknown opponents.
    pub opponent_mix: f64,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            samples: 48,
            max_decision: Duration::from_millis(20),
            budget_share: 0.3,
            heuristic: HeuristicParams::default(),
            opponent: HeuristicParams::plain(),
            opponent_mix: 0.5,
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
            let first = game.legal_answers()[0];
            if game.apply(first, events).is_err() {
                return None;
            }
        }
    }
    game.winner()
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
        for (i, &a) in legal.iter().enumerate() {
            let mut g = base.clone();
            events.clear();
            if g.apply(a, &mut events).is_err() {
                continue;
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
