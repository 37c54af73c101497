//! Bayesian identification of the opponent between three behaviour types,
//! from this game's answers alone (no memory needed):
//!
//! - the *replica* type: it answers as [`crate::coup::replica`] (the real
//!   contest winner's decision rule: challenges every block, and a claim
//!   only when no plan of its own wins the race, or on its first-turn
//!   rules), with its hand unknown: the prediction of an answer is the
//!   share of its possible hands (the joint hand posterior of
//!   [`crate::coup::model::hand_distribution`], its claims taken as honest
//!   with ratio [`REPLICA_BLUFF_RATIO`]) for which the replica gives it;
//! - the *passive* type: it never challenges except a claim it can prove
//!   false ([`PASSIVE_CHALLENGE`]);
//! - the *rate* type: a generic player that challenges my action claims and
//!   my blocks at unknown rates, each with the Beta prior of
//!   [`crate::coup::opponent`] ([`PRIOR_CHALLENGE`], [`PRIOR_CHALLENGE_BLOCK`]),
//!   whose sequential predictive is the likelihood of each answer.
//!
//! The weights of the types are the posterior after every answer of the
//! opponent to my action claims and to my blocks in this game, from the
//! prior [`TYPE_PRIOR`]; each replica prediction is softened by
//! [`REPLICA_NOISE`] (its state file and hand are reconstructed, not
//! seen). The strong bot uses the mixture of the types' predictions for
//! the challenge of an Assassination ([`Ctx::identified_challenge_assassin`]),
//! both in the turn choice and in the plan of its evaluation (whether it may
//! bluff Assassinations): there the replica's answer does not depend on the
//! race (with two cards it never challenges one). Mixing the types'
//! predictions for the other claims (Tax, Steal, Exchange) was measured
//! without gain against the real Calculator and cost points against the
//! `honest` stand-in, so those keep the rate model.

use super::*;
use crate::coup::history::Side;
use crate::coup::model::hand_distribution;
use crate::coup::opponent::{PRIOR_CHALLENGE, PRIOR_CHALLENGE_BLOCK};

/// Prior probabilities of the three types (replica, passive, rate): equal
/// before any answer is seen (no other knowledge).
pub(in crate::coup) const TYPE_PRIOR: [f64; 3] = [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0];
/// Probability that the passive type challenges a claim or a block: it
/// challenges only claims it can prove false from its own cards, which a
/// hand of two cards does about this often (stand-ins such as `honest`,
/// `taxman`, `bandit`).
pub(in crate::coup) const PASSIVE_CHALLENGE: f64 = 0.05;
/// Probability that a player of the replica type answers at random (one of
/// challenge / no challenge, evenly) instead of as the replica predicts: its
/// state flags and its hand are reconstructed from the public history, not
/// seen, so a share of predictions is wrong even against the real program.
pub(in crate::coup) const REPLICA_NOISE: f64 = 0.1;
/// Likelihood ratio of a claim without the card for the replica type's hand
/// posterior: it claims the cards it holds (its only bluff is a fallback Tax).
pub(in crate::coup) const REPLICA_BLUFF_RATIO: f64 = 0.05;

/// The replica's flags (`state.txt`) as it would hold them at the start of
/// turn `upto`, rebuilt from the public turns before it (read from my side):
/// `d c A F` for my Tax, Steal, Assassination and Foreign Aid (cleared by my
/// Income, and the one it challenged), `$ * ^` for its own Tax, Steal and
/// Assassination claims (cleared when the card is shown or caught).
pub(super) fn replica_flags(turns: &[crate::coup::history::Turn], upto: usize) -> String {
    let mut f: Vec<char> = vec!['1'];
    let set = |f: &mut Vec<char>, c: char| {
        if !f.contains(&c) {
            f.push(c);
        }
    };
    let clear = |f: &mut Vec<char>, c: char| f.retain(|&x| x != c);
    for t in turns.iter().take(upto) {
        let c: Vec<char> = t.text.chars().collect();
        let Some(&a) = c.first() else { continue };
        let challenged = c.get(1) == Some(&'q');
        if t.actor == Side::Me {
            match a {
                'T' => set(&mut f, 'd'),
                'S' => set(&mut f, 'c'),
                'A' => set(&mut f, 'A'),
                'F' => set(&mut f, 'F'),
                'I' => {
                    for x in ['d', 'c', 'F'] {
                        clear(&mut f, x);
                    }
                }
                _ => {}
            }
            if challenged {
                match a {
                    'T' => clear(&mut f, 'd'),
                    'S' => clear(&mut f, 'c'),
                    'A' => clear(&mut f, 'A'),
                    _ => {}
                }
            }
        } else {
            let own = match a {
                'T' => Some('$'),
                'S' => Some('*'),
                'A' => Some('^'),
                _ => None,
            };
            if let Some(x) = own {
                if challenged {
                    clear(&mut f, x);
                } else {
                    set(&mut f, x);
                }
            }
            // My blocks it challenged: `Fdq` clears my Duke, `Scq` my Captain.
            if c.get(2) == Some(&'q') {
                match c.get(1) {
                    Some('d') => clear(&mut f, 'd'),
                    Some('c') => clear(&mut f, 'c'),
                    _ => {}
                }
            }
        }
    }
    f.sort_unstable();
    f.into_iter().collect()
}

