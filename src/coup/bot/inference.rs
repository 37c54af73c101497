//! Model use for the strong bot: the opponent's challenge, block and bluff
//! rates (this game's counts and memory), its hand posterior, and the
//! coin-race evaluation of positions.

use super::model::{hand_probabilities, inferred_plan, race, Gain, Plan, Racer};
use super::opponent::{kind_index, ACTION_KINDS, BLOCKABLE};
use super::view::Ctx;
use crate::coup::game::character::Character;
use crate::coup::game::history::action_index;
use crate::coup::game::protocol::{Action, Block, Reply};
use crate::coup::game::rules::{ASSASSINATE_COST, COUP_COST};

use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// A challenge probability `p` made likelier by a factor `f` for an
/// implausible claim (`f > 1`) or less likely for a plausible one: `p^(1/f)`,
/// which keeps an opponent that always (`p = 1`) or never (`p = 0`)
/// challenges as it is, capped at 0.98.
pub(super) fn tilt(p: f64, f: f64) -> f64 {
    p.clamp(0.0, 1.0).powf(1.0 / f.max(1e-3)).min(0.98)
}

pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Ctx<'_> {
    // ----- the strong bot -----

    /// The opponent's observed rate of challenging my claims (prior
    /// [`StrongConfig::pc_prior`](crate::coup::bot::StrongConfig::pc_prior) worth one claim).
    pub(in crate::coup) fn opp_challenge_rate(&self) -> f64 {
        let my_claims: u32 = self.h.me.claims.iter().sum();
        let [n, k] = self.mem_claims();
        ((self.p.pc_prior + (self.h.opp.challenges + k) as f64) / (1.0 + (my_claims + n) as f64))
            .clamp(self.p.rate_margin, 1.0 - self.p.rate_margin)
    }

    /// Past games: my claims (actions and blocks) and how many it challenged.
    pub(in crate::coup) fn mem_claims(&self) -> [u32; 2] {
        let mut t = [0, 0];
        for e in self
            .mem
            .challenged
            .iter()
            .flatten()
            .chain(&self.mem.block_challenged)
        {
            t[0] += e[0];
            t[1] += e[1];
        }
        t
    }

    /// Weight of past games against the race-lead prior: `n / (n + m)` for
    /// `n` remembered observations, where `m` =
    /// [`StrongConfig::mem_prior`](crate::coup::bot::StrongConfig::mem_prior)
    /// claims weigh as much as the prior.
    pub(in crate::coup) fn mem_weight(&self, n: u32) -> f64 {
        n as f64 / (n as f64 + self.p.mem_prior)
    }

    /// The opponent's rate of challenging my action `a`: the overall rate
    /// as a prior worth two observations, then this game's answers.
    pub(in crate::coup) fn opp_challenge_action(&self, a: Action) -> f64 {
        let lead = self.public_lead(self.mc, self.mk, self.oc, self.ok, false);
        let n_mem = kind_index(&ACTION_KINDS, a)
            .map_or(0, |k| self.mem.challenged[k][(self.ok >= 2) as usize][0]);
        let pc = self.challenge_given_lead(lead, self.opp_challenge_action_base(a), n_mem);
        match a.claim() {
            Some(c) => tilt(pc, self.implausibility(c)),
            None => pc,
        }
    }

    /// How much likelier a challenge of my claim of `c` is than usual, from
    /// how plausible the claim looks publicly: my hand model as the opponent
    /// could build it (dead cards, my claims and caught bluffs, this claim),
    /// relative to [`StrongConfig::plausible`](crate::coup::bot::StrongConfig::plausible); a
    /// rational challenger picks the implausible claims.
    pub(in crate::coup) fn implausibility(&self, c: Character) -> f64 {
        let mut u = [3u32; 5];
        for d in self.h.me.lost.iter().chain(&self.h.opp.lost) {
            u[d.index()] = u[d.index()].saturating_sub(1);
        }
        let mut r = self.h.me.clone();
        r.active_claims.push(c);
        let p = hand_probabilities(&r, &u, self.mk)[c.index()];
        // The floor only keeps the division finite: the factor is capped anyway.
        (self.p.plausible / p.max(0.05)).clamp(self.p.doubt_min, self.p.doubt_max)
    }

    /// Whether I lead the race as the opponent can see it: both sides'
    /// plans inferred from their public claims (at least Foreign Aid).
    pub(in crate::coup) fn public_lead(
        &self,
        mc: i64,
        mk: usize,
        oc: i64,
        ok: usize,
        my_next: bool,
    ) -> bool {
        let mine = inferred_plan(&self.h.me);
        let mut theirs = self.opp_plan();
        theirs.gain = theirs.gain.max(Gain::ForeignAid);
        let me = Racer {
            coins: mc,
            cards: mk,
            plan: mine,
        };
        let op = Racer {
            coins: oc,
            cards: ok,
            plan: theirs,
        };
        // As a race calculator in the opponent's seat would see it: it is
        // losing unless its plan wins the race against my claimed plan.
        let (opp_wins, _) = if my_next { race(me, op) } else { race(op, me) };
        let opp_wins = if my_next {
            opp_wins == Some(false)
        } else {
            opp_wins == Some(true)
        };
        !opp_wins
    }

    /// The challenge rate when I lead the race (`lead`) or not: a prior that
    /// an opponent challenges mostly when it is losing, blended with `base`
    /// (this game's rate for the kind of claim), then the challenges seen in
    /// the same situation count fully and those in the other at
    /// [`StrongConfig::lead_w`](crate::coup::bot::StrongConfig::lead_w).
    pub(in crate::coup) fn challenge_given_lead(&self, lead: bool, base: f64, n_mem: u32) -> f64 {
        let prior = if lead {
            self.p.pc_leading
        } else {
            self.p.pc_trailing
        };
        let (n, k) = self.answers.by_lead[lead as usize];
        let (n2, k2) = self.answers.by_lead[!lead as usize];
        let w = self.p.lead_w;
        let wm = self.mem_weight(n_mem);
        let p = (1.0 - wm) * 0.5 * (prior + base) + wm * base;
        // Past games' answers in the same situation keep their weight
        // against this game's few.
        let big_w = 1.0 + n_mem as f64;
        (big_w * p + k as f64 + w * k2 as f64) / (big_w + n as f64 + w * n2 as f64)
    }

    /// [`Ctx::opp_challenge_action`] without the race-lead split.
    pub(in crate::coup) fn opp_challenge_action_base(&self, a: Action) -> f64 {
        // Its answers to this kind of claim while it held as many cards as
        // now (this game and past ones): an opponent may challenge only
        // when a lost challenge cannot cost it more than the game.
        let [n, k] = kind_index(&ACTION_KINDS, a).map_or([0, 0], |k| {
            self.model.stats.challenged[k][(self.ok >= 2) as usize]
        });
        // A two-card Assassination has its own prior (a lost challenge
        // loses the game): not the rate at which it challenges other claims.
        let prior = if a == Action::Assassinate && self.ok >= 2 {
            self.model.challenge_action(a, self.ok)
        } else {
            self.opp_challenge_rate()
        };
        (prior + k as f64) / (1.0 + n as f64)
    }

    /// The opponent's rate of challenging my block `b`.
    pub(in crate::coup) fn opp_challenge_block(&self, b: Block) -> f64 {
        // Blocks are answered apart from actions (a caught block is cheap
        // for the challenger, a caught two-card Contessa wins it the game):
        // the Beta model of its answers to my blocks, this game and past ones.
        self.model.challenge_block(b)
    }

    /// Probability the opponent blocks my action `a` (one of
    /// [`BLOCKABLE`](crate::coup::bot::opponent::BLOCKABLE)) with one of
    /// `chars` when it does not challenge: a hand holding a blocking card
    /// (the hand model's probability, which carries this game's blocks as
    /// claims) blocks with
    /// [`StrongConfig::block_honest`](crate::coup::bot::StrongConfig::block_honest); a hand without
    /// one at the bluff rate (learned from its tested blocks, else the prior), at least the rate
    /// its block frequency implies ([`Ctx::block_bluff_rate_floor`]). This game's answers to `a`
    /// come from the hand it holds now (mostly): they update that prediction, worth one
    /// observation. (Counts over many past hands would blur the hand model; they enter through the
    /// floor.)
    pub(in crate::coup) fn opp_block_prob(&self, a: Action, chars: &[Character]) -> f64 {
        let none: f64 = chars.iter().map(|c| 1.0 - self.p_opp[c.index()]).product();
        let p_has = 1.0 - none;
        let all: u32 = self.model.stats.block_caught.iter().map(|e| e[0]).sum();
        let bluffs = if all >= self.p.model_min_tests {
            // Its blocks were tested: blocks without the card at the learned
            // ratio to blocks with it.
            let r = chars
                .iter()
                .map(|&c| self.model.block_bluff_ratio(c))
                .fold(0.0, f64::max);
            (self.p.block_honest * r).min(1.0)
        } else {
            (self.p.block_bluff
                + self.p.block_from_action * crate::coup::bot::model::bluff_rate(&self.h.opp))
            .min(self.p.block_bluff_max)
        };
        let bluffs = bluffs.max(self.block_bluff_rate_floor(a));
        let prior = self.p.block_honest * p_has + (1.0 - p_has) * bluffs;
        let i = action_index(a);
        let n = (self.answers.done[i] - self.answers.challenged[i]) as f64;
        ((prior.clamp(0.0, 1.0) + self.answers.blocked[i] as f64) / (1.0 + n)).clamp(0.0, 1.0)
    }

    /// My plan for the evaluation: honest gains and Assassination.
    /// Probability the claim of `c` just made (the last character of the
    /// line) is a bluff: the hand model without this claim, then Bayes with
    /// a bluff rate for this kind of claim. Blocks are bluffed less than
    /// actions; a Contessa block with two cards (a caught bluff loses both)
    /// least, with one card (nothing left to lose) most.
    pub(in crate::coup) fn p_lack_claim(&self, c: Character) -> f64 {
        self.p_lack_as(c, self.last_event(), true)
    }

    /// [`Ctx::p_lack_claim`] for a claim of `c` of kind `last` (the action
    /// or the block that claims it);
    /// `made`: the claim is already in the history (it is taken out of the
    /// hand model first), else it is a claim the opponent may make next,
    /// e.g. its block of the action I am weighing.
    pub(in crate::coup) fn p_lack_as(&self, c: Character, last: Option<Reply>, made: bool) -> f64 {
        if self.impossible(c) {
            return 1.0;
        }
        let mut r = self.h.opp.clone();
        if made {
            if let Some(i) = r.active_claims.iter().rposition(|&x| x == c) {
                r.active_claims.remove(i);
            }
        }
        let p0 = hand_probabilities(&r, &self.unseen, self.ok)[c.index()];
        let base = self.bluff_share();
        let contessa = Some(Reply::Block(Block::Contessa));
        if last == contessa && self.ok == 1 {
            // A Contessa block of its last card: the prior ratio
            // [`StrongConfig::beta_contessa1`](crate::coup::bot::StrongConfig::beta_contessa1)
            // gives a prior probability that it lacks the card, worth two of its tested last-card
            // Contessa blocks (this game and past ones), each caught or proved.
            let p_prior = 1.0 - p0 / (p0 + (1.0 - p0) * self.p.beta_contessa1).max(1e-9);
            return crate::coup::bot::opponent::level_rate_after(
                p_prior,
                self.model.stats.last_contessa,
            );
        }
        let tests = |t: &[[u32; 2]; 5]| t.iter().map(|e| e[0]).sum::<u32>();
        let block = match last {
            Some(Reply::Block(b)) => Some(b),
            _ => None,
        };
        if block.is_some() && tests(&self.model.stats.block_caught) >= self.p.model_min_tests {
            // Enough of its blocks were tested (this game and past ones): the
            // learned likelihood ratio of a block without the card.
            // At least the ratio its block frequency implies.
            let beta = self
                .model
                .block_bluff_ratio(c)
                .max(self.block_bluff_floor(block));
            return 1.0 - p0 / (p0 + (1.0 - p0) * beta).max(1e-9);
        }
        let floor = self.block_bluff_floor(block);
        let beta = match last {
            Some(Reply::Block(Block::Contessa)) if self.ok >= 2 => self.p.beta_contessa2.max(floor),
            Some(Reply::Block(Block::Contessa)) => self.p.beta_contessa1.max(floor),
            Some(Reply::Block(_)) => (base * self.p.beta_block).max(floor),
            // A failed challenge of an Assassination loses both cards: only
            // a rare claim is worth doubting.
            Some(Reply::Act(Action::Assassinate)) => {
                (base * self.p.beta_assassin).max(self.action_bluff_floor(c))
            }
            _ => (base * self.p.beta_action).max(self.action_bluff_floor(c)),
        };
        1.0 - p0 / (p0 + (1.0 - p0) * beta).max(1e-9)
    }

    /// Least likelihood ratio P(block | lacks the card) / P(block | holds
    /// it) for a block `b` that its block frequency implies: the rate
    /// floor of [`Ctx::block_bluff_rate_floor`] for the action `b` answers
    /// (Foreign Aid for a Duke, Steal for a Captain or an Ambassador,
    /// Assassinate for a Contessa) over
    /// [`StrongConfig::block_honest`](crate::coup::bot::StrongConfig::block_honest);
    /// 0 for no block.
    pub(in crate::coup) fn block_bluff_floor(&self, b: Option<Block>) -> f64 {
        let Some(a) = b.and_then(|b| {
            BLOCKABLE
                .into_iter()
                .find(|a| a.blocked_by().contains(&b.character()))
        }) else {
            return 0.0;
        };
        self.block_bluff_rate_floor(a) / self.p.block_honest
    }

    /// The least rate at which hands without a blocking card block my
    /// action `a` (one of [`BLOCKABLE`]), from how often past games' hands blocked my first
    /// such action ([`frequency_floor`]; a fresh two-card hand holds a Duke,
    /// or a Contessa, with [`crate::coup::bot::opponent::P_HOLD_TWO`], a Captain
    /// or an Ambassador with [`crate::coup::bot::opponent::P_HOLD_EITHER_TWO`]). This game's blocks are evidence about
    /// the hand it holds, which the hand model weighs.
    pub(in crate::coup) fn block_bluff_rate_floor(&self, a: Action) -> f64 {
        let p = match a {
            Action::ForeignAid | Action::Assassinate => crate::coup::bot::opponent::P_HOLD_TWO,
            Action::Steal => crate::coup::bot::opponent::P_HOLD_EITHER_TWO,
            _ => return 0.0,
        };
        let past = kind_index(&BLOCKABLE, a).map_or([0, 0], |i| self.mem.first_blocked[i]);
        frequency_floor(past, p)
    }

    /// Least likelihood ratio P(claim | lacks the card) / P(claim | holds
    /// it) of its action claiming `c` (Tax for a Duke, Exchange, Steal,
    /// Assassinate), from how often past games' dealt hands opened with that
    /// action ([`Stats::first_action`](crate::coup::bot::opponent::Stats),
    /// [`frequency_floor`] with a two-card hand holding the card with
    /// [`crate::coup::bot::opponent::P_HOLD_TWO`]): an opponent that opens with
    /// Tax in every game claims a Duke without one about as often as with
    /// one, so its Tax says little about its hand. A holder claims at most
    /// always, so the rate floor is also a floor on the ratio.
    pub(in crate::coup) fn action_bluff_floor(&self, c: Character) -> f64 {
        // The action that claims `c`, from the one table of claims.
        let past = ACTION_KINDS
            .iter()
            .position(|a| a.claim() == Some(c))
            .map_or([0, 0], |k| self.mem.first_action[k]);
        frequency_floor(past, crate::coup::bot::opponent::P_HOLD_TWO)
    }

    /// Likelihood ratios of its claims per character for the hand posterior:
    /// the pooled bluff share of its actions as before
    /// ([`crate::coup::bot::model::bluff_rate`] with past games), except Contessa (only
    /// ever a block) and any character whose blocks were tested at least
    /// [`StrongConfig::model_min_tests`](crate::coup::bot::StrongConfig::model_min_tests) times:
    /// the learned block ratio.
    pub(in crate::coup) fn claim_ratios(&self) -> [f64; 5] {
        let base = self.bluff_share().clamp(0.02, 1.0);
        let mut r = [base; 5];
        let tested = |c: Character| self.model.stats.block_caught[c.index()][0];
        let all: u32 = self.model.stats.block_caught.iter().map(|e| e[0]).sum();
        for c in [Contessa, Captain, Ambassador, Duke] {
            if c == Contessa && all >= self.p.model_min_tests || tested(c) >= self.p.model_min_tests
            {
                r[c.index()] = self.model.block_bluff_ratio(c).min(1.0);
            }
        }
        // At least what the frequency of its opening claims implies.
        for c in [Ambassador, Duke, Captain, Assassin] {
            r[c.index()] = r[c.index()].max(self.action_bluff_floor(c)).min(1.0);
        }
        r
    }

    /// Share of bluffs among its challenged action claims: the prior 0.3 of
    /// [`crate::coup::bot::model::bluff_rate`] with this game's and past games' tests.
    pub(in crate::coup) fn bluff_share(&self) -> f64 {
        let m = crate::coup::bot::opponent::pooled(&self.mem.action_caught);
        let r = &self.h.opp;
        crate::coup::bot::opponent::action_bluff_share_after(
            r.caught + m[1],
            r.caught + r.proved + m[0],
        )
    }

    pub(in crate::coup) fn my_value_plan(&self) -> Plan {
        let gain = if self.has(Duke) || self.opp_challenge_rate() < self.p.bluff_tax {
            Gain::Tax
        } else if self.has(Captain) && !(self.opp_claims(Captain) || self.opp_claims(Ambassador)) {
            Gain::Steal
        } else if !self.opp_claims(Duke) {
            Gain::ForeignAid
        } else {
            Gain::Income
        };
        // Assassinations are planned even against a likely Contessa: the
        // turn choice weighs the block itself, and planning them keeps the
        // evaluation's kill cost low enough to press an opponent that blocks.
        Plan {
            gain,
            // A bluffed Assassination only while the opponent's model says it
            // rarely challenges them with as many cards as it holds now (with
            // one card left it has nothing to lose by challenging: prior 0.5).
            // Not while it more likely than not holds a Contessa (its block
            // would take the 3 coins, again and again).
            assassinate: (self.has(Assassin)
                || (self.opp_challenge_action_base(Action::Assassinate) < self.p.bluff_assassin
                    && self.model.challenge_action(Action::Assassinate, self.ok)
                        < self.p.bluff_assassin))
                && self.p_opp[Contessa.index()] < 0.5,
        }
    }

    /// Win-probability estimate of a position: the race in turns each side
    /// needs with its plan, through a logistic.
    pub(in crate::coup) fn val(
        &self,
        mc: i64,
        mk: usize,
        oc: i64,
        ok: usize,
        my_next: bool,
    ) -> f64 {
        if ok == 0 {
            return 1.0;
        }
        if mk == 0 {
            return 0.0;
        }
        if my_next && ok == 1 && mc >= COUP_COST && self.my_turns_left(true) >= 1.0 {
            // A Coup of its last card, which nothing can stop (rules: Coup
            // cannot be blocked or challenged).
            return 1.0;
        }
        let plan = self.my_value_plan();
        let mut me = crate::coup::bot::model::smooth_turns(mc, plan, ok, oc);
        if plan.gain == Gain::Tax && !self.has(Duke) {
            // Future Taxes would be bluffs, each with its own risk: count
            // them as a slower gain so that taxing now is not put off.
            let k = ok as f64;
            let cost = if plan.assassinate {
                ASSASSINATE_COST
            } else {
                COUP_COST
            } as f64;
            me = k + (k * cost - mc as f64).max(0.0) / self.p.bluff_tax_gain;
        }
        if self.opp_plan().gain == Gain::Steal && !self.has(Captain) && !self.has(Ambassador) {
            // Its Steals drain my coins too: about a third more turns.
            me *= self.p.steal_drain;
        }
        // Each of my turns claims a character I hold (when I hold one the
        // plan can use): the opponent challenges it at its learned rate and
        // loses a card each time, on top of the race's pace of `ok` cards
        // in `me` turns.
        let pc = self.honest_claim_challenge(mc, oc);
        if pc > 0.0 && me > 0.0 {
            let k = ok as f64;
            me = k / (k / me + pc);
        }
        let op = self.opp_turns(oc, mk);
        let tempo = if my_next { self.p.tempo } else { -self.p.tempo };
        let race =
            sigmoid(self.p.scale * (op - me + tempo) + self.p.cards * (mk as f64 - ok as f64));
        // The arbiter ends the game as a draw after MAX_CALLS calls, and a
        // draw scores nothing (`docs/rules/coup.md` §6.1): a race won too late is not
        // won. The turns I need against the turns left, on the same
        // logistic scale as the race itself.
        race * sigmoid(self.p.scale * (self.my_turns_left(my_next) - me))
    }

    /// The opponent's rate of challenging the honest claim I would make on
    /// my turns: the most challenged of Tax (Duke), Steal (Captain, while
    /// it has coins), Exchange (Ambassador) and Assassinate (Assassin) that
    /// my hand and my `mc` coins allow ([`Ctx::opp_challenge_action_base`]);
    /// 0 without one. An Assassin is no claim I can make below the
    /// Assassination's price.
    pub(in crate::coup) fn honest_claim_challenge(&self, mc: i64, oc: i64) -> f64 {
        // The claiming actions and their characters, from the one table of claims.
        ACTION_KINDS
            .into_iter()
            .filter(|&a| a.claim().is_some_and(|c| self.has(c)))
            .filter(|&a| a != Action::Steal || oc > 0)
            .filter(|&a| a != Action::Assassinate || mc >= ASSASSINATE_COST)
            .map(|a| self.opp_challenge_action_base(a))
            .fold(0.0, f64::max)
    }

    /// Turns the opponent needs to remove `mk` cards from `oc` coins: Tax if
    /// it claims a Duke, else a gain of
    /// [`StrongConfig::opp_gain`](crate::coup::bot::StrongConfig::opp_gain) (it may hold anything);
    /// Assassination at 3 if it claims an Assassin and I hold no Contessa, a Coup if I do, else a
    /// middle cost [`StrongConfig::opp_kill`](crate::coup::bot::StrongConfig::opp_kill).
    pub(in crate::coup) fn opp_turns(&self, oc: i64, mk: usize) -> f64 {
        let plan = self.opp_plan();
        let gain = match plan.gain {
            Gain::Tax => 3.0,
            Gain::Steal => self.p.steal_gain.max(self.p.opp_gain),
            _ => self.p.opp_gain,
        };
        let kill = if self.has(Contessa) {
            COUP_COST as f64
        } else if plan.assassinate {
            ASSASSINATE_COST as f64
        } else {
            self.p.opp_kill
        };
        let k = mk as f64;
        k + (k * kill - oc as f64).max(0.0) / gain
    }

    /// Value of a position with the opponent to move, one ply deeper: the
    /// opponent's best turn against me (Income, Foreign Aid unless I hold a
    /// Duke, Tax, Coup at 7, Assassinate at 3 unless I hold a Contessa,
    /// Steal unless I can block it) and then [`Ctx::val`] with me to move.
    pub(in crate::coup) fn reply_val(&self, mc: i64, mk: usize, oc: i64, ok: usize) -> f64 {
        if ok == 0 {
            return 1.0;
        }
        if mk == 0 {
            return 0.0;
        }
        // It has one turn before my Coup of its last card: with two cards I
        // survive it, unless a Steal I cannot block with a card I hold takes
        // me below the Coup's price.
        let can_block_steal = self.has(Captain) || self.has(Ambassador);
        if ok == 1
            && mk == 2
            && (mc >= COUP_COST + 2 || (mc >= COUP_COST && can_block_steal))
            && self.my_turns_left(false) >= 1.0
        {
            return 1.0;
        }
        if !self.p.ply2 {
            return self.val(mc, mk, oc, ok, false);
        }
        let v = |c: i64, k: usize, o: i64| self.val(c, k, o, ok, true);
        let mut replies: Vec<f64> = Vec::with_capacity(6);
        if oc >= COUP_COST {
            replies.push(v(mc, mk - 1, oc - COUP_COST));
        }
        if oc < 10 {
            replies.push(v(mc, mk, oc + 1));
            if !self.has(Duke) {
                replies.push(v(mc, mk, oc + 2));
            }
            let p_duke = self.p_opp[Duke.index()];
            let trust = p_duke + (1.0 - p_duke) * self.p.tax_trust;
            replies.push(trust * v(mc, mk, oc + 3) + (1.0 - trust) * v(mc, mk, oc + 1));
            if oc >= ASSASSINATE_COST {
                let p_ass = self.p_opp[Assassin.index()];
                let hit = if self.has(Contessa) {
                    v(mc, mk, oc - 3)
                } else {
                    v(mc, mk - 1, oc - 3)
                };
                replies.push(p_ass * hit + (1.0 - p_ass) * v(mc, mk, oc + 1));
            }
            if mc > 0 && !self.has(Captain) && !self.has(Ambassador) {
                let n = if mc == 1 { 1 } else { 2 };
                let p_cap = self.p_opp[Captain.index()];
                replies.push(p_cap * v(mc - n, mk, oc + n) + (1.0 - p_cap) * v(mc, mk, oc + 1));
            }
        }
        let min = replies.iter().copied().fold(f64::INFINITY, f64::min);
        let mean = replies.iter().sum::<f64>() / replies.len().max(1) as f64;
        self.p.reply_min * min + (1.0 - self.p.reply_min) * mean
    }
}

