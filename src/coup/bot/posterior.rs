//! The hand posterior the search's worlds are drawn from: the opponent's
//! learnt bluff ratios ([`bluff_ratios`], `Ctx::search_ratios`), the hand
//! distribution they weigh (`Ctx::opponent_hands`), its marginals
//! ([`marginals`]), how doubtful my claims look from the public record
//! (`Ctx::public_doubt`), and the pending claim read through the claimant's
//! eyes (`Ctx::read_mind`, [`SearchConfig::mind`]) and by its situation
//! (`Ctx::claim_features`, [`SearchConfig::recalibrate`]).

use rand::RngExt;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::config::{fixed, SearchConfig};
use super::model::{
    hand_distribution, hand_distribution_chosen, PassWeights, EXCHANGE_RANK, HALF_PASS,
    PASSED_OVER_WEIGHT,
};
use super::opponent::{kind_index, ClaimAt, Model, ACTION_KINDS, BLOCK_KINDS};
use super::rollout::{bluff_ratios, playout, Habits};
use super::view::Ctx;
use crate::coup::game::character::Character;
use crate::coup::game::engine::State;
use crate::coup::game::history::calls_made;
use crate::coup::game::protocol::Reply;
use Character::Contessa;

/// The probability that the opponent holds at least one of each character
/// (index of [`Character::index`]) under the weighted `hands`; zeros when
/// no hand has weight.
pub(super) fn marginals(hands: &[(Vec<Character>, f64)]) -> [f64; 5] {
    let total: f64 = hands.iter().map(|h| h.1).sum();
    let mut p = [0.0; 5];
    if total <= 0.0 {
        return p;
    }
    for (hand, w) in hands {
        for c in Character::ALL {
            if hand.contains(&c) {
                p[c.index()] += w / total;
            }
        }
    }
    p
}

/// The recalibration's weights ([`Ctx::opponent_hands`]), a row per kind
/// of action claim: Exchange, Tax, Steal, Assassinate. Logistic regressions
/// of the claims' truth on their features, fitted by
/// `scripts/coup-recalibrate.py` on the games of `a044045` against Seer,
/// Seer-bluffer and Seer-passive at arbiter3 seeds 19-47 (24 runs, 15,281
/// claims). On the held-out styles' claims there the Brier score went from
/// 0.197 to 0.167 (caller) and from 0.080 to 0.068 (honest; its base rate:
/// 0.063), see `docs/coup.md`, "Reading the opponent's claims".
#[rustfmt::skip]
const RECALIBRATION: [[f64; 12]; 4] = [
    [0.222, 0.441, 0.064, 0.664, -0.505, -0.276, -1.605, -0.090, 0.631, 1.094, 0.128, 0.101],
    [-0.160, 0.261, 0.447, -0.029, -0.060, 0.530, -0.109, -0.682, 0.054, -0.256, 0.078, 0.196],
    [0.433, 0.478, 0.250, 0.083, -0.776, 0.114, -1.661, -0.203, 0.233, 0.024, 0.849, 0.048],
    [-0.342, 0.134, 0.317, -1.065, -0.614, 0.091, 0.164, -0.008, 0.341, -0.562, 0.000, 0.338],
];

/// A pending claim's row and features ([`Ctx::claim_features`]).
pub(super) type Situation = (usize, [f64; 12]);

