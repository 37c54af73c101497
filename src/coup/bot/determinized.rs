//! The `search` strategy: determinized Monte Carlo search on the one engine
//! ([`crate::coup::game::engine`]).
//!
//! For one decision: draw [`SearchConfig::worlds`] worlds from my
//! information state (the opponent's hand from the hand posterior of
//! [`crate::coup::bot::model::hand_distribution`], weighted by its learnt bluff
//! ratios; the deck from the cards left), and in each world play every root
//! answer (and, on an Exchange call, every keep) to the end of the game
//! through the engine, the same world for every answer (common random
//! numbers). The answer with the most wins is chosen. Both sides play the
//! rest of the game by [`Habits`]: the opponent by the habits learnt from its
//! answers (this game and the memory, [`Model`]), I by my own. Neither
//! rollout policy looks at the other side's cards, so a world's hidden cards
//! steer only the outcomes, never a decision.
//!
//! Deterministic: the random stream is seeded from the decision's input and
//! the work is capped by the number of worlds. The clock is read only as a
//! safety net ([`SearchConfig::clock_ms`], 1 s): a search past it stops
//! early and the decision's note says so.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use super::config::{fixed, SearchConfig};
use super::opponent::{
    kind_index, race_standing, ClaimAt, Model, ACTION_KINDS, BLOCK_KINDS, RACES,
};
use super::view::Ctx;
use crate::coup::game::character::Character;
use crate::coup::game::protocol::{Action, Block, Reply};
use crate::coup::game::rules::{is_exchange_call, last_line};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::coup::bot::model::{
    hand_distribution, hand_distribution_chosen, PassWeights, EXCHANGE_RANK, HALF_PASS,
    PASSED_OVER_WEIGHT,
};
use std::time::{Duration, Instant};

use super::known::{replica_particles, Identified};
use crate::coup::game::engine::{at_turn_start, Cards, State};
use crate::coup::game::history::calls_made;
use crate::coup::game::protocol::LINE_END;
use crate::coup::sparring::replica::{decide_call, Call, Flags};
use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// A learnt likelihood ratio of claiming a character without it, in a
/// claim's context (see [`Model::resolved_action_ratio`]).
type BluffRatio = fn(&Model, Character, ClaimAt) -> f64;

/// The opponent's bluff ratios the configuration reads, `(actions, blocks)`:
/// from its resolved claims ([`SearchConfig::resolved_bluffs`]) or from
/// its challenged ones.
fn bluff_ratios(c: &SearchConfig) -> (BluffRatio, BluffRatio) {
    if c.resolved_bluffs {
        (Model::resolved_action_ratio, Model::resolved_block_ratio)
    } else {
        (
            |m: &Model, c, _| m.action_bluff_ratio(c),
            |m: &Model, c, _| m.block_bluff_ratio(c),
        )
    }
}

/// How one side plays out the rest of a game: probabilities of its choices
/// that its cards do not decide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Habits {
    /// Challenges of the other's action claims (Exchange, Tax, Steal,
    /// Assassinate), by own card count (index 0: one card, 1: two) and race
    /// standing ([`race_standing`] of own coins against the claimant's).
    pub challenge: [[[f64; RACES]; 2]; 4],
    /// Challenges of the other's blocks `a c d s`.
    pub challenge_block: [f64; 4],
    /// Blocks without the card, of Foreign Aid, Steal, Assassination.
    pub block_bluff: [f64; 3],
    /// Blocks with the card.
    pub block_held: f64,
    /// Tax claimed without a Duke at a turn start.
    pub tax_bluff: f64,
    /// An Exchange with an Ambassador at a turn with nothing better to do
    /// ([`fixed::ROLLOUT_EXCHANGE`]).
    pub exchange: f64,
    /// Foreign Aid rather than Income at such a turn
    /// ([`fixed::ROLLOUT_FOREIGN_AID`]).
    pub foreign_aid: f64,
}

impl Habits {
    /// My own habits in rollouts ([`fixed`]).
    pub fn mine() -> Habits {
        Habits {
            challenge: [[[fixed::MY_CHALLENGE; RACES]; 2]; 4],
            challenge_block: [fixed::MY_CHALLENGE; 4],
            block_bluff: [fixed::MY_BLOCK_BLUFF; 3],
            block_held: fixed::BLOCK_WHEN_HELD,
            tax_bluff: fixed::MY_TAX_BLUFF,
            exchange: fixed::ROLLOUT_EXCHANGE,
            foreign_aid: fixed::ROLLOUT_FOREIGN_AID,
        }
    }