/// Probability that the replica challenges my action `a` claimed after the
/// complete lines `before` (whose last turn is turn `upto` of `h_turns`,
/// read from my side), with coins `mc` (mine) and `oc` (its), its record
/// `opp` and `ok` cards, drawn from `unseen`. `None` when no hand of it is
/// possible.
#[allow(clippy::too_many_arguments)]
pub(super) fn replica_challenge_prob(
    before: &str,
    flags: &str,
    a: char,
    mc: i64,
    oc: i64,
    opp: &crate::coup::history::Record,
    ok: usize,
    unseen: &[u32; 5],
) -> Option<f64> {
    let hands = hand_distribution(opp, unseen, ok, [REPLICA_BLUFF_RATIO; 5], true);
    let total: f64 = hands.iter().map(|h| h.1).sum();
    if total <= 0.0 {
        return None;
    }
    let text = format!("{before}{a}");
    let state = format!("g\n{flags}\n");
    let line = a.to_string();
    let mut q = 0.0;
    for (hand, w) in &hands {
        if *w <= 0.0 {
            continue;
        }
        let Some(legal) = legal_answers(&line, hand, oc, mc) else {
            continue;
        };
        let cards = format_hand(hand);
        let ans = crate::coup::replica::decide(&text, "g", &state, mc, oc, &cards, &legal);
        if ans.text == "q" {
            q += w;
        }
    }
    Some(q / total)
}

