//! The evaluation of one determinization's position for the deep search: heuristic playouts
//! to a small endgame or to the end, and the exact solver (a leaf of [`super`]: the flat
//! search and the trees both use it).

use super::config::DeepConfig;
use crate::durak::bot::endgame::Solver;
use crate::durak::bot::strategy::{heuristic_with, Ctx, HeuristicParams};
use crate::durak::rules::{team, Event, Game};

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
pub(super) struct Eval {
    /// The exact result, when solved.
    pub(super) exact: Option<bool>,
    /// The playout's result: 2 won, 1 cut by the round cap, 0 lost.
    pub(super) playout: u32,
}

/// The score of one answer in one determinization, for team 0. A solved answer scores 4 for a
/// win and 0 for a loss, plus its playout (0..=2): perfect-play values saturate (against an
/// opponent who sees every card most positions are simply won or lost), so the playout ranks
/// the answers the solver cannot tell apart. An answer whose solve was cut scores three times
/// its playout: the same scale when the solver and the playout agree. (Putting a whole row on
/// the playout scale as soon as one answer's solve was cut, so exact and playout values never
/// mix, measured no different: 73.5% both ways against `bot_greedy.py`, 200 games, seed
/// 31337.)
pub(super) fn eval_score(e: &Eval) -> u8 {
    let playout = e.playout.min(2) as u8;
    match e.exact {
        Some(x) => 4 * u8::from(x) + playout,
        None => 3 * playout,
    }
}

/// Evaluates one position for team 0 (see [`Eval`]), playing it out in place. Returns the
/// evaluation and its work.
pub(super) fn evaluate(
    cfg: &DeepConfig,
    opp: &HeuristicParams,
    solver: &mut Solver,
    game: &mut Game,
    root_cap: u64,
    events: &mut Vec<Event>,
) -> (Eval, u64) {
    let mut work = 0;
    let cap = if game.talon.is_empty() && in_play(game) <= cfg.root_cards {
        root_cap
    } else {
        work += playout_to_small_endgame(&cfg.heuristic, opp, game, cfg.exact_cards, events);
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
    let exact = solver.solve(game, &mut nodes);
    work += cap - nodes;
    let (v, steps) = playout_to_end(&cfg.heuristic, opp, game, events);
    work += steps;
    let playout = v.map_or(1, |v| 2 * u32::from(v));
    (Eval { exact, playout }, work)
}
