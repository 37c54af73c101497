//! The opponent's Bayesian rates ([`Model`]) from its counts
//! ([`Stats`]): each rate the mean of a Beta posterior whose prior is
//! stated next to it, shrunk level by level (all claims, a kind, a context),
//! the bluff ratios of its claims (challenged, or resolved by expectation
//! maximization), and policy identification of its challenges
//! ([`mixture_rate`]).

use super::claims::{ByListener, ClaimAt, CONTEXTS};
use super::stats::{
    kind_index, pooled, Stats, ACTION_KINDS, BLOCK_KINDS, RACES, RACE_PRIOR_WEIGHT,
};
use crate::coup::game::character::Character;
use crate::coup::game::protocol::{Action, Block};

/// Pseudo-observations a parent level's rate is worth as the prior of the
/// level below it in the model's hierarchical rates (a kind's rate under the
/// rate pooled over kinds, a card count's or a context's under its kind's):
/// two claims, so a level's own counts take over after a few observations,
/// and a level never seen keeps its parent's rate.
pub const LEVEL_PRIOR_WEIGHT: f64 = 2.0;

/// A rate `m` as a Beta prior `(hits, misses)` worth `w` observations.
fn prior_of(m: f64, w: f64) -> (f64, f64) {
    (w * m, w * (1.0 - m))
}

/// The share of bluffs among a player's action claims after `caught` caught
/// bluffs in `tested` claims whose truth was shown: the mean of
/// [`PRIOR_ACTION_BLUFF`] updated by them.
pub fn action_bluff_share_after(caught: u32, tested: u32) -> f64 {
    beta_mean(PRIOR_ACTION_BLUFF, [tested, caught])
}

/// A level's rate `m` (the parent's, as a prior worth [`LEVEL_PRIOR_WEIGHT`]
/// observations) after `e = [trials, hits]` of its own: the posterior mean
/// `(w m + hits) / (w + trials)`.
pub fn level_rate_after(m: f64, e: [u32; 2]) -> f64 {
    beta_mean(prior_of(m, LEVEL_PRIOR_WEIGHT), e)
}

/// A Beta prior `(hits, misses)` in pseudo-observations and its posterior mean
/// after `[trials, hits]`.
fn beta_mean(prior: (f64, f64), e: [u32; 2]) -> f64 {
    (prior.0 + e[1] as f64) / (prior.0 + prior.1 + e[0] as f64)
}

/// A share `f` of bluffs among claims of a character held with probability
/// `hold` ([`P_HOLD_TWO`] in a hand of two, [`P_HOLD_ONE`] of one) as the
/// likelihood ratio of claiming without the card to claiming with it:
/// `f/(1-f) * P/(1-P)`, kept within [0.001, 50].
fn share_to_ratio(f: f64, hold: f64) -> f64 {
    let odds = hold / (1.0 - hold);
    (f / (1.0 - f).max(1e-9) * odds).clamp(1e-3, 50.0)
}

/// The share of bluffs among claims by expectation maximization
/// ([`Model::resolved_action_ratio`]): `known` = `[resolved, bluffs]`,
/// `partly` = claims with one other card shown and one unknown.
///
/// Each such claim was honest with probability `P1 / (P1 + (1 - P1) r)`
/// (`P1` = [`P_HOLD_ONE`], `r` the ratio of the current share): the unseen
/// card taken as a blind draw. The share is the fixed point of the Beta
/// posterior mean with those expected bluffs (a contraction: 50 steps
/// settle it far below 1e-9).
fn em_share(prior: (f64, f64), known: [u32; 2], partly: u32) -> f64 {
    let mut f = beta_mean(prior, known);
    if partly == 0 {
        return f;
    }
    let n = prior.0 + prior.1 + f64::from(known[0]) + f64::from(partly);
    for _ in 0..50 {
        let r = share_to_ratio(f, P_HOLD_TWO);
        let bluff = 1.0 - P_HOLD_ONE / (P_HOLD_ONE + (1.0 - P_HOLD_ONE) * r);
        f = (prior.0 + f64::from(known[1]) + f64::from(partly) * bluff) / n;
    }
    f
}