impl Ctx<'_> {
    /// Posterior probabilities of the replica, passive and rate types after
    /// this game's answers to my action claims and my blocks (see the module
    /// documentation).
    pub(in crate::coup) fn type_weights(&self) -> [f64; 3] {
        if let Some(w) = self.replica_w.get() {
            return w;
        }
        let states = self.h.replay();
        let mut log_r = 0.0f64;
        let mut log_g = 0.0f64;
        let mut log_p = 0.0f64;
        let pp = |q: bool| {
            if q {
                PASSIVE_CHALLENGE
            } else {
                1.0 - PASSIVE_CHALLENGE
            }
            .ln()
        };
        let (mut n_act, mut k_act, mut n_blk, mut k_blk) = (0u32, 0u32, 0u32, 0u32);
        let mut before = String::new();
        for (i, t) in self.h.turns.iter().enumerate() {
            let c: Vec<char> = t.text.chars().collect();
            let Some(&(coins, cards)) = states.get(i) else {
                break;
            };
            let alive = cards[0] > 0 && cards[1] > 0;
            if alive && t.actor == Side::Me && "ETSA".contains(c[0]) {
                if let Some(&ans) = c.get(1) {
                    let q = ans == 'q';
                    // The rate type: Beta-binomial predictive of a challenge.
                    let pg = (PRIOR_CHALLENGE.0 + k_act as f64)
                        / (PRIOR_CHALLENGE.0 + PRIOR_CHALLENGE.1 + n_act as f64);
                    n_act += 1;
                    k_act += q as u32;
                    let prefix = History::parse(&before).ok();
                    let pr = prefix.and_then(|hp| {
                        let u = unseen(&hp, &self.hand);
                        replica_challenge_prob(
                            &before,
                            &replica_flags(&self.h.turns, i),
                            c[0],
                            coins[0],
                            coins[1],
                            &hp.opp,
                            cards[1].min(2),
                            &u,
                        )
                    });
                    if let Some(pr) = pr {
                        let pr = (1.0 - REPLICA_NOISE) * pr + 0.5 * REPLICA_NOISE;
                        log_r += if q { pr } else { 1.0 - pr }.max(1e-9).ln();
                        log_g += if q { pg } else { 1.0 - pg }.max(1e-9).ln();
                        log_p += pp(q);
                    }
                }
            } else if alive
                && t.actor == Side::Opponent
                && "acds".contains(*c.get(1).unwrap_or(&'x'))
            {
                let ans = c.get(2).copied().or(t.complete.then_some('\n'));
                if let Some(ans) = ans {
                    let q = ans == 'q';
                    let pg = (PRIOR_CHALLENGE_BLOCK.0 + k_blk as f64)
                        / (PRIOR_CHALLENGE_BLOCK.0 + PRIOR_CHALLENGE_BLOCK.1 + n_blk as f64);
                    n_blk += 1;
                    k_blk += q as u32;
                    let pr = 1.0 - 0.5 * REPLICA_NOISE;
                    log_r += if q { pr } else { 1.0 - pr }.ln();
                    log_g += if q { pg } else { 1.0 - pg }.max(1e-9).ln();
                    log_p += pp(q);
                }
            }
            if t.complete {
                before.push_str(&t.text);
                before.push('\n');
            } else {
                break;
            }
        }
        let logs = [log_r, log_p, log_g];
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut w = [0.0; 3];
        for i in 0..3 {
            w[i] = TYPE_PRIOR[i] * (logs[i] - top).exp();
        }
        let z: f64 = w.iter().sum();
        let w = w.map(|x| x / z);
        self.replica_w.set(Some(w));
        w
    }

    /// Probability that the opponent challenges an Assassination of mine
    /// now. While it holds two cards, under the three types: the replica
    /// never challenges one then (it blocks with a Contessa or gives up a
    /// card), the passive type at [`PASSIVE_CHALLENGE`], the rate type at the
    /// larger of its Beta rates for this card count and for all my claims.
    /// With its last card every type's answer is forced (contest or lose the
    /// game), so the types say nothing and the rate model's answer stands.
    pub(in crate::coup) fn identified_challenge_assassin(&self) -> f64 {
        let rate = self
            .opp_challenge_action_base('A')
            .max(self.model.challenge_action('A', self.ok));
        if self.ok < 2 {
            return rate;
        }
        let w = self.type_weights();
        let pr = 0.5 * REPLICA_NOISE;
        w[0] * pr + w[1] * PASSIVE_CHALLENGE + w[2] * rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coup::history::Record;

    fn ctx_for<'a>(
        history: &str,
        legal: &'a [String],
        hand: &[Character],
        mc: i64,
        oc: i64,
    ) -> Ctx<'a> {
        let h = History::parse(history).unwrap();
        let line = last_line(history).to_string();
        Ctx::new(
            h,
            line,
            legal,
            hand.to_vec(),
            hand,
            mc,
            oc,
            ChaCha8Rng::seed_from_u64(1),
        )
    }

    #[test]
    fn flags_follow_the_public_turns() {
        // I (first) Tax, it Steals, I take Income, it Taxes and I challenge:
        // it shows the Duke and I give up a card.
        let h = History::parse("Tp\nSp\nI\nTq$_\n").unwrap();
        assert_eq!(replica_flags(&h.turns, 2), "*1d");
        // My Income clears my Duke; a shown card clears its flag (the
        // replica drops the flag of the card it reveals: it draws another).
        assert_eq!(replica_flags(&h.turns, 4), "*1");
    }

    #[test]
    fn first_turn_steal_is_challenged_by_exact_hand_count() {
        // The replica blocks a first-turn Steal with an Ambassador or a
        // Captain, lets it pass with a Duke and an Assassin, and challenges
        // it otherwise. I hold Duke and Contessa: its two cards come from
        // 3 Ambassadors, 3 Assassins, 3 Captains, 2 Contessas, 2 Dukes (78
        // pairs). Without Ambassador and Captain: C(7,2) = 21 pairs, of
        // which 2 * 3 = 6 are Duke + Assassin: 15 / 78.
        let unseen = [3, 3, 3, 2, 2];
        let p = replica_challenge_prob("", "1", 'S', 1, 1, &Record::default(), 2, &unseen).unwrap();
        assert!((p - 15.0 / 78.0).abs() < 1e-12, "{p}");
    }

    #[test]
    fn answers_to_my_blocks_identify_the_type() {
        let legal = vec!["I\n".to_string(), "F".into(), "E".into(), "T".into()];
        let hand = [Duke, Contessa];
        // Its Foreign Aid, my Duke block challenged (I show the Duke).
        let challenged = ctx_for("Tp\nFdq$_\n", &legal, &hand, 4, 1);
        let w = challenged.type_weights();
        assert!(w[0] > 0.6 && w[1] < 0.1, "{w:?}");
        // The same block accepted: the replica would have challenged it.
        let accepted = ctx_for("Tp\nFd\n", &legal, &hand, 4, 1);
        let w = accepted.type_weights();
        assert!(w[0] < 0.05 && w[1] > w[2], "{w:?}");
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