    /// The opponent's habits, learnt: its challenge rates from [`Model`]
    /// (Beta posteriors of its answers to my claims), its bluff rates from
    /// the likelihood ratios of its caught and proved claims (a ratio `r`
    /// of claiming without the card to claiming with it means a bluff rate
    /// `r` times the rate of claiming with it), those against my `mine`
    /// cards at the root. Its challenge rates are identified
    /// ([`Model::identified_action_rate`]) and, with `by_race`, read in the
    /// race standing of the moment ([`Model::challenge_action_at`]; how
    /// [`SearchConfig::mind`] sees my habits as an adaptive player would).
    pub fn learnt(m: &Model, c: &SearchConfig, mine: usize, by_race: bool) -> Habits {
        let mut challenge = [[[0.0; RACES]; 2]; 4];
        for (k, a) in ACTION_KINDS.into_iter().enumerate() {
            for (two, cards) in challenge[k].iter_mut().enumerate() {
                for (race, r) in cards.iter_mut().enumerate() {
                    let n = two + 1;
                    let rate = if by_race {
                        m.challenge_action_at(a, n, race)
                    } else {
                        m.challenge_action(a, n)
                    };
                    *r = m.identified_action_rate(rate);
                }
            }
        }
        let mut challenge_block = [0.0; 4];
        for (k, b) in BLOCK_KINDS.into_iter().enumerate() {
            challenge_block[k] = m.identified_challenge_block(b);
        }
        let held = fixed::BLOCK_WHEN_HELD;
        let (action, block) = bluff_ratios(c);
        let pooled = ClaimAt::against(mine);
        Habits {
            challenge,
            challenge_block,
            block_bluff: [
                (block(m, Duke, pooled) * held).min(1.0),
                (block(m, Captain, pooled) * held).min(1.0),
                (block(m, Contessa, pooled) * held).min(1.0),
            ],
            block_held: held,
            // It claims Tax at every turn it holds a Duke (the rollout
            // policy), so its rate without one is the ratio itself.
            tax_bluff: action(m, Duke, pooled).min(1.0),
            exchange: fixed::ROLLOUT_EXCHANGE,
            foreign_aid: fixed::ROLLOUT_FOREIGN_AID,
        }
    }
}

/// How much a card is worth keeping in a rollout (higher: kept longer).
fn keep_rank(c: Character) -> u8 {
    match c {
        Duke => 5,
        Assassin => 4,
        Captain => 3,
        Contessa => 2,
        Ambassador => 1,
    }
}

