//! What a bot can infer: the opponent's likely hand from the public record
//! and the deck composition, and the coin race between two plans
//! (`docs/rules/coup.md` §2.1: costs, forced Coup at 10, Steal of 1 from a
//! player with 1 coin).

use crate::coup::bot::opponent::action_bluff_share_after;
use crate::coup::game::character::{Character, COPIES};
use crate::coup::game::history::{History, Record};
use crate::coup::game::protocol::{effects, Action, ASSASSINATE_COST, COUP_COST};
use crate::coup::game::rules::FORCED_COUP;

/// Cards of each character not visible to me: three minus those in my hand
/// (`mine`, which may include the two Exchange cards) and those given up by
/// either player.
pub fn unseen(h: &History, mine: &[Character]) -> [u32; 5] {
    let mut u = [COPIES as u32; 5];
    for c in mine.iter().chain(&h.me.lost).chain(&h.opp.lost) {
        u[c.index()] = u[c.index()].saturating_sub(1);
    }
    u
}

/// How often a claim comes without the card: a prior of 0.3 (two virtual
/// observations, [`PRIOR_ACTION_BLUFF`](crate::coup::bot::opponent::PRIOR_ACTION_BLUFF))
/// updated by the claims this player had proved or had caught.
pub fn bluff_rate(r: &Record) -> f64 {
    action_bluff_share_after(r.caught, r.caught + r.proved)
}

/// Probability that the player of record `r`, holding `k` cards drawn from
/// the `unseen` pool, holds at least one of each character: the exact
/// hypergeometric prior over hands, weighted by the evidence (each standing
/// claim: 1 if held, the bluff rate if not; a caught bluff rules the
/// character out; a declined block halves a hand holding it).
pub fn hand_probabilities(r: &Record, unseen: &[u32; 5], k: usize) -> [f64; 5] {
    hand_probabilities_with(r, unseen, k, false)
}

fn hand_probabilities_with(r: &Record, unseen: &[u32; 5], k: usize, repeat: bool) -> [f64; 5] {
    let beta = bluff_rate(r).clamp(0.02, 1.0);
    hand_posterior(r, unseen, k, [beta; 5], repeat)
}

/// The hand posterior with a likelihood ratio per character: `ratio[i]` is
/// P(claims character i | lacks it) / P(claims it | holds it), e.g. learned
/// from this opponent's caught and proved claims ([`super::opponent::Model`]).
/// Each standing claim weighs a hand without the character by its ratio
/// (once, or once per claim up to three when `repeat`); a caught bluff rules
/// the character out; a declined block halves a hand holding it
/// ([`HALF_PASS`]). Exact over all hands of `k` cards from the `unseen`
/// pool: the marginals of [`hand_distribution`].
pub fn hand_posterior(
    r: &Record,
    unseen: &[u32; 5],
    k: usize,
    ratio: [f64; 5],
    repeat: bool,
) -> [f64; 5] {
    let mut p = [0.0; 5];
    if k == 0 {
        return p;
    }
    let hands = hand_distribution(r, unseen, k, ratio, repeat, HALF_PASS);
    let total: f64 = hands.iter().map(|h| h.1).sum();
    if total <= 0.0 {
        let u = unseen.map(|x| x as f64);
        let n: f64 = u.iter().sum();
        if n < k.min(2) as f64 {
            // Fewer unseen cards than the hand holds (an impossible history,
            // or more cards given than exist): the plain prior is zero too,
            // so answer each character's share of what is left.
            return if n > 0.0 { u.map(|x| x / n) } else { p };
        }
        // Evidence contradicts every hand: fall back to the plain prior,
        // which is positive here (with the default record every hand
        // weighs 1), so this recursion ends.
        return hand_posterior(&Record::default(), unseen, k, ratio, repeat);
    }
    for (hand, w) in &hands {
        for (i, x) in p.iter_mut().enumerate() {
            if hand.iter().any(|c| c.index() == i) {
                *x += w;
            }
        }
    }
    p.map(|x| (x / total).clamp(0.0, 1.0))
}

/// How a hand holding a card weighs when its player passed over that
/// card's use: the likelihood ratio P(passes | holds) / P(passes | lacks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassWeights {
    /// A declined block (a pass on my Foreign Aid or Steal, a card given up
    /// to my Assassination): each one weighs a hand holding the blocking
    /// card by this.
    pub block: f64,
    /// A turn taken with Income or Foreign Aid instead of Tax
    /// ([`Record::passed_over`]): each weighs a hand with a Duke by this;
    /// `None`: such turns are not read.
    pub tax: Option<f64>,
}

