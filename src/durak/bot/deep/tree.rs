//! The information-set trees' Durak adapter: one determinization's walk ([`Walk`]) through
//! the shared single-observer ISMCTS ([`crate::search::ismcts`]; Cowling, Powley and
//! Whitehouse 2012), rooted below each of the bot's answers.
//!
//! A node stands for a sequence of answers (who answered what), never for a determinized
//! state: each iteration walks the tree with its own determinization. Our team's decisions
//! (ours and the partner's) choose by UCB1 with availability counts, and so does an opponent
//! seen breaking the rules the playout policy assumes
//! ([`SearchSettings::tree_opp`](super::SearchSettings::tree_opp)); the other opponents'
//! decisions follow the determinization's playout policy, their answers being edges of the
//! tree like ours. An untried answer is tried first, the policy's own before the others
//! (drawn at random). Each iteration adds at most one node and evaluates the position reached
//! like the flat search evaluates an answer: heuristic playout to a small empty-talon endgame,
//! then the exact solver ([`super::eval`]).
//!
//! What is left of the determinizations' clairvoyance: the evaluation below a tree's leaves
//! (the playout policy and the solver see the determinized cards), and the nodes' keys, which
//! are the answers only (the availability counts absorb the answers a determinization makes
//! legal or not).

use rand::{Rng, RngExt};

use super::config::DeepConfig;
use super::eval::{eval_score, evaluate};
use crate::durak::bot::endgame::Solver;
use crate::durak::bot::strategy::{heuristic_with, Ctx, HeuristicParams};
use crate::durak::rules::{team, Answer, Event, Game};
use crate::search::ismcts::{self, Step};

/// Team 0's score of a finished game on the evaluation's 0..=6 scale.
fn final_score(game: &Game) -> Option<f64> {
    game.winner().map(|w| if w == 0 { 6.0 } else { 0.0 })
}

/// One iteration's walk: the determinization's position as the tree descends, and what the
/// evaluation of its leaf needs.
pub(super) struct Walk<'a> {
    /// The position reached (the root answer applied to the determinization, then the
    /// answers walked).
    pub game: Game,
    /// The search's settings.
    pub cfg: &'a DeepConfig,
    /// The opponents' policy in this determinization.
    pub opp: &'a HeuristicParams,
    /// The players whose decisions choose by UCB1 although they are opponents.
    pub searching: [bool; 4],
    /// The exact solver (its table shared with the rest of the game).
    pub solver: &'a mut Solver,
    /// Node cap of an exact solve of a leaf with few cards (as the flat search's root solve).
    pub root_cap: u64,
    /// Scratch space for [`Game::apply`].
    pub events: &'a mut Vec<Event>,
    /// Searching decisions walked so far (at most [`SearchSettings::tree_depth`]).
    ///
    /// [`SearchSettings::tree_depth`]: super::SearchSettings::tree_depth
    pub depth: usize,
    /// Answers applied in the tree: one work unit each.
    pub steps: u64,
}

impl Walk<'_> {
    /// The playout policy of player `p` in this determinization.
    fn policy(&self, p: usize) -> &HeuristicParams {
        if team(p) == 0 {
            &self.cfg.heuristic
        } else {
            self.opp
        }
    }
}

impl<R: Rng + ?Sized> ismcts::Walk<R> for Walk<'_> {
    type Action = Answer;
    const LIST_LEGAL: bool = false;

    fn step(&mut self, _rng: &mut R) -> Step<Answer> {
        let Some((cmd, ctx)) = Ctx::from_game(&self.game) else {
            return Step::End(final_score(&self.game).unwrap_or(0.0));
        };
        let p = ctx.me;
        // The answers are listed only where the tree may branch; the policy's answer
        // elsewhere is checked directly (a playout step's cost).
        if team(p) == 0 || self.searching[p] {
            let legal = self.game.legal_answers();
            if legal.len() > 1 {
                if self.depth >= self.cfg.tree_depth {
                    return Step::Leaf;
                }
                self.depth += 1;
                return Step::Choose { player: p, legal };
            }
        }
        let mut action = heuristic_with(self.policy(p), cmd, &ctx);
        if !self.game.is_legal(action) {
            action = self
                .game
                .legal_answers()
                .first()
                .copied()
                .unwrap_or(Answer::No);
        }
        Step::Follow { player: p, action }
    }

    fn apply(&mut self, _player: usize, action: Answer, _rng: &mut R) -> Result<Option<f64>, ()> {
        self.events.clear();
        self.game.apply(action, self.events).map_err(|_| ())?;
        self.steps += 1;
        Ok(final_score(&self.game))
    }

    fn leaf(&mut self, _rng: &mut R) -> (f64, u64) {
        if let Some(v) = final_score(&self.game) {
            return (v, 0);
        }
        let (e, work) = evaluate(
            self.cfg,
            self.opp,
            self.solver,
            &mut self.game,
            self.root_cap,
            self.events,
        );
        (f64::from(eval_score(&e)), work)
    }

    fn first_try(&mut self, player: usize, untried: &[Answer], rng: &mut R) -> usize {
        let own = Ctx::from_game(&self.game)
            .map(|(cmd, ctx)| heuristic_with(self.policy(player), cmd, &ctx));
        match untried.iter().position(|&a| Some(a) == own) {
            Some(i) => i,
            None => rng.random_range(0..untried.len()),
        }
    }

    fn utility(&self, player: usize, sum: f64, visits: f64) -> f64 {
        let mean = sum / (6.0 * visits);
        if team(player) == 0 {
            mean
        } else {
            1.0 - mean
        }
    }
}
