//! What a bot can infer: the opponent's likely hand from the public record
//! and the deck composition (the search's hand posterior,
//! [`hand_distribution`]).

use crate::coup::bot::opponent::action_bluff_share_after;
use crate::coup::game::character::{Character, COPIES};
use crate::coup::game::history::{History, Record};

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

/// A plain reading of a pass: a declined block halves a hand holding the
/// card; turns without Tax are not read.
pub const HALF_PASS: PassWeights = PassWeights {
    block: 0.5,
    tax: None,
};

/// The hand posterior: every distinct hand of
/// `k` cards (1 or 2; more are treated as 2) drawn from the `unseen` pool,
/// with its unnormalized weight (hypergeometric count times the evidence
/// weight: each standing claim weighs a hand without the character by
/// `ratio[i]`, P(claims character i | lacks it) / P(claims it | holds it),
/// once or once per claim up to three when `repeat`; a caught bluff rules
/// the character out; the passes at
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