/// [`PassWeights::tax`] as the search reads it: a turn taken without Tax
/// halves a hand with a Duke. A player with a Duke takes Tax on most of its
/// turns but not all (Seer on 58-80% of its turns with a Duke, 2-25%
/// without, `scripts/coup-games.py --by-hand`), so the ratio lies between
/// about 0.3 and 1 by opponent; a half is the middle of that reading.
/// Measured at 0.3 (twenty-first session, arbiter3, memory on, seeds 7-67,
/// 3,200 games each; the kept runs put Seer's Income at 0.12 of the rate
/// without a Duke, its Foreign Aid at 0.70, both together 0.33, and the
/// Calculator never passes a Duke over): Seer 50.7% [48.9, 52.4], the real
/// Calculator 71.2% [69.6, 72.7], against 52.3% and 71.7% at a half.
pub const PASSED_OVER_WEIGHT: f64 = 0.5;

/// The strong bot's reading of a pass: a declined block halves a hand
/// holding the card; turns without Tax are not read.
pub const HALF_PASS: PassWeights = PassWeights {
    block: 0.5,
    tax: None,
};

/// The joint posterior behind [`hand_posterior`]: every distinct hand of
/// `k` cards (1 or 2; more are treated as 2) drawn from the `unseen` pool,
/// with its unnormalized weight (hypergeometric count times the evidence
/// weight: the claims at `ratio` as in [`hand_posterior`], the passes at
/// `pass`, at most three passes counted per character, declined blocks
/// first). Hands of zero prior are left out; the weights may all be zero
/// when the evidence contradicts every hand.
pub fn hand_distribution(
    r: &Record,
    unseen: &[u32; 5],
    k: usize,
    ratio: [f64; 5],
    repeat: bool,
    pass: PassWeights,
) -> Vec<(Vec<Character>, f64)> {
    hand_distribution_chosen(r, unseen, k, ratio, repeat, pass, None)
}

/// How players rank cards when they choose their hand at an Exchange
/// (higher kept first; equal ranks kept at random), by [`Character::index`]
/// order (Ambassador, Assassin, Captain, Contessa, Duke). Measured on the
/// arbiter's logs of 200 games each (`scripts/coup-bench.py --keep`, seed
/// 7): Seer kept 59 of the 59 Dukes it was offered, 77 of 85 Contessas and
/// 26-44% of the others; Calculator 11 of 11 Dukes, 21 of 22 Contessas,
/// 30-73% of the others.
pub const EXCHANGE_RANK: [u8; 5] = [1, 1, 1, 2, 3];

/// [`hand_distribution`] with the prior of a hand chosen at an Exchange:
/// when `rank` is given and the record's hand was chosen from
/// [`Record::chosen_from`] cards (more than `k`), the prior of each hand is
/// the probability that it is the best `k` by `rank` of that many cards
/// drawn from the `unseen` pool (ties broken at random), instead of the
/// hypergeometric probability of `k` cards drawn blind. The evidence weighs
/// hands as in [`hand_distribution`].
pub fn hand_distribution_chosen(
    r: &Record,
    unseen: &[u32; 5],
    k: usize,
    ratio: [f64; 5],
    repeat: bool,
    pass: PassWeights,
    rank: Option<[u8; 5]>,
) -> Vec<(Vec<Character>, f64)> {
    let mut claimed = [0u32; 5];
    for c in &r.active_claims {
        claimed[c.index()] += 1;
    }
    let mut declined = [0u32; 5];
    for c in &r.declined {
        declined[c.index()] += 1;
    }
    let mut passed = [0u32; 5];
    if pass.tax.is_some() {
        for c in &r.passed_over {
            passed[c.index()] += 1;
        }
    }
    let weigh = |has: [bool; 5]| -> f64 {
        let mut w = 1.0;
        for i in 0..5 {
            if has[i] {
                if r.surely_not.iter().any(|c| c.index() == i) {
                    return 0.0;
                }
                let d = declined[i].min(3);
                let t = passed[i].min(3 - d);
                w *= pass.block.powi(d as i32) * pass.tax.unwrap_or(1.0).powi(t as i32);
            } else if claimed[i] > 0 {
                let beta = ratio[i].clamp(1e-4, 1.0);
                w *= if repeat {
                    beta.powi(claimed[i].min(3) as i32)
                } else {
                    beta
                };
            }
        }
        w
    };
    let u = unseen.map(|x| x as f64);
    let mut out = Vec::new();
    if let Some(rank) = rank.filter(|_| r.chosen_from > k.min(2) && k > 0) {
        let kk = k.min(2);
        for (counts, prior) in chosen_prior(unseen, r.chosen_from, kk, rank) {
            let mut hand = Vec::with_capacity(kk);
            let mut has = [false; 5];
            for (i, &n) in counts.iter().enumerate() {
                for _ in 0..n {
                    hand.push(Character::ALL[i]);
                }
                has[i] = n > 0;
            }
            out.push((hand, prior * weigh(has)));
        }
        return out;
    }
    match k {
        0 => {}
        1 => {
            for (i, &c) in Character::ALL.iter().enumerate() {
                if u[i] <= 0.0 {
                    continue;
                }
                let mut has = [false; 5];
                has[i] = true;
                out.push((vec![c], deal_odds(&[c], unseen) * weigh(has)));
            }
        }
        _ => {
            for i in 0..5 {
                for j in i..5 {
                    let hand = [Character::ALL[i], Character::ALL[j]];
                    let prior = deal_odds(&hand, unseen);
                    if prior <= 0.0 {
                        continue;
                    }
                    let mut has = [false; 5];
                    has[i] = true;
                    has[j] = true;
                    out.push((hand.to_vec(), prior * weigh(has)));
                }
            }
        }
    }
    out
}