/// Prior of a challenge of my action claim while the opponent holds two
/// cards: Beta(1, 4), mean 0.2 (a challenge risks a card; most players in the
/// original field challenged a minority of claims).
pub const PRIOR_CHALLENGE: (f64, f64) = (1.0, 4.0);
/// Prior of a challenge of my Assassination while the opponent holds two
/// cards: Beta(1, 9), mean 0.1. A lost challenge of an Assassination costs
/// the challenger both cards (the challenge and the Assassination), the game,
/// so a player challenges one only when it believes a bluff more likely than
/// not; before any evidence, half as often as other claims
/// ([`PRIOR_CHALLENGE`]).
pub const PRIOR_CHALLENGE_ASSASSIN_TWO: (f64, f64) = (1.0, 9.0);
/// Prior of a challenge of my Assassination while the opponent holds one
/// card: Beta(1, 1), mean 0.5 (it loses the game unless it blocks or
/// challenges, so either answer is as likely a priori).
pub const PRIOR_CHALLENGE_ASSASSIN_LAST: (f64, f64) = (1.0, 1.0);
/// Prior of a challenge of my block: Beta(1, 3), mean 0.25 (a wrongly
/// challenged block costs the challenger a card, a caught one two coins or a
/// card; contest bots such as Calculator challenged every block).
pub const PRIOR_CHALLENGE_BLOCK: (f64, f64) = (1.0, 3.0);
/// Prior of the share of bluffs among its challenged action claims:
/// Beta(0.6, 1.4), mean 0.3.
pub const PRIOR_ACTION_BLUFF: (f64, f64) = (0.6, 1.4);
/// Prior of the share of bluffs among its challenged blocks: Beta(0.3, 1.7),
/// mean 0.15 (a caught block costs a card and, against an Assassination with
/// two cards, the game).
pub const PRIOR_BLOCK_BLUFF: (f64, f64) = (0.3, 1.7);
/// Probability that a given character is among two cards drawn from the
/// full 15-card deck: 1 - C(12,2)/C(15,2) = 39/105. Converts a share of
/// bluffs among claims into a likelihood ratio of claiming without the card.
pub const P_HOLD_TWO: f64 = 39.0 / 105.0;
/// Probability that two cards drawn from the full 15-card deck hold at least
/// one of two given characters (a Captain or an Ambassador, either of which
/// blocks a Steal): 1 - C(9,2)/C(15,2) = 69/105.
pub const P_HOLD_EITHER_TWO: f64 = 69.0 / 105.0;
/// Probability that one card drawn from the full 15-card deck is a given
/// character: 3/15. The chance that the unseen card of a partly shown hand
/// is the claimed one ([`Model::resolved_action_ratio`]).
pub const P_HOLD_ONE: f64 = 3.0 / 15.0;

/// Prior weights of the two pure policies in the challenge mixtures of
/// [`Model::identified_challenge_block`]: `(always, never)`. In the original
/// field Calculator challenged every block made against it while stand-ins
/// such as `honest`, `taxman` or `bandit` never challenge one; the rest of
/// the weight is the Beta-rate model of [`Model::challenge_block`].
pub const BLOCK_POLICY_PRIOR: (f64, f64) = (0.3, 0.2);
/// As [`BLOCK_POLICY_PRIOR`] for challenges of my actions
/// ([`Model::identified_action_rate`]): few bots challenge every claim
/// (the `challenger` stand-in), many never do (tax and steal spammers,
/// honest players that only call impossible claims).
pub const ACTION_POLICY_PRIOR: (f64, f64) = (0.1, 0.3);

/// Posterior predictive of a yes/no answer under a mixture of three
/// policies — always yes (prior weight `w.0`), never (`w.1`), and a rate
/// with a Beta `prior` whose prediction is `rate` — after `[trials, hits]`
/// of the same kind of answer. This is Bayesian policy identification: one
/// answer that contradicts a pure policy rules it out, a run of answers
/// that fits one makes it likely.
pub fn mixture_rate(w: (f64, f64), prior: (f64, f64), e: [u32; 2], rate: f64) -> f64 {
    let [t, k] = e;
    let t = t.min(400);
    let k = k.min(t);
    // log of the Beta-binomial likelihood of the exact sequence.
    let mut ll = 0.0;
    for j in 0..k {
        ll += (prior.0 + j as f64).ln();
    }
    for j in 0..(t - k) {
        ll += (prior.1 + j as f64).ln();
    }
    for j in 0..t {
        ll -= (prior.0 + prior.1 + j as f64).ln();
    }
    let wa = if k == t { w.0 } else { 0.0 };
    let wn = if k == 0 { w.1 } else { 0.0 };
    let wb = (1.0 - w.0 - w.1).max(0.0) * ll.exp();
    let z = wa + wn + wb;
    if z <= 0.0 {
        return rate;
    }
    (wa + wb * rate) / z
}