/// The least rate of a claim by hands that lack its card, from `[hands,
/// claims]` (one chance per hand): `f`, the share of hands that claimed,
/// its Beta posterior with the prior mean `p` (the chance that a hand holds
/// the card, worth [`crate::coup::bot::opponent::BLOCK_PRIOR_WEIGHT`] hands),
/// taken one posterior standard deviation `sd` below its mean. A hand with
/// the card claims at most always, so at least `(f - sd - p) / (1 - p)` of
/// the hands without it claimed too; no evidence gives 0. The deviation
/// keeps an honest claimer, whose share only wanders around `p`, from
/// being credited with bluffs half of the time.
pub(super) fn frequency_floor(hands: [u32; 2], p: f64) -> f64 {
    let w = crate::coup::bot::opponent::BLOCK_PRIOR_WEIGHT;
    let a = w * p + hands[1] as f64;
    let b = w * (1.0 - p) + (hands[0] - hands[1].min(hands[0])) as f64;
    let f = a / (a + b);
    let sd = (a * b / ((a + b) * (a + b) * (a + b + 1.0))).sqrt();
    ((f - sd - p) / (1.0 - p)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::frequency_floor;
    use crate::coup::bot::opponent::P_HOLD_TWO;

    #[test]
    fn frequency_floor_by_hand() {
        let p = P_HOLD_TWO;
        let floor = |n: f64, k: f64| {
            // Beta(2p + k, 2(1 - p) + n - k): mean minus one deviation.
            let (a, b) = (2.0 * p + k, 2.0 * (1.0 - p) + n - k);
            let f = a / (a + b);
            let sd = (a * b / ((a + b).powi(2) * (a + b + 1.0))).sqrt();
            ((f - sd - p) / (1.0 - p)).max(0.0)
        };
        // No evidence, a share at the holding chance, or a little above it
        // (an honest claimer's noise): no floor.
        assert_eq!(frequency_floor([0, 0], p), 0.0);
        assert_eq!(frequency_floor([30, 11], p), 0.0);
        assert_eq!(frequency_floor([30, 13], p), 0.0);
        // Always (20 hands of 20): nearly every hand without it claims.
        let want = floor(20.0, 20.0);
        assert!((frequency_floor([20, 20], p) - want).abs() < 1e-12);
        assert!(want > 0.8, "{want}");
        // Two thirds of 60 hands.
        assert!((frequency_floor([60, 40], p) - floor(60.0, 40.0)).abs() < 1e-12);
        assert!(floor(60.0, 40.0) > 0.3);
    }
}