/// The chance of being dealt `hand` (one or two cards) from the `unseen`
/// cards (counts by [`Character::index`]), up to a constant: the number of
/// ways to draw it.
pub(super) fn deal_odds(hand: &[Character], unseen: &[u32; 5]) -> f64 {
    let u = |c: &Character| f64::from(unseen[c.index()]);
    match hand {
        [a] => u(a),
        [a, b] if a == b => u(a) * (u(a) - 1.0) / 2.0,
        [a, b] => u(a) * u(b),
        _ => 1.0,
    }
}

/// Number of ways to choose `k` of `n`.
fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Every multiset of `m` cards drawn from the `pool` counts, with its
/// number of ways (the multivariate hypergeometric numerator).
fn multisets(pool: &[u32; 5], m: u32) -> Vec<([u32; 5], f64)> {
    let mut out = Vec::new();
    let mut x = [0u32; 5];
    fn rec(
        i: usize,
        left: u32,
        pool: &[u32; 5],
        x: &mut [u32; 5],
        w: f64,
        out: &mut Vec<([u32; 5], f64)>,
    ) {
        if i == 5 {
            if left == 0 {
                out.push((*x, w));
            }
            return;
        }
        for n in 0..=left.min(pool[i]) {
            x[i] = n;
            rec(i + 1, left - n, pool, x, w * choose(pool[i], n), out);
        }
        x[i] = 0;
    }
    rec(0, m, pool, &mut x, 1.0, &mut out);
    out
}

/// The prior over the hand of `k` cards a player keeps from `m` drawn from
/// `unseen` ([`hand_distribution_chosen`]): per kept multiset (counts by
/// [`Character::index`]), its probability times the number of `m`-card
/// draws (unnormalized, like the hypergeometric weights).
fn chosen_prior(unseen: &[u32; 5], m: usize, k: usize, rank: [u8; 5]) -> Vec<([u32; 5], f64)> {
    let mut acc: Vec<([u32; 5], f64)> = Vec::new();
    let mut add = |kept: [u32; 5], w: f64| {
        if let Some(e) = acc.iter_mut().find(|e| e.0 == kept) {
            e.1 += w;
        } else {
            acc.push((kept, w));
        }
    };
    let mut ranks: Vec<u8> = rank.to_vec();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    ranks.dedup();
    for (drawn, ways) in multisets(unseen, m as u32) {
        // Keep whole rank groups from the top; the group that overflows the
        // hand gives its remaining slots to a uniform choice of its cards.
        let mut kept = [0u32; 5];
        let mut left = k as u32;
        let mut split: Option<[u32; 5]> = None;
        for &g in &ranks {
            if left == 0 {
                break;
            }
            let mut group = [0u32; 5];
            for i in 0..5 {
                if rank[i] == g {
                    group[i] = drawn[i];
                }
            }
            let size: u32 = group.iter().sum();
            if size <= left {
                for i in 0..5 {
                    kept[i] += group[i];
                }
                left -= size;
            } else {
                split = Some(group);
                break;
            }
        }
        match split {
            None => add(kept, ways),
            Some(group) => {
                let size: u32 = group.iter().sum();
                let all = choose(size, left);
                for (pick, n) in multisets(&group, left) {
                    let mut hand = kept;
                    for i in 0..5 {
                        hand[i] += pick[i];
                    }
                    add(hand, ways * n / all);
                }
            }
        }
    }
    acc
}

/// How a player gains coins each turn in a race.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Gain {
    /// +1.
    Income,
    /// +2.
    ForeignAid,
    /// +3 (Duke).
    Tax,
    /// +2 taken from the opponent, 1 if they have 1, Income at 0 (Captain).
    Steal,
}

impl Gain {
    /// The action that makes this gain.
    pub fn action(self) -> Action {
        match self {
            Gain::Income => Action::Income,
            Gain::ForeignAid => Action::ForeignAid,
            Gain::Tax => Action::Tax,
            Gain::Steal => Action::Steal,
        }
    }