/// The opponent's behaviour rates: this game's counts plus past games'.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Model {
    /// Counts, this game and memory together.
    pub stats: Stats,
}

impl Model {
    /// This game's counts plus `memory` (past games against this opponent).
    pub fn new(game: &Stats, memory: Option<&Stats>) -> Model {
        let mut stats = *game;
        if let Some(m) = memory {
            stats.add(m);
        }
        Model { stats }
    }

    /// Probability that it challenges my action claim `a` (one of
    /// [`ACTION_KINDS`]; 0 for any other action) while it holds `opp_cards`
    /// cards. With one card the Assassination has its own prior; every rate
    /// pools both card counts as a prior worth two claims.
    pub fn challenge_action(&self, a: Action, opp_cards: usize) -> f64 {
        let Some(k) = kind_index(&ACTION_KINDS, a) else {
            return 0.0;
        };
        let prior = if a == Action::Assassinate && opp_cards <= 1 {
            PRIOR_CHALLENGE_ASSASSIN_LAST
        } else if a == Action::Assassinate {
            PRIOR_CHALLENGE_ASSASSIN_TWO
        } else {
            PRIOR_CHALLENGE
        };
        let both = self.stats.challenged[k];
        let pooled = beta_mean(PRIOR_CHALLENGE, pooled(&both));
        let here = both[(opp_cards >= 2) as usize];
        // The card count's prior mean and the pooled rate, weighed equally.
        let m = (prior.0 / (prior.0 + prior.1) + pooled) / 2.0;
        level_rate_after(m, here)
    }

    /// [`Model::challenge_action`] in one race standing ([`race_standing`](super::opponent::race_standing)
    /// of its coins against mine): that rate as a prior worth
    /// [`RACE_PRIOR_WEIGHT`] claims, then its answers in that standing.
    pub fn challenge_action_at(&self, a: Action, opp_cards: usize, race: usize) -> f64 {
        let Some(k) = kind_index(&ACTION_KINDS, a) else {
            return 0.0;
        };
        let m = self.challenge_action(a, opp_cards);
        let here = self.stats.challenged_race[k][(opp_cards >= 2) as usize][race.min(RACES - 1)];
        let w = RACE_PRIOR_WEIGHT;
        beta_mean(prior_of(m, w), here)
    }

    /// Probability that it challenges my block `b`: its rate for this kind
    /// of block with its rate for all blocks as a prior worth two.
    pub fn challenge_block(&self, b: Block) -> f64 {
        let pooled = beta_mean(PRIOR_CHALLENGE_BLOCK, pooled(&self.stats.block_challenged));
        match kind_index(&BLOCK_KINDS, b) {
            Some(k) => level_rate_after(pooled, self.stats.block_challenged[k]),
            None => pooled,
        }
    }

    /// [`Model::challenge_block`] under policy identification
    /// ([`mixture_rate`], [`BLOCK_POLICY_PRIOR`]): all its answers to my
    /// blocks, this game and memory, decide between "challenges every
    /// block", "never challenges one" and the rate model.
    pub fn identified_challenge_block(&self, b: Block) -> f64 {
        mixture_rate(
            BLOCK_POLICY_PRIOR,
            PRIOR_CHALLENGE_BLOCK,
            pooled(&self.stats.block_challenged),
            self.challenge_block(b),
        )
    }

    /// A rate of challenging my action claims (the rate model's:
    /// [`Model::challenge_action`], [`Model::challenge_action_at`]) under
    /// policy identification over all its answers to my action claims.
    pub fn identified_action_rate(&self, rate: f64) -> f64 {
        mixture_rate(
            ACTION_POLICY_PRIOR,
            PRIOR_CHALLENGE,
            pooled(self.stats.challenged.iter().flatten()),
            rate,
        )
    }