impl Ctx<'_> {
    /// Likelihood ratios P(claim | lacks the card) / P(claim | holds it) of
    /// the opponent's standing claims, per character, for the hand
    /// posterior: its action claims' ratio ([`Model::action_bluff_ratio`],
    /// from the share of bluffs among its challenged actions), except a
    /// Contessa (only ever a block) and a block it has just made (the last
    /// character of `line`), which take its blocks' ratio
    /// ([`Model::block_bluff_ratio`]); with [`SearchConfig::resolved_bluffs`]
    /// the ratios of its resolved claims against as many cards as I hold
    /// now. Learnt by `model` (an empty one gives the priors' ratios).
    fn search_ratios(&self, model: &Model, line: &[char], config: &SearchConfig) -> [f64; 5] {
        let (action, block) = bluff_ratios(config);
        let mine = self.h.me.cards_left();
        let pooled = ClaimAt::against(mine);
        let mut r = Character::ALL.map(|c| action(model, c, pooled).min(1.0));
        r[Contessa.index()] = block(model, Contessa, pooled).min(1.0);
        // The claim I am answering, by the claimant's cards when the
        // configuration says so.
        let at = ClaimAt {
            mine,
            claimant: config.claimant_cards.then(|| self.h.opp.cards_left()),
        };
        match line.last().and_then(|&c| Reply::from_code(c)) {
            Some(Reply::Block(b)) => {
                let c = b.character();
                r[c.index()] = block(model, c, at).min(1.0);
            }
            Some(Reply::Act(a)) if line.len() == 1 && ACTION_KINDS.contains(&a) => {
                if let Some(c) = a.claim() {
                    r[c.index()] = action(model, c, at).min(1.0);
                }
            }
            _ => {}
        }
        r.map(|x| x.min(1.0).powf(fixed::TEMPER))
    }

    /// The opponent's possible hands with their posterior weights, given
    /// the public record and its learnt bluff ratios
    /// ([`Ctx::search_ratios`]), and with [`SearchConfig::mind`] its
    /// pending action claim read through its eyes; `line` is the history's
    /// last line. With [`SearchConfig::recalibrate`] the probability `p`
    /// that its pending action claim is a bluff goes to `q = sigmoid(w . x)`,
    /// `(row, x)` its situation ([`Ctx::claim_features`], also returned),
    /// `w` [`RECALIBRATION`]'s row: hands lacking the character weigh `q/p`.
    pub(super) fn opponent_hands(
        &mut self,
        line: &[char],
        history: &str,
        config: &SearchConfig,
    ) -> (Vec<(Vec<Character>, f64)>, Option<Situation>) {
        let ratios = self.search_ratios(&self.model, line, config);
        let mut hands = hand_distribution_chosen(
            &self.h.opp,
            &self.unseen,
            self.h.opp.cards_left(),
            ratios,
            config.repeat_claims,
            Self::PASS_WEIGHTS,
            config.exchange_prior.then_some(EXCHANGE_RANK),
        );
        if config.mind > 0.0 {
            self.read_mind(&mut hands, line, history, config);
        }
        let claim = self.claim_features(&hands, line, &ratios);
        if let (true, Some((row @ 0..4, c, x))) = (config.recalibrate, claim) {
            let q: f64 = x.iter().zip(RECALIBRATION[row]).map(|(x, w)| x * w).sum();
            for h in hands.iter_mut().filter(|h| !h.0.contains(&c)) {
                h.1 *= (q - x[1]).exp();
            }
        }
        (hands, claim.map(|(row, _, x)| (row, x)))
    }

    /// The situation of the opponent's pending claim (its turn's action,
    /// or its block of mine, ending `line`): the claim's row (0-3: of
    /// [`RECALIBRATION`], 4-7: blocks, [`BLOCK_KINDS`]), its character and
    /// `x` = (1, logit of the probability under `hands` that it lacks the
    /// character, logit of the share of hands of its card count drawn blind
    /// from the cards I cannot see that lack it, I hold one card, it holds
    /// one card, its coins / 7, my coins / 7, its standing claims of the
    /// character before this one (at most 2), of others (at most 3), its
    /// turns before this one (at most 6) / 6, this is its first turn, the
    /// log of its learnt bluff ratio `ratios` of the character, as
    /// [`Ctx::search_ratios`] gives it). `--explain` prints them.
    pub(super) fn claim_features(
        &self,
        hands: &[(Vec<Character>, f64)],
        line: &[char],
        ratios: &[f64; 5],
    ) -> Option<(usize, Character, [f64; 12])> {
        let calls: Option<Vec<Reply>> = line.iter().map(|&c| Reply::from_code(c)).collect();
        let (row, c, turn) = match calls?.as_slice() {
            [Reply::Act(a)] => (kind_index(&ACTION_KINDS, *a)?, a.claim()?, 1),
            [Reply::Act(_), .., Reply::Block(b)] => {
                (4 + kind_index(&BLOCK_KINDS, *b)?, b.character(), 0)
            }
            _ => return None,
        };
        let logit = |p: f64, e: f64| (p.clamp(e, 1.0 - e) / (1.0 - p.clamp(e, 1.0 - e))).ln();
        let r = &self.h.opp;
        let (n, u) = (self.unseen.iter().sum::<u32>(), self.unseen[c.index()]);
        let none: f64 = (0..r.cards_left() as u32)
            .map(|j| n.saturating_sub(u + j) as f64 / n.saturating_sub(j).max(1) as f64)
            .product();
        // Its standing claims and turns include the pending claim's.
        let held = r.active_claims.iter().filter(|&&x| x == c).count();
        let (same, other) = (held.saturating_sub(1), r.active_claims.len() - held);
        let turns = (r.turns as usize).saturating_sub(turn);
        let x = [
            1.0,
            logit(1.0 - marginals(hands)[c.index()], 1e-4),
            logit(none, 1e-3),
            (self.hand.len() <= 1) as u8 as f64,
            (r.cards_left() <= 1) as u8 as f64,
            self.oc as f64 / 7.0,
            self.mc as f64 / 7.0,
            same.min(2) as f64,
            other.min(3) as f64,
            turns.min(6) as f64 / 6.0,
            (turns == 0) as u8 as f64,
            ratios[c.index()].max(1e-3).ln(),
        ];
        Some((row, c, x))
    }

    /// How the search's posterior reads the opponent's passes: each
    /// declined block at [`fixed::DECLINED_BLOCK`]; every turn it took
    /// Income or Foreign Aid instead of Tax weighs a hand with a Duke by
    /// [`PASSED_OVER_WEIGHT`].
    const PASS_WEIGHTS: PassWeights = PassWeights {
        block: fixed::DECLINED_BLOCK,
        tax: Some(PASSED_OVER_WEIGHT),
    };

    /// How much more doubtful my claim of `c` looks to the opponent than a
    /// fresh claim: the public probability that I lack `c` (the hand
    /// posterior of my public record over the cards not yet dead, at the
    /// likelihood ratio of my own caught and proved claims in this game,
    /// [`crate::coup::bot::model::bluff_rate`]) over the same probability with
    /// no record. A claim right after I was caught bluffing the same
    /// character is certain to be a bluff for anyone watching.
    pub(in crate::coup) fn public_doubt(&self, c: Character) -> f64 {
        let mut pool = [crate::coup::game::character::COPIES as u32; 5];
        for x in self.h.me.lost.iter().chain(&self.h.opp.lost) {
            pool[x.index()] = pool[x.index()].saturating_sub(1);
        }
        let k = self.h.me.cards_left().max(1);
        let f = crate::coup::bot::model::bluff_rate(&self.h.me).clamp(0.01, 0.99);
        let odds =
            crate::coup::bot::opponent::P_HOLD_TWO / (1.0 - crate::coup::bot::opponent::P_HOLD_TWO);
        let ratio = (f / (1.0 - f) * odds).clamp(1e-3, 1.0);
        let lack = |r: &crate::coup::game::history::Record| {
            let hands = hand_distribution(r, &pool, k, [ratio; 5], false, HALF_PASS);
            let total: f64 = hands.iter().map(|h| h.1).sum();
            let lacking: f64 = hands
                .iter()
                .filter(|h| !h.0.contains(&c))
                .map(|h| h.1)
                .sum();
            if total > 0.0 {
                lacking / total
            } else {
                1.0
            }
        };
        // My record as it will stand with this claim made.
        let mut now = self.h.me.clone();
        now.active_claims.push(c);
        let fresh = crate::coup::game::history::Record {
            active_claims: vec![c],
            ..Default::default()
        };
        let base = lack(&fresh).max(1e-3);
        lack(&now) / base
    }

    /// Weighs `hands` (the opponent's, with their posterior weights under
    /// its learnt ratios, [`Ctx::search_ratios`]) by how likely each was to
    /// make its pending claim, when `line` ends with one: an action claim
    /// at its turn's start (`src/coup/bot/mind.rs`).
    fn read_mind(
        &mut self,
        hands: &mut [(Vec<Character>, f64)],
        line: &[char],
        history: &str,
        config: &SearchConfig,
    ) {
        let me = calls_made(history) % 2;
        // Its action claim at its turn's start, or its block of my action.
        let (before, last) = match line {
            [a] => (&line[..0], *a),
            [a, b] if Reply::from_code(*a).is_some_and(|r| matches!(r, Reply::Act(_))) => {
                (&line[..1], *b)
            }
            _ => return,
        };
        let Some((claim, claimed)) = Reply::from_code(last)
            .filter(|r| matches!(r, Reply::Act(_)))
            .and_then(|r| r.claim().map(|c| (r, c)))
        else {
            return;
        };
        let mut coins = [0; 2];
        coins[me] = self.mc;
        coins[1 - me] = self.oc;
        // My habits as it has seen them: my answers to it in this game and
        // in past ones, my challenges by the race standing (an adaptive
        // player keys them so); its own are my playout habits.
        let mut habits = [Habits::mine(); 2];
        if let Some(seen) = super::opponent::Stats::mine_seen(history, "") {
            let mine = Model::new(&seen, self.mem_mine.as_ref());
            habits[me] = Habits::learnt(&mine, config, self.h.opp.cards_left(), true);
        }
        let turn = super::mind::Turn {
            unseen: &self.unseen,
            mine: &self.hand,
            coins,
            me,
            calls: calls_made(history).saturating_sub(1),
            before,
            claim,
        };
        let reading = super::mind::Reading {
            temperature: config.mind,
            worlds: config.mind_worlds,
        };
        let play = |s: &mut State, seat: usize, rng: &mut ChaCha8Rng| {
            let from = s.calls;
            playout(s, seat, &habits, config, from, rng)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.rng.random());
        let factors = super::mind::claim_factors(hands, &turn, &reading, &play, &mut rng);
        // The weights keep the claim's learnt ratio over its prior: how much
        // more (or less) it bluffs than a player with no record.
        let prior = self.search_ratios(&Model::default(), line, config)[claimed.index()].max(1e-9);
        for (h, f) in hands.iter_mut().zip(factors) {
            let lacks = !h.0.contains(&claimed);
            h.1 *= if lacks {
                config.mind_odds * f / prior
            } else {
                f
            };
        }
    }
}
