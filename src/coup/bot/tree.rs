//! The search's tree (`SearchConfig::tree`): the shared information-set Monte
//! Carlo tree search ([`crate::search::ismcts`]; single observer, Cowling,
//! Powley and Whitehouse 2012) on the one engine
//! ([`crate::coup::game::engine`]), through the adapter [`CoupWalk`].
//!
//! Each iteration draws one world from my information state (the caller's
//! sampler: the opponent's hand from the hand posterior, the deck from the
//! cards left) and walks the tree from the root through the real turn
//! structure (action, block, challenge, reveal, the card given up):
//! - at my calls the tree chooses among the answers legal in this world by
//!   UCB1 with availability counts;
//! - at the opponent's calls its answer is drawn from its learnt habits
//!   ([`Policies::opponent`]) given its cards in this world, so the tree is my
//!   best response to the model, not a guess at its reasoning;
//! - an Exchange keep is the rollout policy's ([`Policies::keep`]; the call
//!   that finishes an Exchange has one legal answer and is never searched).
//!
//! One node is added per iteration; from it the game is played out by the
//! rollout policies ([`Policies::playout`]) and cut at the horizon, calls
//! after the root's answer, valued by [`Policies::cut`]. Deterministic: the
//! worlds and the engine's shuffles come from the caller's seeded generator,
//! and the work is capped by the iterations (the clock is a safety net).

use rand_chacha::ChaCha8Rng;

use crate::coup::game::character::Character;
use crate::coup::game::engine::{Cards, State};
use crate::coup::game::protocol::Reply;
use crate::search::ismcts::{Step, Tree, Walk};
use crate::search::{Caps, Progress};

/// What the tree needs of the search besides the engine: the opponent's
/// policy, the Exchange keep, the playout from a leaf and the value at the
/// horizon (the flat search's, in `bot/determinized.rs`).
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

/// One world of the tree: the engine's state, walked from the root.
struct CoupWalk<'a, P> {
    s: State,
    /// The searching seat.
    me: usize,
    /// The call after the root's answer: the horizon counts from it.
    start: usize,
    /// Calls after `start` at which a walk is cut (0: never).
    horizon: usize,
    /// The hand kept at the Exchange due at this step.
    keep: Option<Cards>,
    policies: &'a P,
}

impl<P: Policies> Walk<ChaCha8Rng> for CoupWalk<'_, P> {
    type Action = Reply;
    const LIST_LEGAL: bool = true;

    fn step(&mut self, rng: &mut ChaCha8Rng) -> Step<Reply> {
        let s = &mut self.s;
        if self.horizon > 0 && s.calls >= self.start + self.horizon && super::rollout::may_cut(s) {
            return Step::End(self.policies.cut(s));
        }
        if s.out_of_calls() {
            return Step::End(0.0);
        }
        let seat = s.to_call();
        self.keep = None;
        if s.exchange_due() {
            if !s.draw_exchange() {
                return Step::End(0.0);
            }
            let pool = s.exchange_pool();
            self.keep = Some(self.policies.keep(pool.as_slice(), s.hands[seat].len()));
        }
        let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
            return Step::End(0.0);
        };
        if seat == self.me {
            Step::Choose {
                player: seat,
                legal: legal.as_slice().to_vec(),
            }
        } else {
            let action = self.policies.opponent(s, legal.as_slice(), rng);
            Step::Follow {
                player: seat,
                action,
            }
        }
    }

    fn apply(
        &mut self,
        _player: usize,
        action: Reply,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<f64>, ()> {
        let keep = self.keep.take();
        let end = self
            .s
            .apply(action, keep.as_ref().map(|k| k.as_slice()), rng);
        Ok(end.map(|end| end.reward(self.me)))
    }

    fn leaf(&mut self, rng: &mut ChaCha8Rng) -> (f64, u64) {
        let from = self.s.calls;
        let v = self.policies.playout(&mut self.s, self.start, rng);
        (v, (self.s.calls - from) as u64)
    }

    fn first_try(&mut self, _player: usize, _untried: &[Reply], _rng: &mut ChaCha8Rng) -> usize {
        0
    }

    fn utility(&self, _player: usize, sum: f64, visits: f64) -> f64 {
        sum / visits
    }
}

/// Searches from the root answers `roots` of seat `me` for at most
/// `iterations` iterations (the clock's `deadline` a safety net), drawing
/// worlds with `world`, cut `horizon` calls after the root's answer (0:
/// never), UCB1's constant `exploration`. Returns each root's total reward
/// and visits, in the order of `roots`, and the iterations played.
#[allow(clippy::too_many_arguments)]
pub(super) fn search(
    roots: &[Reply],
    me: usize,
    policies: &impl Policies,
    caps: &Caps,
    exploration: f64,
    horizon: usize,
    world: impl Fn(&mut ChaCha8Rng) -> State,
    rng: &mut ChaCha8Rng,
) -> (Vec<f64>, Vec<usize>, usize) {
    let mut tree = Tree::new(exploration);
    let root = tree.add_root(me, roots);
    let draw = |_: &Progress, rng: &mut ChaCha8Rng| {
        let s = world(rng);
        Some(CoupWalk {
            start: s.calls + 1,
            s,
            me,
            horizon,
            keep: None,
            policies,
        })
    };
    let progress = tree.run(root, caps, draw, rng);
    let (wins, visits) = tree
        .edges(root)
        .iter()
        .take(roots.len())
        .map(|e| (e.sum, e.visits as usize))
        .unzip();
    (wins, visits, progress.samples)
}