/// A rollout policy's answer for the seat to call. Looks only at public
/// facts (coins, card counts, the line) and the seat's own cards.
fn rollout_answer<R: Rng + ?Sized>(
    s: &State,
    legal: &[Reply],
    habits: &Habits,
    rng: &mut R,
) -> Reply {
    let me = s.to_call();
    let hand = s.hands[me];
    let (c, oc) = (s.coins[me], s.coins[1 - me]);
    let ok = s.hands[1 - me].len();
    let has = |x: Character| hand.contains(x);
    let can = |r: Reply| legal.contains(&r);
    let worst = || {
        let w = hand
            .as_slice()
            .iter()
            .copied()
            .min_by_key(|&x| keep_rank(x))
            .unwrap_or(Ambassador);
        legal
            .iter()
            .copied()
            .find(|r| matches!(r, Reply::GiveUp(x) | Reply::GiveUpEnd(x) if *x == w))
            .unwrap_or(legal[0])
    };
    if legal.len() <= 1 {
        return legal.first().copied().unwrap_or(Reply::EndTurn);
    }
    // The last event of the line; none at a turn's start.
    let last = s.line().last().and_then(|&c| Reply::from_code(c));
    let two = (hand.len() >= 2) as usize;
    let race = race_standing(c, oc);
    let act = |a: Action| Reply::Act(a);
    match last {
        None => {
            if can(act(Action::Coup)) && (c >= 7) {
                return act(Action::Coup);
            }
            if has(Assassin) && can(act(Action::Assassinate)) {
                return act(Action::Assassinate);
            }
            if has(Duke) {
                return act(Action::Tax);
            }
            if has(Captain) && oc >= 2 && can(act(Action::Steal)) {
                return act(Action::Steal);
            }
            if rng.random_bool(habits.tax_bluff.clamp(0.0, 1.0)) {
                return act(Action::Tax);
            }
            if has(Ambassador) && ok > 0 && rng.random_bool(habits.exchange.clamp(0.0, 1.0)) {
                return act(Action::Exchange);
            }
            if rng.random_bool(habits.foreign_aid.clamp(0.0, 1.0)) {
                act(Action::ForeignAid)
            } else {
                act(Action::Income)
            }
        }
        Some(Reply::Act(Action::ForeignAid)) => {
            if (has(Duke) && rng.random_bool(habits.block_held))
                || rng.random_bool(habits.block_bluff[0].clamp(0.0, 1.0))
            {
                Reply::Block(Block::Duke)
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(a @ (Action::Exchange | Action::Tax))) => {
            let k = kind_index(&ACTION_KINDS, a).unwrap_or(0);
            if rng.random_bool(habits.challenge[k][two][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(Action::Steal)) => {
            if has(Captain) && rng.random_bool(habits.block_held) {
                Reply::Block(Block::Captain)
            } else if has(Ambassador) && rng.random_bool(habits.block_held) {
                Reply::Block(Block::Ambassador)
            } else if rng.random_bool(habits.challenge[2][two][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else if rng.random_bool(habits.block_bluff[1].clamp(0.0, 1.0)) {
                Reply::Block(Block::Captain)
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(Action::Assassinate)) => {
            if has(Contessa) {
                Reply::Block(Block::Contessa)
            } else if hand.len() <= 1 {
                // Giving up loses the game: contest it one way or the other.
                if rng.random_bool(habits.challenge[3][0][race].clamp(0.0, 1.0)) {
                    Reply::Challenge
                } else {
                    Reply::Block(Block::Contessa)
                }
            } else if rng.random_bool(habits.challenge[3][1][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else if rng.random_bool(habits.block_bluff[2].clamp(0.0, 1.0)) {
                Reply::Block(Block::Contessa)
            } else {
                worst()
            }
        }
        Some(Reply::Block(b)) => {
            let k = kind_index(&BLOCK_KINDS, b).unwrap_or(0);
            if rng.random_bool(habits.challenge_block[k].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else {
                Reply::EndTurn
            }
        }
        _ => {
            // A forced reveal, a card to give up, or the end of a turn.
            if let Some(&r) = legal.iter().find(|r| matches!(r, Reply::Reveal(_))) {
                return r;
            }
            if legal.contains(&Reply::EndTurn) {
                return Reply::EndTurn;
            }
            worst()
        }
    }
}

/// The best `size` cards of an Exchange offer by [`keep_rank`], a second
/// copy of a character last.
fn rollout_keep(pool: &[Character], size: usize) -> Cards {
    let mut sorted = pool.to_vec();
    sorted.sort_by_key(|&c| std::cmp::Reverse(keep_rank(c)));
    let mut kept = Cards::default();
    for &c in &sorted {
        if kept.len() < size && !kept.contains(c) {
            kept.push(c);
        }
    }
    for &c in &sorted {
        if kept.len() < size {
            let mut left = Cards::from_slice(pool);
            for &k in kept.as_slice() {
                left.remove(k);
            }
            if left.contains(c) {
                kept.push(c);
            }
        }
    }
    kept
}

/// The value of a rollout cut at the horizon, for seat `me`
/// ([`SearchConfig::card_value`], [`fixed::COIN_VALUE`]).
fn cut_value(s: &State, me: usize, c: &SearchConfig) -> f64 {
    let mk = s.hands[me].len().clamp(1, 2) - 1;
    let ok = s.hands[1 - me].len().clamp(1, 2) - 1;
    let lead = (s.coins[me] - s.coins[1 - me]) as f64;
    (c.card_value[mk][ok] + fixed::COIN_VALUE * lead).clamp(0.0, 1.0)
}

/// Plays a world to its end (or to the horizon); 1.0 when seat `me` wins,
/// 0.0 otherwise (a draw loses both players).
/// The horizon counts the calls made since call number `start`.
pub(super) fn playout<R: Rng + ?Sized>(
    s: &mut State,
    me: usize,
    habits: &[Habits; 2],
    config: &SearchConfig,
    start: usize,
    rng: &mut R,
) -> f64 {
    loop {
        if s.out_of_calls() {
            return 0.0;
        }
        // Past the horizon, cut at a turn's start (or once the quiescence
        // extension is spent).
        let played = s.calls - start;
        if config.horizon > 0
            && played >= config.horizon
            && !s.hands[0].is_empty()
            && (at_turn_start(s.line()) || played >= config.horizon + config.quiescence)
        {
            return cut_value(s, me, config);
        }
        let seat = s.to_call();
        let mut keep = None;
        if s.exchange_due() {
            if !s.draw_exchange() {
                return 0.0;
            }
            keep = Some(rollout_keep(
                s.exchange_pool().as_slice(),
                s.hands[seat].len(),
            ));
        }
        let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
            return 0.0;
        };
        let answer = rollout_answer(s, legal.as_slice(), &habits[seat], rng);
        let kept = keep.as_ref().map(|k| k.as_slice());
        if let Some(end) = s.apply(answer, kept, rng) {
            return end.reward(me);
        }
    }
}

/// The opponent's seat played by the contest winner's rule in a rollout
/// ([`super::known`]): its flags and the parts of the history file the rule
/// reads besides the last line, kept up to date call by call.
#[derive(Debug, Clone)]
struct RuleSeat {
    flags: Flags,
    /// Lines of the history file (one more once a call starts a line).
    turn: usize,
    /// Lines holding a given-up card.
    lossy_lines: i64,
    /// Whether the current line holds one.
    line_lossy: bool,
}

impl RuleSeat {
    /// Whether the next call starts a line.
    fn starts_line(s: &State) -> bool {
        s.line().is_empty() || s.line().last() == Some(&LINE_END)
    }

    /// Counts the call `answer` just applied (`new_line` from
    /// [`RuleSeat::starts_line`] before it).
    fn after(&mut self, new_line: bool, answer: Reply) {
        if new_line {
            self.turn += 1;
            self.line_lossy = false;
        }
        if answer.given_up().is_some() && !self.line_lossy {
            self.lossy_lines += 1;
            self.line_lossy = true;
        }
    }

    /// The rule's answer for the seat to call (and its kept cards on an
    /// Exchange call); the first legal answer when the rule's is not legal.
    fn answer(&mut self, s: &State, legal: &[Reply]) -> (Reply, Option<Cards>) {
        let who = s.to_call();
        let line: String = if s.line().is_empty() && self.turn == 0 {
            LINE_END.to_string()
        } else {
            s.line().iter().collect()
        };
        let mut offered: Vec<Character> = Vec::new();
        if s.exchange_due() {
            offered.extend(s.drawn.iter().flatten());
        }
        offered.extend_from_slice(s.hands[who].as_slice());
        let cards: String = offered.iter().map(|c| c.revealed()).collect();
        let texts: Vec<String> = legal.iter().map(|r| r.text()).collect();
        let call = Call {
            line: &line,
            turn: self.turn,
            lossy_lines: self.lossy_lines,
            opp_coins: s.coins[1 - who],
            my_coins: s.coins[who],
            cards: &cards,
            legal: &texts,
        };
        let (text, keep) = decide_call(&call, &mut self.flags);
        let answer = Reply::parse(&text)
            .filter(|r| legal.contains(r))
            .unwrap_or(legal[0]);
        let kept = keep.map(|k| {
            Cards::from_slice(
                &k.chars()
                    .filter_map(Character::from_revealed)
                    .collect::<Vec<_>>(),
            )
        });
        (answer, kept)
    }
}

/// [`playout`] with the opponent's seat played by the contest winner's rule
/// (`seat`) and mine by `mine`; cut after `horizon` calls (0: never).
#[allow(clippy::too_many_arguments)]
fn rule_playout<R: Rng + ?Sized>(
    s: &mut State,
    me: usize,
    mine: &Habits,
    seat: &mut RuleSeat,
    horizon: usize,
    config: &SearchConfig,
    start: usize,
    rng: &mut R,
) -> f64 {
    loop {
        if s.out_of_calls() {
            return 0.0;
        }
        if horizon > 0 && s.calls - start >= horizon && at_turn_start(s.line()) {
            return cut_value(s, me, config);
        }
        let who = s.to_call();
        let mut keep = None;
        if s.exchange_due() {
            if !s.draw_exchange() {
                return 0.0;
            }
            if who == me {
                keep = Some(rollout_keep(
                    s.exchange_pool().as_slice(),
                    s.hands[who].len(),
                ));
            }
        }
        let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
            return 0.0;
        };
        let answer = if who == me {
            rollout_answer(s, legal.as_slice(), mine, rng)
        } else {
            let (a, k) = seat.answer(s, legal.as_slice());
            keep = k;
            a
        };
        let new_line = RuleSeat::starts_line(s);
        let end = s.apply(answer, keep.as_ref().map(|k| k.as_slice()), rng);
        seat.after(new_line, answer);
        if let Some(end) = end {
            return end.reward(me);
        }
    }
}

/// The opponent played by the contest winner's rule in a share of the worlds
/// ([`SearchConfig::known_prior`]): the filter's hypotheses and that share.
pub(super) struct KnownRule {
    id: Identified,
    share: f64,
    /// Whether the history's unfinished line holds a given-up card.
    line_lossy: bool,
}

impl KnownRule {
    /// In [`KnownRule::share`] of the calls: `world` with the opponent's
    /// hand drawn from the filter (the rest of the cards I cannot see
    /// reshuffled into the deck) and the rule's seat; `None` otherwise.
    fn draw<R: Rng + ?Sized>(
        &self,
        world: &State,
        me: usize,
        rng: &mut R,
    ) -> Option<(State, RuleSeat)> {
        if rng.random::<f64>() >= self.share {
            return None;
        }
        let mut x = rng.random::<f64>();
        let particles = &self.id.particles;
        let mut pick = particles.last()?;
        for p in particles {
            if x < p.weight {
                pick = p;
                break;
            }
            x -= p.weight;
        }
        let mut pool: Vec<Character> = world.deck.as_slice().to_vec();
        pool.extend_from_slice(world.hands[1 - me].as_slice());
        let mut hand = Cards::default();
        for &c in &pick.hand {
            if let Some(i) = pool.iter().position(|&p| p == c) {
                hand.push(pool.remove(i));
            }
        }
        // A card the pool lacks (my view counts it out): any other.
        while hand.len() < world.hands[1 - me].len() {
            hand.push(pool.pop()?);
        }
        pool.shuffle(rng);
        let mut s = *world;
        s.hands[1 - me] = hand;
        s.deck = Cards::from_slice(&pool);
        let seat = RuleSeat {
            flags: pick.flags.clone(),
            turn: self.id.turn,
            lossy_lines: self.id.lossy_lines,
            line_lossy: self.line_lossy,
        };
        Some((s, seat))
    }
}

/// The flat search's policies as the tree search's
/// ([`super::tree::Policies`]), for seat `me`.
struct Rollouts<'a> {
    me: usize,
    habits: &'a [Habits; 2],
    config: &'a SearchConfig,
}

impl super::tree::Policies for Rollouts<'_> {
    fn opponent(&self, s: &State, legal: &[Reply], rng: &mut ChaCha8Rng) -> Reply {
        rollout_answer(s, legal, &self.habits[s.to_call()], rng)
    }
    fn keep(&self, pool: &[Character], size: usize) -> Cards {
        rollout_keep(pool, size)
    }
    fn playout(&self, s: &mut State, start: usize, rng: &mut ChaCha8Rng) -> f64 {
        playout(s, self.me, self.habits, self.config, start, rng)
    }
    fn cut(&self, s: &State) -> f64 {
        cut_value(s, self.me, self.config)
    }
}

/// One root choice: the answer with its wins.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The answer.
    pub answer: Reply,
    /// Wins over the worlds played.
    pub wins: f64,
    /// Worlds played (the flat search: every answer in every world) or
    /// the answer's visits (the tree search: one world per iteration).
    pub worlds: usize,
}

/// What [`Ctx::search_choices`] found.
#[derive(Debug, Clone, Default)]
pub(in crate::coup) struct Searched {
    /// The choices, best first (empty when the history cannot be set up
    /// as an engine state).
    pub(in crate::coup) choices: Vec<Choice>,
    /// The note of the clock's safety net when it stopped the search
    /// ([`SearchConfig::clock_ms`]).
    pub(in crate::coup) clock_note: Option<String>,
    /// The hand posterior's marginals the worlds were drawn from
    /// ([`Ctx::opponent_hands`]; zeros when there are no choices).
    pub(in crate::coup) posterior: [f64; 5],
    /// Whether the tree search ran (the choices' counts are then visits,
    /// else worlds).
    pub(in crate::coup) tree: bool,
}

/// The order of two answers of the flat search whose wins are equal, `a`'s
/// worlds having run `la` calls in all and the other's `lb`: a won position
/// (wins at least half the worlds) is best finished in fewer calls, a lost
/// one dragged out in more (the opponent may yet err). Equal wins happen
/// when every world is won or lost whatever the answer (a Coup on the
/// opponent's last card against Income at 7 coins), where ranking by wins
/// alone kept the first legal answer and let a won game stall.
fn pace(a: &Choice, la: usize, lb: usize) -> std::cmp::Ordering {
    if 2.0 * a.wins >= a.worlds as f64 {
        la.cmp(&lb)
    } else {
        lb.cmp(&la)
    }
}

/// The probability that the opponent holds at least one of each character
/// (index of [`Character::index`]) under the weighted `hands`; zeros when
/// no hand has weight.
fn marginals(hands: &[(Vec<Character>, f64)]) -> [f64; 5] {
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

impl Ctx<'_> {
    /// Likelihood ratios P(claim | lacks the card) / P(claim | holds it) of
    /// the opponent's standing claims, per character, for the hand
    /// posterior: its action claims' ratio ([`Model::action_bluff_ratio`],
    /// from the share of bluffs among its challenged actions), except a
    /// Contessa (only ever a block) and a block it has just made (the last
    /// character of `line`), which take its blocks' ratio
    /// ([`Model::block_bluff_ratio`]); with [`SearchConfig::resolved_bluffs`]
    /// the ratios of its resolved claims against as many cards as I hold
    /// now.
    fn search_ratios(&self, line: &[char], config: &SearchConfig) -> [f64; 5] {
        let (action, block) = bluff_ratios(config);
        let mine = self.h.me.cards_left();
        let pooled = ClaimAt::against(mine);
        let mut r = Character::ALL.map(|c| action(&self.model, c, pooled).min(1.0));
        r[Contessa.index()] = block(&self.model, Contessa, pooled).min(1.0);
        // The claim I am answering, by the claimant's cards when the
        // configuration says so.
        let at = ClaimAt {
            mine,
            claimant: config.claimant_cards.then(|| self.h.opp.cards_left()),
        };
        match line.last().and_then(|&c| Reply::from_code(c)) {
            Some(Reply::Block(b)) => {
                let c = b.character();
                r[c.index()] = block(&self.model, c, at).min(1.0);
            }
            Some(Reply::Act(a)) if line.len() == 1 && ACTION_KINDS.contains(&a) => {
                if let Some(c) = a.claim() {
                    r[c.index()] = action(&self.model, c, at).min(1.0);
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
    /// last line.
    fn opponent_hands(
        &mut self,
        line: &[char],
        history: &str,
        config: &SearchConfig,
    ) -> Vec<(Vec<Character>, f64)> {
        let ratios = self.search_ratios(line, config);
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
            self.read_mind(&mut hands, &ratios, line, history, config);
        }
        hands
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
    /// `ratios`, [`Ctx::search_ratios`]) by
    /// how likely each was to make its pending claim, when `line` ends
    /// with one: an action claim at its turn's start
    /// (`src/coup/bot/mind.rs`).
    fn read_mind(
        &mut self,
        hands: &mut [(Vec<Character>, f64)],
        ratios: &[f64; 5],
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
        // The pending claim's learnt ratio taken out of the weights.
        let ratio = ratios[claimed.index()].max(1e-9);
        for (h, f) in hands.iter_mut().zip(factors) {
            let lacks = !h.0.contains(&claimed);
            h.1 *= if lacks {
                config.mind_odds * f / ratio
            } else {
                f
            };
        }
    }

    /// The contest winner's rule as the opponent's policy
    /// ([`SearchConfig::known_prior`]): `None` when it is off, when an
    /// earlier game or this one rules the rule out, when the opponent's
    /// hand is told (the clairvoyant bound), or when the posterior share
    /// stays under [`fixed::KNOWN_MIN_SHARE`].
    fn known_rule(&self, history: &str, config: &SearchConfig) -> Option<KnownRule> {
        if config.known_prior <= 0.0 || self.clairvoyant.is_some() {
            return None;
        }
        let [games, broken] = self.mem.replica;
        let id = replica_particles(history, &self.unseen);
        if id.particles.is_empty() {
            return None;
        }
        let prior = config.known_prior.min(1.0 - 1e-9);
        let explained = f64::from(games - broken);
        let log_odds =
            (prior / (1.0 - prior)).ln() + id.log_odds + fixed::KNOWN_GAME_ODDS * explained
                - fixed::KNOWN_BREAK_ODDS * f64::from(broken);
        let share = 1.0 / (1.0 + (-log_odds).exp());
        let line = last_line(history);
        let line_lossy = !line.ends_with(LINE_END)
            && line
                .chars()
                .any(|c| Reply::from_code(c).and_then(Reply::given_up).is_some());
        (share >= fixed::KNOWN_MIN_SHARE).then_some(KnownRule {
            id,
            share,
            line_lossy,
        })
    }

    /// Searches this decision: every legal answer (and keep) valued by the
    /// worlds of [`SearchConfig`]. The call that finishes an Exchange has
    /// one legal answer and is not searched (its keep is the strong
    /// strategy's): no choices.
    pub(in crate::coup) fn search_choices(
        &mut self,
        history: &str,
        config: &SearchConfig,
    ) -> Searched {
        // The clock's safety net: read only to stop a search gone too long.
        let deadline = (config.clock_ms > 0.0)
            .then(|| Instant::now() + Duration::from_secs_f64(config.clock_ms / 1000.0));
        let me = calls_made(history) % 2;
        let line: Vec<char> = last_line(history).chars().collect();
        // Root choices.
        let Some(legal) = crate::coup::game::engine::legal(&line, &self.hand, self.mc, self.oc)
        else {
            return Searched::default();
        };
        let allowed: Vec<Reply> = self.legal.iter().filter_map(|a| Reply::parse(a)).collect();
        let roots: Vec<Reply> = legal
            .as_slice()
            .iter()
            .copied()
            .filter(|r| allowed.contains(r))
            .collect();
        if roots.is_empty() || is_exchange_call(last_line(history)) {
            return Searched::default();
        }
        // The posterior over the opponent's hand.
        let ok = self.h.opp.cards_left();
        let hands = self.opponent_hands(&line, history, config);
        let posterior = marginals(&hands);
        let total: f64 = hands.iter().map(|h| h.1).sum();
        let habits = {
            let mine = Habits::mine();
            let theirs = Habits::learnt(&self.model, config, self.h.me.cards_left(), false);
            let mut h = [mine; 2];
            h[1 - me] = theirs;
            h
        };
        let mut pool_base: Vec<Character> = Vec::new();
        for c in Character::ALL {
            for _ in 0..self.unseen[c.index()] {
                pool_base.push(c);
            }
        }
        // The opponent's challenges of my claims follow how doubtful each
        // looks from the public record: its learnt rates scaled by the
        // doubt of the claimed character.
        let mut habits = habits;
        {
            let doubt = Character::ALL.map(|c| self.public_doubt(c));
            let o = &mut habits[1 - me];
            for (k, a) in ACTION_KINDS.into_iter().enumerate() {
                if let Some(c) = a.claim() {
                    for r in o.challenge[k].iter_mut().flatten() {
                        *r = (*r * doubt[c.index()]).clamp(0.0, 1.0);
                    }
                }
            }
            for (k, b) in BLOCK_KINDS.into_iter().enumerate() {
                let c = b.character();
                o.challenge_block[k] = (o.challenge_block[k] * doubt[c.index()]).clamp(0.0, 1.0);
            }
        }
        let mut coins = [0; 2];
        coins[me] = self.mc;
        coins[1 - me] = self.oc;
        let mine = Cards::from_slice(&self.hand);
        let calls = calls_made(history);
        let known = self.clairvoyant;
        // One world: the opponent's hand drawn from the posterior (or
        // uniformly from the unseen cards when the evidence rules out every
        // hand), the deck from the cards left.
        let world = |rng: &mut ChaCha8Rng| {
            let mut pool = pool_base.clone();
            pool.shuffle(rng);
            let mut theirs = Cards::default();
            let mut take = |c: Character, pool: &mut Vec<Character>| {
                if let Some(i) = pool.iter().position(|&p| p == c) {
                    pool.remove(i);
                    theirs.push(c);
                }
            };
            if let Some(known) = known {
                for &c in known.as_slice() {
                    take(c, &mut pool);
                }
            } else if total > 0.0 && !hands.is_empty() {
                let mut x = rng.random::<f64>() * total;
                let mut pick = &hands[hands.len() - 1].0;
                for (h, w) in &hands {
                    if x < *w {
                        pick = h;
                        break;
                    }
                    x -= w;
                }
                for &c in pick {
                    take(c, &mut pool);
                }
            } else {
                for _ in 0..ok {
                    if let Some(c) = pool.pop() {
                        theirs.push(c);
                    }
                }
            }
            let mut dealt = [Cards::default(); 2];
            dealt[me] = mine;
            dealt[1 - me] = theirs;
            State::from_parts(coins, dealt, Cards::from_slice(&pool), &line, calls)
        };
        // My turn's action, or an answer to the opponent.
        let my_turn = at_turn_start(&line);
        let rule = self.known_rule(history, config);
        let tree = config.tree && !my_turn && rule.is_none();
        // Each answer's wins and worlds (visits for the tree), and the
        // worlds (iterations) played of those the cap allows; the flat
        // search also counts the calls its worlds ran to their end or cut.
        let (wins, played, lengths, (done, cap, unit)) = if tree {
            let mut rng = ChaCha8Rng::seed_from_u64(self.rng.random());
            let policies = Rollouts {
                me,
                habits: &habits,
                config,
            };
            let limits = super::tree::Limits {
                iterations: config.iterations,
                exploration: fixed::EXPLORATION,
                horizon: config.horizon,
                deadline,
            };
            let (wins, visits, done) =
                super::tree::search(&roots, me, &policies, limits, world, &mut rng);
            (
                wins,
                visits,
                Vec::new(),
                (done, config.iterations, "iterations"),
            )
        } else {
            let mut wins = vec![0.0; roots.len()];
            let mut lengths = vec![0usize; roots.len()];
            let mut done = 0;
            while done < config.worlds {
                if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                done += 1;
                let world = world(&mut self.rng);
                let seed: u64 = self.rng.random();
                let ruled = rule
                    .as_ref()
                    .and_then(|k| k.draw(&world, me, &mut self.rng));
                for (i, &r) in roots.iter().enumerate() {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let (mut s, mut seat) = match &ruled {
                        Some((w, seat)) => (*w, Some(seat.clone())),
                        None => (world, None),
                    };
                    let new_line = RuleSeat::starts_line(&s);
                    let end = s.apply(r, None, &mut rng);
                    let v = match (end, seat.as_mut()) {
                        (Some(end), _) => end.reward(me),
                        (None, Some(seat)) => {
                            seat.after(new_line, r);
                            let (h, start) = (fixed::KNOWN_HORIZON, s.calls);
                            let mine = &habits[me];
                            rule_playout(&mut s, me, mine, seat, h, config, start, &mut rng)
                        }
                        (None, None) => {
                            let start = s.calls;
                            playout(&mut s, me, &habits, config, start, &mut rng)
                        }
                    };
                    wins[i] += v;
                    lengths[i] += s.calls - world.calls;
                }
            }
            (
                wins,
                vec![done; roots.len()],
                lengths,
                (done, config.worlds, "worlds"),
            )
        };
        let clock_note = (done < cap).then(|| {
            format!(
                "clock safety net: the search stopped after {done} of {cap} {unit} ({} ms)",
                config.clock_ms
            )
        });
        let mut ranked: Vec<(Choice, usize)> = roots
            .into_iter()
            .zip(wins.into_iter().zip(played))
            .enumerate()
            .map(|(i, (answer, (wins, worlds)))| {
                let choice = Choice {
                    answer,
                    wins,
                    worlds,
                };
                // Only the flat search counts calls (the tree ranks by visits).
                (choice, lengths.get(i).copied().unwrap_or(0))
            })
            .collect();
        // The flat search ranks by wins (every answer played in every
        // world), equal wins by pace; the tree by visits, the robust child
        // of MCTS.
        if tree {
            ranked
                .sort_by(|(a, _), (b, _)| b.worlds.cmp(&a.worlds).then(b.wins.total_cmp(&a.wins)));
        } else {
            ranked.sort_by(|(a, la), (b, lb)| {
                b.wins.total_cmp(&a.wins).then_with(|| pace(a, *la, *lb))
            });
        }
        let out: Vec<Choice> = ranked.into_iter().map(|(c, _)| c).collect();
        Searched {
            choices: out,
            clock_note,
            posterior,
            tree,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// My rollout (seat 0: two cards, 8 coins) cut at once, `line` being the
    /// turn so far with seat 1 to answer it at call 1, under `quiescence`:
    /// its value and the calls made when it was cut.
    fn cut(line: &[char], quiescence: usize) -> (f64, usize) {
        let config = SearchConfig {
            horizon: 1,
            quiescence,
            ..SearchConfig::default()
        };
        let hands = [
            Cards::from_slice(&[Duke, Contessa]),
            Cards::from_slice(&[Captain, Assassin]),
        ];
        let deck = Cards::from_slice(&[Ambassador; 5]);
        let mut s = State::from_parts([8, 2], hands, deck, line, 1);
        let habits = [Habits::mine(); 2];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let v = playout(&mut s, 0, &habits, &config, 0, &mut rng);
        (v, s.calls)
    }

    #[test]
    fn quiescence_cuts_a_rollout_only_between_turns() {
        let c = SearchConfig::default();
        assert_eq!((c.quiescence, c.arm(1).quiescence), (8, 0));
        let [_, [two_vs_one, two_vs_two]] = c.card_value;
        let close = |(x, calls): (f64, usize), want: f64, at: usize| {
            assert!(
                (x - want).abs() < 1e-12 && calls == at,
                "{x} at call {calls} against {want} at {at}"
            );
        };
        // Cut right after my Coup: two cards each, 6 coins ahead, as if it
        // had not been made.
        close(cut(&['C'], 0), two_vs_two + 6.0 * fixed::COIN_VALUE, 1);
        // Cut between turns: its card given up (my 7 coins paid), my turn
        // ended, its turn to come: two cards against one, 1 coin behind.
        close(cut(&['C'], 8), two_vs_one - fixed::COIN_VALUE, 3);
        // The extension is capped: one call past the horizon, mid-turn.
        close(cut(&['C'], 1), two_vs_one - fixed::COIN_VALUE, 2);
        // A turn's start is cut at once.
        close(
            cut(&['I', '\n'], 8),
            two_vs_two + 6.0 * fixed::COIN_VALUE,
            1,
        );
    }
}
