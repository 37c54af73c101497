//! The strong bot's decision: expected value of every legal answer over the
//! opponent's replies (blocks, challenges, reveals), using the evaluation
//! of [`super::inference`].

use super::inference::tilt;
use super::view::Ctx;
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::history::action_index;
use crate::coup::game::protocol::{effects, Action, Block, Reply};
use crate::coup::game::rules::{hands_of, COUP_COST};
use crate::coup::sparring::simple::{card_value, keep_cards, safe_answer};

use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

impl Ctx<'_> {
    pub(in crate::coup) fn strong(&mut self, last: Option<Reply>) -> String {
        let (mc, mk, oc, ok) = (self.mc, self.mk, self.oc, self.ok);
        if self.turn_start() {
            let v0 = |s: &Self, c: i64, k: usize, o: i64, ko: usize| s.reply_val(c, k, o, ko);
            let legal = self.legal;
            let exchange = Reply::Act(Action::Exchange).text();
            let exchange_keep_value = if legal.contains(&exchange) {
                self.exchange_value()
            } else {
                0.0
            };
            let mut best: Option<(f64, i64, String)> = None;
            for a in legal.iter() {
                let reply = Reply::parse(a);
                let pc = match reply {
                    Some(Reply::Act(act)) => self.opp_challenge_action(act),
                    _ => 0.0,
                };
                let e = match reply {
                    Some(Reply::Act(Action::Income)) => {
                        v0(self, mc + effects(Action::Income, oc).0, mk, oc, ok)
                    }
                    Some(Reply::Act(Action::Coup)) => v0(self, mc - COUP_COST, mk, oc, ok - 1),
                    Some(Reply::Act(Action::ForeignAid)) => {
                        let pb = self.opp_block_prob(Action::ForeignAid, &[Duke]);
                        // Its Duke block challenged, lacking the Duke as I
                        // would judge it once the block is made.
                        let pl = self.p_lack_as(Duke, Some(Reply::Block(Block::Duke)), false);
                        let chal = pl * v0(self, mc + 2, mk, oc, ok - 1)
                            + (1.0 - pl) * v0(self, mc, mk - 1, oc, ok);
                        (1.0 - pb) * v0(self, mc + 2, mk, oc, ok)
                            + pb * v0(self, mc, mk, oc, ok).max(chal)
                    }
                    Some(Reply::Act(Action::Tax)) => {
                        let ok_v = v0(self, mc + 3, mk, oc, ok);
                        if self.has(Duke) {
                            pc * v0(self, mc + 3, mk, oc, ok - 1) + (1.0 - pc) * ok_v
                        } else {
                            pc * v0(self, mc, mk - 1, oc, ok) + (1.0 - pc) * ok_v
                        }
                    }
                    Some(Reply::Act(Action::Steal)) => {
                        // What the arbiter moves, capped by what the purse holds.
                        let n = effects(Action::Steal, oc).0.min(oc);
                        let pb = self.opp_block_prob(Action::Steal, &[Captain, Ambassador]);
                        let through = v0(self, mc + n, mk, oc - n, ok);
                        // Its block accepted, or challenged when I doubt it
                        // (the likelier of its two blocking cards).
                        let block = |b: Block| Some(Reply::Block(b));
                        let pl = self
                            .p_lack_as(Captain, block(Block::Captain), false)
                            .min(self.p_lack_as(Ambassador, block(Block::Ambassador), false));
                        let blocked = v0(self, mc, mk, oc, ok).max(
                            pl * v0(self, mc + n, mk, oc - n, ok - 1)
                                + (1.0 - pl) * v0(self, mc, mk - 1, oc, ok),
                        );
                        let unchallenged = pb * blocked + (1.0 - pb) * through;
                        if self.has(Captain) {
                            pc * v0(self, mc + n, mk, oc - n, ok - 1) + (1.0 - pc) * unchallenged
                        } else {
                            pc * v0(self, mc, mk - 1, oc, ok) + (1.0 - pc) * unchallenged
                        }
                    }
                    Some(Reply::Act(Action::Assassinate)) => {
                        let p_con = self.p_opp[Contessa.index()];
                        let (pca, pb) = if ok == 1 {
                            // Nothing to lose: block if holding Contessa, else
                            // challenge or bluff; then what it did to my
                            // Assassinations of its last card. `pb` is the
                            // chance of a block when it does not challenge.
                            let pca = (1.0 - p_con) * self.p.a1_chal;
                            let i = action_index(Action::Assassinate);
                            let n = self.answers.done[i] as f64;
                            let w = self.p.a1_seen;
                            // Past games: my Assassinations of its last card.
                            let [mn, mq] = self.mem.challenged[3][0];
                            let pca = (pca + w * (self.answers.challenged[i] + mq) as f64)
                                / (1.0 + w * (n + mn as f64));
                            // Unchallenged, a holder blocks and so does a
                            // player in despair (the prior: not challenging
                            // means blocking); then what its last cards did
                            // with my unchallenged Assassinations, this game
                            // and past ones.
                            let [bn, bk] = self.mem.last_blocked;
                            let quiet = (self.answers.done[i] - self.answers.challenged[i]) as f64;
                            let q = (1.0 + w * (self.answers.blocked[i] + bk) as f64)
                                / (1.0 + w * (quiet + bn as f64));
                            (pca, q.min(1.0))
                        } else {
                            (pc, self.opp_block_prob(Action::Assassinate, &[Contessa]))
                        };
                        // Its block challenged as I would judge it once made
                        // (with two cards: as its block rate implies).
                        let pl = if ok == 1 {
                            self.p_lack_as(Contessa, Some(Reply::Block(Block::Contessa)), false)
                        } else {
                            1.0 - (p_con / pb.max(1e-9)).min(1.0)
                        };
                        let after_block = v0(self, mc - 3, mk, oc, ok)
                            .max(pl + (1.0 - pl) * v0(self, mc - 3, mk - 1, oc, ok));
                        let unchallenged =
                            pb * after_block + (1.0 - pb) * v0(self, mc - 3, mk, oc, ok - 1);
                        if self.has(Assassin) {
                            pca + (1.0 - pca) * unchallenged
                        } else {
                            pca * v0(self, mc, mk - 1, oc, ok) + (1.0 - pca) * unchallenged
                        }
                    }
                    Some(Reply::Act(Action::Exchange)) => {
                        let keep = exchange_keep_value;
                        if self.has(Ambassador) {
                            pc * v0(self, mc, mk, oc, ok - 1) + (1.0 - pc) * keep
                        } else {
                            pc * v0(self, mc, mk - 1, oc, ok) + (1.0 - pc) * keep
                        }
                    }
                    _ => continue,
                };
                // An honest claim early on also shows how this opponent
                // answers claims (its challenge rate) at no risk.
                let my_claims: u32 = self.h.me.claims.iter().sum();
                let honest_claim = reply.and_then(Reply::claim).is_some_and(|c| self.has(c));
                let e = if honest_claim && my_claims < 2 {
                    e + self.p.probe_bonus
                } else {
                    e
                };
                self.explain.push(format!(
                    "turn {mc}{mk} vs {oc}{ok} {a:?} {e:.4} (pc {pc:.3})"
                ));
                // Values within [`StrongConfig::tie`](crate::coup::bot::StrongConfig::tie) of each
                // other are a tie the evaluation cannot split (its logistic saturates when the race
                // is decided): the turn that makes more progress wins it, a card taken (worth a
                // Coup's price) before coins gained, since a game still running after the arbiter's
                // 200 calls is a draw worth nothing (`docs/rules/coup.md` §6.1).
                let gain = reply.map_or(0, |r| match r {
                    Reply::Act(Action::Coup | Action::Assassinate) => COUP_COST,
                    Reply::Act(act) => effects(act, oc).0,
                    _ => 0,
                });
                let better = best.as_ref().is_none_or(|(bv, bg, _)| {
                    e > *bv + self.p.tie || (e > *bv - self.p.tie && gain > *bg)
                });
                if better {
                    best = Some((e, gain, a.clone()));
                }
            }
            return best
                .map(|(_, _, a)| a)
                .unwrap_or_else(|| safe_answer(self.legal));
        }
        let pc_block = |b: Block| self.opp_challenge_block(b);
        let pc = pc_block(Block::Contessa);
        let v1 = |s: &Self, c: i64, k: usize, o: i64, ko: usize| s.val(c, k, o, ko, true);
        let v0 = |s: &Self, c: i64, k: usize, o: i64, ko: usize| s.val(c, k, o, ko, false);
        let p_lack = |s: &Self, c: Character| s.p_lack_claim(c);
        let mut options: Vec<(String, f64)> = Vec::new();
        let act = |a: Action| Some(Reply::Act(a));
        match last {
            Some(Reply::Act(Action::ForeignAid)) => {
                options.push((Reply::Pass.text(), v1(self, mc, mk, oc + 2, ok)));
                let blocked = v1(self, mc, mk, oc, ok);
                let pc = tilt(pc_block(Block::Duke), self.implausibility(Duke));
                let d = if self.has(Duke) {
                    pc * v1(self, mc, mk, oc, ok - 1) + (1.0 - pc) * blocked
                } else {
                    pc * v1(self, mc, mk - 1, oc + 2, ok) + (1.0 - pc) * blocked
                };
                options.push((Reply::Block(Block::Duke).text(), d));
            }
            Some(Reply::Act(Action::Exchange | Action::Tax)) => {
                let gain = if last == act(Action::Tax) {
                    effects(Action::Tax, mc).0
                } else {
                    0
                };
                let c = if last == act(Action::Tax) {
                    Duke
                } else {
                    Ambassador
                };
                let pl = p_lack(self, c);
                options.push((Reply::Pass.text(), v1(self, mc, mk, oc + gain, ok)));
                options.push((
                    Reply::Challenge.text(),
                    pl * v1(self, mc, mk, oc, ok - 1)
                        + (1.0 - pl) * v1(self, mc, mk - 1, oc + gain, ok),
                ));
            }
            Some(Reply::Act(Action::Assassinate)) => {
                let pl = p_lack(self, Assassin);
                options.push((self.give_up(), v1(self, mc, mk - 1, oc - 3, ok)));
                // Catching a Contessa bluff wins the game outright: expect
                // a challenge more often than for other blocks.
                let pc_s = tilt(pc, self.implausibility(Contessa));
                let pc_s = if mk >= 2 {
                    // At least the Beta posterior of its answers to my
                    // Contessa blocks with
                    // [`StrongConfig::pc_contessa`](crate::coup::bot::StrongConfig::pc_contessa) as
                    // the prior mean, worth
                    // [`StrongConfig::pc_contessa_w`](crate::coup::bot::StrongConfig::pc_contessa_w)
                    // blocks: an opponent seen to let them all stand loses the floor.
                    let [n, k] = self.model.stats.block_challenged[3];
                    let w = self.p.pc_contessa_w;
                    pc_s.max((w * self.p.pc_contessa + k as f64) / (w + n as f64))
                } else {
                    pc_s
                };
                let s = if self.has(Contessa) {
                    pc_s * v1(self, mc, mk, oc - 3, ok - 1)
                        + (1.0 - pc_s) * v1(self, mc, mk, oc - 3, ok)
                } else {
                    (1.0 - pc_s) * v1(self, mc, mk, oc - 3, ok)
                };
                options.push((Reply::Block(Block::Contessa).text(), s));
                options.push((Reply::Challenge.text(), pl * v1(self, mc, mk, oc, ok - 1)));
            }
            Some(Reply::Act(Action::Steal)) => {
                let n = effects(Action::Steal, mc).0.min(mc);
                let pl = p_lack(self, Captain);
                let through = v1(self, mc - n, mk, oc + n, ok);
                let blocked = v1(self, mc, mk, oc, ok);
                options.push((Reply::Pass.text(), through));
                options.push((
                    Reply::Challenge.text(),
                    pl * v1(self, mc, mk, oc, ok - 1)
                        + (1.0 - pl) * v1(self, mc - n, mk - 1, oc + n, ok),
                ));
                for block in [Block::Captain, Block::Ambassador] {
                    let ch = block.character();
                    let pc = tilt(pc_block(block), self.implausibility(ch));
                    let e = if self.has(ch) {
                        pc * v1(self, mc, mk, oc, ok - 1) + (1.0 - pc) * blocked
                    } else {
                        pc * v1(self, mc - n, mk - 1, oc + n, ok) + (1.0 - pc) * blocked - 0.001
                    };
                    options.push((Reply::Block(block).text(), e));
                }
            }
            Some(Reply::Block(b)) => {
                let pl = p_lack(self, b.character());
                let action = self.line.first().and_then(|&c| Reply::from_code(c));
                let (accept, win, lose) = match action {
                    Some(Reply::Act(Action::ForeignAid)) => (
                        v0(self, mc, mk, oc, ok),
                        v0(self, mc + 2, mk, oc, ok - 1),
                        v0(self, mc, mk - 1, oc, ok),
                    ),
                    Some(Reply::Act(Action::Steal)) => {
                        // What the arbiter moves, capped by what the purse holds.
                        let n = effects(Action::Steal, oc).0.min(oc);
                        (
                            v0(self, mc, mk, oc, ok),
                            v0(self, mc + n, mk, oc - n, ok - 1),
                            v0(self, mc, mk - 1, oc, ok),
                        )
                    }
                    Some(Reply::Act(Action::Assassinate)) => (
                        v0(self, mc - 3, mk, oc, ok),
                        1.0,
                        v0(self, mc - 3, mk - 1, oc, ok),
                    ),
                    _ => (
                        v0(self, mc, mk, oc, ok),
                        v0(self, mc, mk, oc, ok - 1),
                        v0(self, mc, mk - 1, oc, ok),
                    ),
                };
                options.push((Reply::EndTurn.text(), accept));
                options.push((Reply::Challenge.text(), pl * win + (1.0 - pl) * lose));
            }
            _ => return self.fallback(),
        }
        {
            // The line, my coins and cards, its coins and cards, and the
            // value of each answer.
            let line = format!(
                "strong {:?} {}{} {} vs {}{} opts {:?}",
                self.line,
                mc,
                mk,
                self.hand.iter().map(|c| c.revealed()).collect::<String>(),
                oc,
                ok,
                options
            );
            self.explain.push(line);
        }
        options
            .into_iter()
            .filter(|(a, _)| self.legal.contains(a))
            .fold(None::<(String, f64)>, |best, (a, e)| match best {
                Some((ba, be)) if be >= e => Some((ba, be)),
                _ => Some((a, e)),
            })
            .map(|(a, _)| a)
            .unwrap_or_else(|| self.fallback())
    }

    /// Value of an Exchange that goes through: the expected value, over the
    /// two cards drawn from the cards I cannot see (`unseen`, drawn without
    /// replacement), of the best hand of my size I can keep from my cards and
    /// them, with the opponent to move ([`Ctx::reply_val`]). Keeping my hand
    /// is always one choice, so an Exchange is worth at least standing still,
    /// and more by what the draw can add. (The opponent's hand model is the
    /// one of my current hand: the two cards drawn are a small change to it.)
    pub(in crate::coup) fn exchange_value(&mut self) -> f64 {
        let (mc, mk, oc, ok) = (self.mc, self.mk, self.oc, self.ok);
        let u = self.unseen;
        let total: u32 = u.iter().sum();
        let mine = self.hand.clone();
        // A hand has one or two cards (anything longer is bad input, e.g.
        // a fuzzer's: the hand is kept as it is rather than enumerated).
        if total < 2 || mine.is_empty() || mine.len() > 2 {
            return self.reply_val(mc, mk, oc, ok);
        }
        let mut value = 0.0;
        for i in 0..5 {
            for j in i..5 {
                let p = if i == j {
                    (u[i] * u[i].saturating_sub(1)) as f64
                } else {
                    2.0 * (u[i] * u[j]) as f64
                } / (total * (total - 1)) as f64;
                if p == 0.0 {
                    continue;
                }
                let mut pool = mine.clone();
                pool.push(Character::ALL[i]);
                pool.push(Character::ALL[j]);
                let best = hands_of(&pool, mine.len())
                    .map(|kept| self.hand_value(kept))
                    .fold(f64::NEG_INFINITY, f64::max);
                value += p * best;
            }
        }
        self.hand = mine;
        value
    }

    /// The position once my turn ends holding `hand` instead of my hand,
    /// the opponent to move ([`Ctx::reply_val`]); `hand` stays mine after.
    fn hand_value(&mut self, hand: Vec<Character>) -> f64 {
        self.hand = hand;
        self.reply_val(self.mc, self.mk, self.oc, self.ok)
    }

    /// The strong bot's Exchange: the `keep` cards of `offered` whose hand
    /// the evaluation values most ([`Ctx::hand_value`], with the opponent's
    /// learned answers to my claims: against a player who challenges every
    /// claim, an Ambassador or a Duke kept is a card it loses each turn);
    /// ties go to the fixed card values of [`keep_cards`]. My one or two
    /// cards and two drawn make at most four: a longer offer is bad input,
    /// answered by the fixed values alone.
    pub(in crate::coup) fn strong_keep(&mut self, offered: &[Character], keep: usize) -> String {
        if offered.len() > 4 {
            return keep_cards(offered, keep, None);
        }
        self.strong_posterior();
        let mine = self.hand.clone();
        let mut best: Option<(f64, f64, Vec<Character>)> = None;
        for kept in hands_of(offered, keep) {
            let v = self.hand_value(kept.clone());
            let base: f64 = kept.iter().map(|&c| card_value(c, None, true)).sum();
            self.explain
                .push(format!("keep {} {v:.4}", format_hand(&kept)));
            let better = best
                .as_ref()
                .is_none_or(|(bv, bb, _)| v > bv + 1e-9 || ((v - bv).abs() <= 1e-9 && base > *bb));
            if better {
                best = Some((v, base, kept));
            }
        }
        self.hand = mine;
        best.map(|(_, _, k)| format_hand(&k))
            .unwrap_or_else(|| format_hand(&offered[offered.len().saturating_sub(keep)..]))
    }

    /// The strong bot's hand posterior of the opponent: every repeated claim
    /// counts as evidence, at the likelihood ratios learned from it
    /// ([`Ctx::claim_ratios`]).
    pub(in crate::coup) fn strong_posterior(&mut self) {
        self.p_opp = crate::coup::bot::model::hand_posterior(
            &self.h.opp,
            &self.unseen,
            self.ok,
            self.claim_ratios(),
            true,
        );
    }
}