    /// Coins `(gained, taken from the opponent)` in one race turn against an
    /// opponent holding `opp_coins`: the action's [`effects`], except that a
    /// Steal from an empty purse counts as an Income (the race's fallback).
    pub fn step(self, opp_coins: i64) -> (i64, i64) {
        if self == Gain::Steal && opp_coins <= 0 {
            effects(Action::Income, opp_coins)
        } else {
            effects(self.action(), opp_coins)
        }
    }
}

/// A race plan: a way to gain coins and whether to kill by Assassination
/// (3 coins) when possible, else by Coup (7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Coin gain each turn that does not kill.
    pub gain: Gain,
    /// Assassinate at 3+ coins instead of waiting for a Coup.
    pub assassinate: bool,
}

/// One side of a race: coins and cards still to lose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Racer {
    /// Coins now.
    pub coins: i64,
    /// Cards held.
    pub cards: usize,
    /// The plan followed.
    pub plan: Plan,
}

/// Plays a race turn by turn, `first` moving first, with nothing blocked or
/// challenged. Returns `Some(true)` if `first` removes all of `second`'s cards
/// first, `Some(false)` if `second` does, `None` if nobody within 40 turns
/// each; and the number of turns `first` took (or would have needed).
pub fn race(first: Racer, second: Racer) -> (Option<bool>, u32) {
    let mut s = [first, second];
    for t in 0..80u32 {
        let me = (t % 2) as usize;
        let op = 1 - me;
        let c = s[me].coins;
        if c >= FORCED_COUP
            || (c >= COUP_COST && !(s[me].plan.assassinate && c >= ASSASSINATE_COST))
        {
            s[me].coins -= COUP_COST;
            s[op].cards = s[op].cards.saturating_sub(1);
        } else if s[me].plan.assassinate && c >= ASSASSINATE_COST {
            s[me].coins -= ASSASSINATE_COST;
            s[op].cards = s[op].cards.saturating_sub(1);
        } else {
            let (gain, loss) = s[me].plan.gain.step(s[op].coins);
            s[me].coins += gain;
            s[op].coins -= loss;
        }
        if s[op].cards == 0 {
            return (Some(me == 0), t / 2 + 1);
        }
    }
    (None, 40)
}

/// The plan a player's record suggests it follows: the best gain among the
/// characters it claims (Tax over Steal over Foreign Aid), Foreign Aid if it
/// has used it, else Income; Assassination if it has claimed an Assassin.
pub fn inferred_plan(r: &Record) -> Plan {
    let claims = |c: Character| r.claims[c.index()] > 0 && !r.surely_not.contains(&c);
    let gain = if claims(Character::Duke) {
        Gain::Tax
    } else if claims(Character::Captain) {
        Gain::Steal
    } else if r.actions[1] > 0 {
        Gain::ForeignAid
    } else {
        Gain::ForeignAid.min(if r.turns == 0 {
            Gain::ForeignAid
        } else {
            Gain::Income
        })
    };
    Plan {
        gain,
        assassinate: claims(Character::Assassin),
    }
}

/// Own turns a player needs, alone, to remove `target` cards from `coins`
/// with `plan`; the other player's `other_coins` feed a Steal (and shrink).
pub fn solo_turns(coins: i64, plan: Plan, target: usize, other_coins: i64) -> u32 {
    let (mut c, mut o, mut left) = (coins, other_coins, target);
    for t in 1..=40u32 {
        if c >= FORCED_COUP || (c >= COUP_COST && !(plan.assassinate && c >= ASSASSINATE_COST)) {
            c -= COUP_COST;
            left = left.saturating_sub(1);
        } else if plan.assassinate && c >= ASSASSINATE_COST {
            c -= ASSASSINATE_COST;
            left = left.saturating_sub(1);
        } else {
            let (gain, loss) = plan.gain.step(o);
            c += gain;
            o -= loss;
        }
        if left == 0 {
            return t;
        }
    }
    40
}

/// A smooth version of [`solo_turns`] for evaluations: kills plus the coins
/// still missing divided by the gain per turn (fractional turns).
pub fn smooth_turns(coins: i64, plan: Plan, target: usize, other_coins: i64) -> f64 {
    let cost = if plan.assassinate {
        ASSASSINATE_COST
    } else {
        COUP_COST
    } as f64;
    let gain = match plan.gain {
        Gain::Income => 1.0,
        Gain::ForeignAid => 2.0,
        Gain::Tax => 3.0,
        Gain::Steal => {
            if other_coins >= 2 {
                2.0
            } else {
                1.5
            }
        }
    };
    let k = target as f64;
    k + ((k * cost - coins as f64).max(0.0)) / gain
}