    /// Likelihood ratio P(claim | lacks the card) / P(claim | holds it) for
    /// its action claims of `c`, from the share of bluffs among its
    /// challenged claims (all characters pooled as a prior worth two): a
    /// share `f` among claims of a character held with probability
    /// [`P_HOLD_TWO`] means a ratio `f/(1-f) * P/(1-P)`.
    pub fn action_bluff_ratio(&self, c: Character) -> f64 {
        Self::ratio(&self.stats.action_caught, c, PRIOR_ACTION_BLUFF)
    }

    /// [`Model::action_bluff_ratio`] for its blocks.
    pub fn block_bluff_ratio(&self, c: Character) -> f64 {
        Self::ratio(&self.stats.block_caught, c, PRIOR_BLOCK_BLUFF)
    }

    /// Likelihood ratio P(claim | lacks the card) / P(claim | holds it) for
    /// its first action claim of `c` in a hand, in the claim's context
    /// `at`, from its claims whose truth the history showed
    /// ([`Stats::resolved_action`], challenged or not) and those of which
    /// one other card was shown ([`Stats::unresolved_action`]), by
    /// expectation maximization: the share of bluffs is the
    /// Beta posterior mean of the known bluffs plus, for each partly shown
    /// claim, the probability that it was a bluff given the share (honest
    /// only if the unseen card is the claimed one, a card drawn with
    /// probability [`P_HOLD_ONE`]). Shrunk in levels, each a prior worth
    /// two for the next: all its claims, the character's, the character's
    /// against my cards, then (when given) against my cards with its own
    /// card count ([`claim_context`](super::opponent::claim_context)).
    /// Converted as in [`Model::action_bluff_ratio`], with the chance of
    /// holding the card in a hand of its cards when they are given
    /// ([`P_HOLD_ONE`] for one card).
    pub fn resolved_action_ratio(&self, c: Character, at: ClaimAt) -> f64 {
        let s = &self.stats;
        self.em_ratio(
            &s.resolved_action,
            &s.unresolved_action,
            c,
            at,
            PRIOR_ACTION_BLUFF,
        )
    }

    /// [`Model::resolved_action_ratio`] for its blocks
    /// ([`Stats::resolved_block`], [`Stats::unresolved_block`]).
    pub fn resolved_block_ratio(&self, c: Character, at: ClaimAt) -> f64 {
        let s = &self.stats;
        self.em_ratio(
            &s.resolved_block,
            &s.unresolved_block,
            c,
            at,
            PRIOR_BLOCK_BLUFF,
        )
    }

    /// The share of [`Model::resolved_action_ratio`], shrunk level by level
    /// over the contexts that match more and more of `at`, as a likelihood
    /// ratio.
    fn em_ratio(
        &self,
        known: &ByListener,
        open: &ByListener,
        c: Character,
        at: ClaimAt,
        prior: (f64, f64),
    ) -> f64 {
        let i = c.index();
        let all = em_share(
            prior,
            pooled(known.iter().flatten()),
            open.iter().flatten().map(|e| e[1]).sum(),
        );
        let mut f = em_share(
            prior_of(all, LEVEL_PRIOR_WEIGHT),
            pooled(&known[i]),
            open[i].iter().map(|e| e[1]).sum(),
        );
        // The levels below the character's: its contexts against my cards,
        // then those with its own cards too (when `at` gives them).
        let fits = |k: usize, level: usize| {
            k % 2 == at.mine.clamp(1, 2) - 1
                && (level < 2 || at.claimant.is_none_or(|n| (k / 2) % 2 == n.clamp(1, 2) - 1))
        };
        for level in 1..=2 {
            if level == 2 && at.claimant.is_none() {
                continue;
            }
            let cells = (0..CONTEXTS).filter(|&k| fits(k, level));
            f = em_share(
                prior_of(f, LEVEL_PRIOR_WEIGHT),
                pooled(cells.clone().map(|k| &known[i][k])),
                cells.map(|k| open[i][k][1]).sum(),
            );
        }
        let hold = match at.claimant {
            Some(1) => P_HOLD_ONE,
            _ => P_HOLD_TWO,
        };
        share_to_ratio(f, hold)
    }

    fn ratio(tests: &[[u32; 2]; 5], c: Character, prior: (f64, f64)) -> f64 {
        let pooled = beta_mean(prior, pooled(tests));
        share_to_ratio(level_rate_after(pooled, tests[c.index()]), P_HOLD_TWO)
    }
}
