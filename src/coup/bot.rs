//! The bot's decision: [`decide`] takes what the arbiter passes on the
//! command line plus the history text and returns the answer to append and,
//! after a successful Exchange, the cards to keep (`specs/coup.md`,
//! "Invocation"). Pure: no I/O, deterministic for a given input (randomness is
//! seeded from a hash of the inputs).
//!
//! Strategies: [`Strategy::Strong`] (the default: opponent-hand inference and
//! expected-value choices over a coin-race evaluation) and the sparring
//! strategies `random`, `income`, `honest`, `challenger`, `tax-bluffer` and
//! `calculator` (the race calculator, the original contest's winning style).

use rand::RngExt;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::character::{format_hand, Character};
use super::history::{action_index, History};
use super::model::{hand_probabilities, inferred_plan, race, unseen, Gain, Plan, Racer};
use super::opponent::{Model, Stats};
use super::protocol::{effects, Action, Block, Reply};
use super::rules::{is_exchange_call, last_line, legal_answers, ASSASSINATE_COST, COUP_COST};
use super::sparring::Archetype;
use super::CoupError;

use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// A named strategy of the `coup-bot` program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The strongest: infers the opponent's hand, races exactly, decides
    /// bluffs, blocks and challenges by expected value.
    Strong,
    /// Race calculator: least aggressive plan that wins the race, blocks only
    /// with held cards, challenges mostly when losing the race.
    Calculator,
    /// Uniformly random legal answer.
    Random,
    /// Income every turn, never blocks or challenges.
    Income,
    /// Never bluffs; challenges only claims its own view proves impossible.
    Honest,
    /// Challenges every claim it can.
    Challenger,
    /// Claims Duke relentlessly (Tax, Duke blocks), never challenges.
    TaxBluffer,
    /// Archetype: Tax every turn ([`super::sparring`]).
    AlwaysTax,
    /// Archetype: Steal every turn, block Steals as Captain.
    AlwaysSteal,
    /// Archetype: Assassinate at 3 coins, block as Contessa.
    AlwaysAssassinate,
    /// Archetype: challenge every claim and block.
    ChallengeAll,
    /// Archetype: never challenge, never bluff.
    NeverChallenge,
    /// Archetype: block every action it can.
    BlockAll,
}

impl Strategy {
    /// Every strategy with its command-line name.
    pub const ALL: [(Strategy, &'static str); 13] = [
        (Strategy::Strong, "strong"),
        (Strategy::Calculator, "calculator"),
        (Strategy::Random, "random"),
        (Strategy::Income, "income"),
        (Strategy::Honest, "honest"),
        (Strategy::Challenger, "challenger"),
        (Strategy::TaxBluffer, "tax-bluffer"),
        (Strategy::AlwaysTax, "always-tax"),
        (Strategy::AlwaysSteal, "always-steal"),
        (Strategy::AlwaysAssassinate, "always-assassinate"),
        (Strategy::ChallengeAll, "challenge-all"),
        (Strategy::NeverChallenge, "never-challenge"),
        (Strategy::BlockAll, "block-all"),
    ];

    /// Parses a command-line name (`strong`, `calculator`, `random`,
    /// `income`, `honest`, `challenger`, `tax-bluffer`, and the archetypes
    /// `always-tax`, `always-steal`, `always-assassinate`, `challenge-all`,
    /// `never-challenge`, `block-all`).
    ///
    /// # Errors
    /// [`CoupError::UnknownStrategy`].
    pub fn parse(name: &str) -> Result<Strategy, CoupError> {
        Strategy::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(s, _)| *s)
            .ok_or_else(|| CoupError::UnknownStrategy(name.to_string()))
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        Strategy::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("strong")
    }
}

/// What to do: the text to append and, after a successful Exchange, the kept
/// cards to print on stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The answer to append to the history file: one of the legal answers
    /// (one character, or a given-up card followed by `'\n'`, or `"I\n"`).
    pub answer: String,
    /// On an Exchange call (n+2 cards passed), the n kept cards in revealed
    /// codes, e.g. `"$^"`; `None` otherwise.
    pub exchange_keep: Option<String>,
    /// Why the decision fell back to a safe answer (bad history, unexpected
    /// arguments), for the program's stderr; `None` when all went normally.
    pub note: Option<String>,
}

/// Decides an answer.
///
/// - `history`: the history file's full text;
/// - `opp_coins`, `my_coins`: as passed by the arbiter;
/// - `cards`: my cards in revealed codes (`~^*!$`); n+2 of them, the two
///   drawn ones first, on an Exchange call;
/// - `legal`: the legal answers passed by the arbiter (`"I\n"` etc. with real
///   newlines). When empty or unusable they are recomputed from the history.
///
/// Always returns one of the legal answers (the first one if nothing better
/// can be made of the input, with a `note`). Pure and deterministic.
pub fn decide(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
) -> Decision {
    decide_with(strategy, history, opp_coins, my_coins, cards, legal, None)
}

/// [`decide`] with what past games taught about this opponent (`memory`:
/// its counts from [`super::memory`], not including this game, which is read
/// from `history`). Pure and deterministic for given inputs.
pub fn decide_with(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
    memory: Option<&Stats>,
) -> Decision {
    let mut notes = Vec::new();
    let offered: Vec<Character> = cards
        .chars()
        .filter_map(|c| {
            let ch = Character::from_revealed(c);
            if ch.is_none() {
                notes.push(format!("ignored card code {c:?}"));
            }
            ch
        })
        .collect();
    let line = last_line(history).to_string();
    let exchange = is_exchange_call(&line);
    let keep_n = if exchange {
        offered.len().saturating_sub(2)
    } else {
        offered.len()
    };
    let hand: Vec<Character> = if exchange {
        offered[offered.len() - keep_n..].to_vec()
    } else {
        offered.clone()
    };
    let mut legal: Vec<String> = legal.iter().filter(|a| !a.is_empty()).cloned().collect();
    if legal.is_empty() {
        notes.push("no legal answers given: computed from the history".into());
        legal = legal_answers(&line, &hand, my_coins, opp_coins).unwrap_or_default();
        if legal.is_empty() {
            legal = vec![Reply::EndTurn.text()];
        }
    }
    if strategy == Strategy::Calculator {
        // The replica of the contest winner, without its state file (the
        // coup-bot program keeps state.txt for it).
        let mut d = replica_decision(history, "", "", opp_coins, my_coins, cards, &legal).0;
        if let Some(n) = d.note.take() {
            notes.push(n);
        }
        d.note = (!notes.is_empty()).then(|| notes.join("; "));
        return d;
    }
    let seed = fnv(history.as_bytes())
        ^ fnv(cards.as_bytes()).rotate_left(17)
        ^ (my_coins as u64).wrapping_mul(31)
        ^ (opp_coins as u64).wrapping_mul(1009);
    let rng = ChaCha8Rng::seed_from_u64(seed);
    let parsed = match History::parse(history) {
        Ok(h) => Some(h),
        Err(e) => {
            notes.push(format!("{e}: answering safely"));
            None
        }
    };
    let exchange_keep = exchange.then(|| keep_cards(strategy, &offered, keep_n, parsed.as_ref()));
    let answer = match parsed {
        Some(h) => {
            let model = Model::new(&Stats::from_history(&h), memory);
            let mut ctx = Ctx::new(h, line, &legal, hand, &offered, my_coins, opp_coins, rng);
            ctx.model = model;
            ctx.mem = memory.copied().unwrap_or_default();
            let a = ctx.choose(strategy);
            if legal.contains(&a) {
                a
            } else {
                notes.push(format!("strategy chose {a:?}, not legal: answering safely"));
                safe_answer(&legal)
            }
        }
        None => safe_answer(&legal),
    };
    Decision {
        answer,
        exchange_keep,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

/// The replica of Calculator ([`super::replica`]) checked for legality:
/// the decision and the new state text. `file` and `state` as in
/// [`super::replica::decide`].
pub fn replica_decision(
    history: &str,
    file: &str,
    state: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
) -> (Decision, String) {
    let a = super::replica::decide(history, file, state, opp_coins, my_coins, cards, legal);
    let mut note = None;
    let answer = if legal.contains(&a.text) {
        a.text
    } else {
        note = Some(format!(
            "replica chose {:?}, not legal: answering safely",
            a.text
        ));
        safe_answer(legal)
    };
    let offered: Vec<Character> = cards.chars().filter_map(Character::from_revealed).collect();
    let exchange_keep = a.keep.map(|k| {
        let n = offered.len().saturating_sub(2);
        if super::rules::check_exchange(&offered, &k, n).is_some() {
            k
        } else {
            format_hand(&offered[offered.len() - n..])
        }
    });
    (
        Decision {
            answer,
            exchange_keep,
            note,
        },
        a.state,
    )
}

/// A passive legal answer: pass, end the turn, Income, or the first one.
fn safe_answer(legal: &[String]) -> String {
    for pref in [Reply::Pass, Reply::EndTurn, Reply::Act(Action::Income)] {
        let text = pref.text();
        if legal.contains(&text) {
            return text;
        }
    }
    legal
        .first()
        .cloned()
        .unwrap_or_else(|| Reply::EndTurn.text())
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Base value of keeping a card: Duke (Tax, blocks Foreign Aid) first.
fn card_value(c: Character, h: Option<&History>, opp_coins_hint: bool) -> f64 {
    match c {
        Duke => 5.0,
        Assassin => 4.0,
        Contessa => {
            let threat = h.is_some_and(|h| h.opp.claims[Assassin.index()] > 0) || opp_coins_hint;
            if threat {
                4.5
            } else {
                3.0
            }
        }
        Captain => 3.5,
        Ambassador => 2.0,
    }
}

/// The `keep` cards to keep from an Exchange offer: best values, a second copy
/// of a character worth less.
fn keep_cards(
    strategy: Strategy,
    offered: &[Character],
    keep: usize,
    h: Option<&History>,
) -> String {
    let mut pool = offered.to_vec();
    let mut kept: Vec<Character> = Vec::new();
    if strategy == Strategy::Random {
        // Keep the hand order of whatever came first: still legal and varied.
        kept.extend(pool.iter().take(keep));
        return format_hand(&kept);
    }
    for _ in 0..keep {
        let best = pool
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let dup = if kept.contains(&c) { 3.0 } else { 0.0 };
                (i, card_value(c, h, true) - dup)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i);
        if let Some(i) = best {
            kept.push(pool.remove(i));
        }
    }
    format_hand(&kept)
}

/// A challenge probability `p` made likelier by a factor `f` for an
/// implausible claim (`f > 1`) or less likely for a plausible one: `p^(1/f)`,
/// which keeps an opponent that always (`p = 1`) or never (`p = 0`)
/// challenges as it is, capped at 0.98.
fn tilt(p: f64, f: f64) -> f64 {
    p.clamp(0.0, 1.0).powf(1.0 / f.max(1e-3)).min(0.98)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// How the opponent has answered my claims in this game.
#[derive(Debug, Clone, Copy, Default)]
struct Answers {
    /// My turns by action letter `IFCEAST` (index of [`action_index`]).
    done: [u32; 7],
    /// Of those, how many the opponent blocked.
    blocked: [u32; 7],
    /// Of those, how many the opponent challenged.
    challenged: [u32; 7],
    /// My blocks.
    blocks: u32,
    /// My blocks the opponent challenged.
    blocks_challenged: u32,
    /// My claims (actions and blocks) made while I led the race (index 1) or
    /// not (index 0), and how many of them the opponent challenged.
    by_lead: [(u32, u32); 2],
}

impl Answers {
    fn read(h: &History) -> Answers {
        let mut a = Answers::default();
        for t in &h.turns {
            let c: Vec<char> = t.text.chars().collect();
            let Some(&first) = c.first() else { continue };
            if t.actor == super::history::Side::Me {
                let Some(i) = action_index(first) else {
                    continue;
                };
                let Some(&resp) = c.get(1) else { continue };
                a.done[i] += 1;
                match resp {
                    'q' => a.challenged[i] += 1,
                    'a' | 'c' | 'd' | 's' => a.blocked[i] += 1,
                    _ => {}
                }
            } else if matches!(c.get(1), Some('a' | 'c' | 'd' | 's')) {
                a.blocks += 1;
                if c.get(2) == Some(&'q') {
                    a.blocks_challenged += 1;
                }
            }
        }
        a
    }
}

/// Everything a strategy looks at for one decision.
struct Ctx<'a> {
    answers: Answers,
    /// This game's counts and past games' ([`super::opponent`]).
    model: Model,
    /// Past games' counts alone (zero without memory).
    mem: Stats,
    h: History,
    line: Vec<char>,
    legal: &'a [String],
    hand: Vec<Character>,
    mc: i64,
    oc: i64,
    mk: usize,
    ok: usize,
    p_opp: [f64; 5],
    unseen: [u32; 5],
    rng: ChaCha8Rng,
}

impl<'a> Ctx<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        h: History,
        line: String,
        legal: &'a [String],
        hand: Vec<Character>,
        offered: &[Character],
        mc: i64,
        oc: i64,
        rng: ChaCha8Rng,
    ) -> Ctx<'a> {
        // A complete last line means a new turn starts: nothing of it is pending.
        let line: Vec<char> = if line.ends_with('\n') {
            Vec::new()
        } else {
            line.chars().collect()
        };
        let u = unseen(&h, offered);
        let ok = h.opp.cards_left().max(1);
        let p_opp = hand_probabilities(&h.opp, &u, ok);
        let mk = hand.len().max(1);
        let answers = Answers::read(&h);
        let mut ctx = Ctx {
            answers,
            model: Model::default(),
            mem: Stats::default(),
            h,
            line,
            legal,
            hand,
            mc,
            oc,
            mk,
            ok,
            p_opp,
            unseen: u,
            rng,
        };
        ctx.learn_challenges();
        ctx
    }

    /// Replays the coins and splits my past claims by whether I led the race
    /// then (an opponent that challenges mostly when losing shows it here).
    fn learn_challenges(&mut self) {
        let states = self.h.replay();
        let mut by_lead = [(0u32, 0u32); 2];
        for (i, t) in self.h.turns.iter().enumerate() {
            let c: Vec<char> = t.text.chars().collect();
            let Some(&(coins, cards)) = states.get(i) else {
                break;
            };
            // My action claims only: blocks have their own rate.
            let (mine, blocking) = if t.actor == super::history::Side::Me {
                (
                    c.first()
                        .is_some_and(|&a| Character::claimed_by(a).is_some()),
                    false,
                )
            } else {
                (false, true)
            };
            let answer = if blocking { c.get(2) } else { c.get(1) };
            if !mine || answer.is_none() || cards[0] == 0 || cards[1] == 0 {
                continue;
            }
            let lead = self.public_lead(coins[0], cards[0], coins[1], cards[1], blocking);
            let e = &mut by_lead[lead as usize];
            e.0 += 1;
            if answer == Some(&'q') {
                e.1 += 1;
            }
        }
        self.answers.by_lead = by_lead;
    }

    fn has(&self, c: Character) -> bool {
        self.hand.contains(&c)
    }

    /// Whether `a` is among the legal answers (compared in the arbiter's text).
    fn can(&self, a: Reply) -> bool {
        let text = a.text();
        self.legal.iter().any(|x| *x == text)
    }

    /// The first of `prefs` that is legal.
    fn pick(&self, prefs: &[Reply]) -> Option<Reply> {
        prefs.iter().copied().find(|&a| self.can(a))
    }

    /// The claim `c` cannot be true: all copies are in my hand or dead.
    fn impossible(&self, c: Character) -> bool {
        self.unseen[c.index()] == 0
    }

    fn last(&self) -> char {
        self.line.last().copied().unwrap_or('\n')
    }

    fn turn_start(&self) -> bool {
        self.line.is_empty()
    }

    /// Give up the least valuable card; returns the matching legal answer.
    fn give_up(&self) -> String {
        let mut best: Option<(f64, &String)> = None;
        for a in self.legal {
            let Some(ch) = a.chars().next().and_then(Character::from_held) else {
                continue;
            };
            let v = card_value(ch, Some(&self.h), self.oc >= 3);
            if best.is_none_or(|(bv, _)| v < bv) {
                best = Some((v, a));
            }
        }
        best.map(|(_, a)| a.clone())
            .unwrap_or_else(|| safe_answer(self.legal))
    }

    fn choose(&mut self, s: Strategy) -> String {
        // Forced or trivial answers first.
        if self.legal.len() == 1 {
            return self.legal[0].clone();
        }
        let last = self.last();
        let is_give_up = self.legal.iter().all(|a| {
            a.chars()
                .next()
                .is_some_and(|c| Character::from_held(c).is_some())
        });
        if is_give_up {
            return if s == Strategy::Random {
                self.random()
            } else {
                self.give_up()
            };
        }
        match s {
            Strategy::Random => self.random(),
            Strategy::Income => self.income(),
            Strategy::Honest => self.honest(false),
            Strategy::Challenger => self.honest(true),
            Strategy::TaxBluffer => self.tax_bluffer(),
            // Answered by the replica before a context is built.
            Strategy::Calculator => safe_answer(self.legal),
            Strategy::AlwaysTax
            | Strategy::AlwaysSteal
            | Strategy::AlwaysAssassinate
            | Strategy::ChallengeAll
            | Strategy::NeverChallenge
            | Strategy::BlockAll => {
                let kind = match s {
                    Strategy::AlwaysTax => Archetype::AlwaysTax,
                    Strategy::AlwaysSteal => Archetype::AlwaysSteal,
                    Strategy::AlwaysAssassinate => Archetype::AlwaysAssassinate,
                    Strategy::ChallengeAll => Archetype::ChallengeAll,
                    Strategy::NeverChallenge => Archetype::NeverChallenge,
                    _ => Archetype::BlockAll,
                };
                let line: String = self.line.iter().collect();
                super::sparring::answer(kind, &line, self.legal, &self.hand, self.mc, self.oc)
            }
            Strategy::Strong => {
                // Strong counts every repeated claim as evidence.
                self.p_opp = super::model::hand_posterior(
                    &self.h.opp,
                    &self.unseen,
                    self.ok,
                    self.claim_ratios(),
                    true,
                );
                self.strong(last)
            }
        }
    }

    fn random(&mut self) -> String {
        let i = self.rng.random_range(0..self.legal.len());
        self.legal[i].clone()
    }

    fn income(&self) -> String {
        match self.pick(&[
            Reply::Act(Action::Income),
            Reply::Act(Action::Coup),
            Reply::Pass,
            Reply::EndTurn,
        ]) {
            Some(a) => a.text(),
            None => self.give_up(),
        }
    }

    /// Honest turn: Coup at 7, Assassinate with an Assassin, Tax with a
    /// Duke, Steal with a Captain, else Foreign Aid.
    fn honest_action(&self) -> String {
        let mut prefs = vec![Reply::Act(Action::Coup)];
        if self.has(Assassin) {
            prefs.push(Reply::Act(Action::Assassinate));
        }
        if self.has(Duke) {
            prefs.push(Reply::Act(Action::Tax));
        }
        if self.has(Captain)
            && self.oc >= 2
            && !self.opp_claims(Captain)
            && !self.opp_claims(Ambassador)
        {
            prefs.push(Reply::Act(Action::Steal));
        }
        if !self.opp_claims(Duke) {
            prefs.push(Reply::Act(Action::ForeignAid));
        }
        self.pick(&prefs)
            .unwrap_or(Reply::Act(Action::Income))
            .text()
    }

    fn honest(&self, challenge_all: bool) -> String {
        let last = self.last();
        if self.turn_start() {
            return self.honest_action();
        }
        let claimed = Character::claimed_by(last);
        if let Some(c) = claimed {
            if self.can(Reply::Challenge) && (challenge_all || self.impossible(c)) {
                return Reply::Challenge.text();
            }
        }
        match last {
            'F' => (if self.has(Duke) {
                Reply::Block(Block::Duke)
            } else {
                Reply::Pass
            })
            .text(),
            'A' => {
                if self.has(Contessa) {
                    Reply::Block(Block::Contessa).text()
                } else if self.mk == 1 && !challenge_all {
                    // Nothing left to lose.
                    Reply::Challenge.text()
                } else {
                    self.give_up()
                }
            }
            'S' => {
                if self.has(Captain) {
                    Reply::Block(Block::Captain).text()
                } else if self.has(Ambassador) {
                    Reply::Block(Block::Ambassador).text()
                } else {
                    Reply::Pass.text()
                }
            }
            'E' | 'T' => Reply::Pass.text(),
            'a' | 'c' | 'd' | 's' => Reply::EndTurn.text(),
            _ => self.fallback(),
        }
    }

    fn fallback(&self) -> String {
        if self.legal.iter().any(|a| {
            a.chars()
                .next()
                .is_some_and(|c| Character::from_held(c).is_some())
        }) {
            return self.give_up();
        }
        safe_answer(self.legal)
    }

    fn tax_bluffer(&self) -> String {
        let last = self.last();
        if self.turn_start() {
            return self
                .pick(&[Reply::Act(Action::Coup), Reply::Act(Action::Tax)])
                .unwrap_or(Reply::Act(Action::Income))
                .text();
        }
        match last {
            'F' => Reply::Block(Block::Duke).text(),
            'A' => {
                if self.has(Contessa) || self.mk == 1 {
                    Reply::Block(Block::Contessa).text()
                } else {
                    self.give_up()
                }
            }
            'S' => self.block_steal_if_held(),
            'E' | 'T' => Reply::Pass.text(),
            'a' | 'c' | 'd' | 's' => Reply::EndTurn.text(),
            _ => self.fallback(),
        }
    }

    /// Blocks a Steal with a Captain or an Ambassador held, else passes.
    fn block_steal_if_held(&self) -> String {
        (if self.has(Captain) {
            Reply::Block(Block::Captain)
        } else if self.has(Ambassador) {
            Reply::Block(Block::Ambassador)
        } else {
            Reply::Pass
        })
        .text()
    }

    // ----- the race calculator -----

    fn opp_plan(&self) -> Plan {
        inferred_plan(&self.h.opp)
    }

    fn opp_claims(&self, c: Character) -> bool {
        self.h.opp.claims[c.index()] > 0 && !self.h.opp.surely_not.contains(&c)
    }

    // ----- the strong bot -----

    /// The opponent's observed rate of challenging my claims (prior
    /// [`STRONG_PC_PRIOR`] worth one claim).
    fn opp_challenge_rate(&self) -> f64 {
        let my_claims: u32 = self.h.me.claims.iter().sum();
        let [n, k] = self.mem_claims();
        ((STRONG_PC_PRIOR + (self.h.opp.challenges + k) as f64) / (1.0 + (my_claims + n) as f64))
            .clamp(0.02, 0.98)
    }

    /// Past games: my claims (actions and blocks) and how many it challenged.
    fn mem_claims(&self) -> [u32; 2] {
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

    /// Weight of past games against the race-lead prior: `n / (n + 5)` for
    /// `n` remembered observations (five claims weigh as much as the prior).
    fn mem_weight(n: u32) -> f64 {
        n as f64 / (n as f64 + 5.0)
    }

    /// The opponent's rate of challenging my action `a` (`FSATE`): the
    /// overall rate as a prior worth two observations, then this game's answers.
    fn opp_challenge_action(&self, a: char) -> f64 {
        let lead = self.public_lead(self.mc, self.mk, self.oc, self.ok, false);
        let n_mem = super::opponent::ACTION_KINDS
            .find(a)
            .map_or(0, |k| self.mem.challenged[k][(self.ok >= 2) as usize][0]);
        let pc = self.challenge_given_lead(lead, self.opp_challenge_action_base(a), n_mem);
        match Character::claimed_by(a) {
            Some(c) => tilt(pc, self.implausibility(c)),
            None => pc,
        }
    }

    /// How much likelier a challenge of my claim of `c` is than usual, from
    /// how plausible the claim looks publicly: my hand model as the opponent
    /// could build it (dead cards, my claims and caught bluffs, this claim),
    /// relative to [`STRONG_PLAUSIBLE`]; a rational challenger picks the
    /// implausible claims.
    fn implausibility(&self, c: Character) -> f64 {
        let mut u = [3u32; 5];
        for d in self.h.me.lost.iter().chain(&self.h.opp.lost) {
            u[d.index()] = u[d.index()].saturating_sub(1);
        }
        let mut r = self.h.me.clone();
        r.active_claims.push(c);
        let p = hand_probabilities(&r, &u, self.mk)[c.index()];
        (STRONG_PLAUSIBLE / p.max(0.05)).clamp(0.5, 3.0)
    }

    /// Whether I lead the race as the opponent can see it: both sides'
    /// plans inferred from their public claims (at least Foreign Aid).
    fn public_lead(&self, mc: i64, mk: usize, oc: i64, ok: usize, my_next: bool) -> bool {
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
    /// the same situation count fully and those in the other at [`STRONG_LEAD_W`].
    fn challenge_given_lead(&self, lead: bool, base: f64, n_mem: u32) -> f64 {
        let prior = if lead {
            STRONG_PC_LEADING
        } else {
            STRONG_PC_TRAILING
        };
        let (n, k) = self.answers.by_lead[lead as usize];
        let (n2, k2) = self.answers.by_lead[!lead as usize];
        let w = STRONG_LEAD_W;
        let wm = Self::mem_weight(n_mem);
        let p = (1.0 - wm) * 0.5 * (prior + base) + wm * base;
        // Past games' answers in the same situation keep their weight
        // against this game's few.
        let big_w = 1.0 + n_mem as f64;
        (big_w * p + k as f64 + w * k2 as f64) / (big_w + n as f64 + w * n2 as f64)
    }

    /// [`Ctx::opp_challenge_action`] without the race-lead split.
    fn opp_challenge_action_base(&self, a: char) -> f64 {
        // Its answers to this kind of claim while it held as many cards as
        // now (this game and past ones): an opponent may challenge only
        // when a lost challenge cannot cost it more than the game.
        let [n, k] = super::opponent::ACTION_KINDS.find(a).map_or([0, 0], |k| {
            self.model.stats.challenged[k][(self.ok >= 2) as usize]
        });
        (self.opp_challenge_rate() + k as f64) / (1.0 + n as f64)
    }

    /// The opponent's rate of challenging my block `b` (`acds`).
    fn opp_challenge_block(&self, b: char) -> f64 {
        // Blocks are answered apart from actions (a caught block is cheap
        // for the challenger, a caught two-card Contessa wins it the game):
        // the Beta model of its answers to my blocks, this game and past ones.
        self.model.challenge_block(b)
    }

    /// Probability the opponent blocks my action `a` with one of `chars`
    /// when it does not challenge: the card model as a prior worth two
    /// observations, then how often it blocked `a` in this game.
    fn opp_block_prob(&self, a: char, chars: &[Character]) -> f64 {
        let none: f64 = chars.iter().map(|c| 1.0 - self.p_opp[c.index()]).product();
        let p_has = 1.0 - none;
        let all: u32 = self.model.stats.block_caught.iter().map(|e| e[0]).sum();
        let bluffs = if all >= MODEL_MIN_TESTS {
            // Its blocks were tested: blocks without the card at the learned
            // ratio to blocks with it.
            let r = chars
                .iter()
                .map(|&c| self.model.block_bluff_ratio(c))
                .fold(0.0, f64::max);
            (STRONG_BLOCK_HONEST * r).min(1.0)
        } else {
            (STRONG_BLOCK_BLUFF + 0.5 * super::model::bluff_rate(&self.h.opp) * 0.5).min(0.5)
        };
        let prior = if all >= MODEL_MIN_TESTS {
            STRONG_BLOCK_HONEST * p_has + (1.0 - p_has) * bluffs
        } else {
            p_has + (1.0 - p_has) * bluffs
        };
        if all >= MODEL_MIN_TESTS {
            // The hand model already carries this game's blocks as claims;
            // counts of blocks over many hands would blur it.
            return prior.clamp(0.0, 1.0);
        }
        let i = action_index(a).unwrap_or(0);
        let [mn, mb] = super::opponent::BLOCKABLE
            .find(a)
            .map_or([0, 0], |k| self.mem.blocked[k]);
        let n = (self.answers.done[i] - self.answers.challenged[i] + mn) as f64;
        (prior + (self.answers.blocked[i] + mb) as f64) / (1.0 + n)
    }

    /// My plan for the evaluation: honest gains and Assassination.
    /// Probability the claim of `c` just made (the last character of the
    /// line) is a bluff: the hand model without this claim, then Bayes with
    /// a bluff rate for this kind of claim. Blocks are bluffed less than
    /// actions; a Contessa block with two cards (a caught bluff loses both)
    /// least, with one card (nothing left to lose) most.
    fn p_lack_claim(&self, c: Character) -> f64 {
        if self.impossible(c) {
            return 1.0;
        }
        let mut r = self.h.opp.clone();
        if let Some(i) = r.active_claims.iter().rposition(|&x| x == c) {
            r.active_claims.remove(i);
        }
        let p0 = hand_probabilities(&r, &self.unseen, self.ok)[c.index()];
        let base = self.bluff_share();
        let last = self.last();
        let tests = |t: &[[u32; 2]; 5]| t.iter().map(|e| e[0]).sum::<u32>();
        if "acds".contains(last) && tests(&self.model.stats.block_caught) >= MODEL_MIN_TESTS {
            // Enough of its blocks were tested (this game and past ones): the
            // learned likelihood ratio of a block without the card.
            let beta = self.model.block_bluff_ratio(c);
            return 1.0 - p0 / (p0 + (1.0 - p0) * beta).max(1e-9);
        }
        let beta = match last {
            's' if self.ok >= 2 => STRONG_BETA_CONTESSA2,
            's' => STRONG_BETA_CONTESSA1,
            'a' | 'c' | 'd' => base * STRONG_BETA_BLOCK,
            // A failed challenge of an Assassination loses both cards: only
            // a rare claim is worth doubting.
            'A' => base * STRONG_BETA_ASSASSIN,
            _ => base * STRONG_BETA_ACTION,
        };
        1.0 - p0 / (p0 + (1.0 - p0) * beta).max(1e-9)
    }

    /// Likelihood ratios of its claims per character for the hand posterior:
    /// the pooled bluff share of its actions as before
    /// ([`super::model::bluff_rate`] with past games), except Contessa (only
    /// ever a block) and any character whose blocks were tested at least
    /// [`MODEL_MIN_TESTS`] times: the learned block ratio.
    fn claim_ratios(&self) -> [f64; 5] {
        let base = self.bluff_share().clamp(0.02, 1.0);
        let mut r = [base; 5];
        let tested = |c: Character| self.model.stats.block_caught[c.index()][0];
        let all: u32 = self.model.stats.block_caught.iter().map(|e| e[0]).sum();
        for c in [Contessa, Captain, Ambassador, Duke] {
            if c == Contessa && all >= MODEL_MIN_TESTS || tested(c) >= MODEL_MIN_TESTS {
                r[c.index()] = self.model.block_bluff_ratio(c).min(1.0);
            }
        }
        r
    }

    /// Share of bluffs among its challenged action claims: the prior 0.3 of
    /// [`super::model::bluff_rate`] with this game's and past games' tests.
    fn bluff_share(&self) -> f64 {
        let m = self
            .mem
            .action_caught
            .iter()
            .fold([0, 0], |a, e| [a[0] + e[0], a[1] + e[1]]);
        let r = &self.h.opp;
        (0.6 + (r.caught + m[1]) as f64) / (2.0 + (r.caught + r.proved + m[0]) as f64)
    }

    fn my_value_plan(&self) -> Plan {
        let gain = if self.has(Duke) || self.opp_challenge_rate() < STRONG_BLUFF_TAX {
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
                || (self.opp_challenge_action_base('A') < STRONG_BLUFF_ASSASSIN
                    && self.model.challenge_action('A', self.ok) < STRONG_BLUFF_ASSASSIN))
                && self.p_opp[Contessa.index()] < 0.5,
        }
    }

    /// Win-probability estimate of a position: the race in turns each side
    /// needs with its plan, through a logistic.
    fn val(&self, mc: i64, mk: usize, oc: i64, ok: usize, my_next: bool) -> f64 {
        if ok == 0 {
            return 1.0;
        }
        if mk == 0 {
            return 0.0;
        }
        if my_next && ok == 1 && mc >= COUP_COST {
            // A Coup of its last card, which nothing can stop (rules: Coup
            // cannot be blocked or challenged).
            return 1.0;
        }
        let plan = self.my_value_plan();
        let mut me = super::model::smooth_turns(mc, plan, ok, oc);
        if plan.gain == Gain::Tax && !self.has(Duke) {
            // Future Taxes would be bluffs, each with its own risk: count
            // them as a slower gain so that taxing now is not put off.
            let k = ok as f64;
            let cost = if plan.assassinate {
                ASSASSINATE_COST
            } else {
                COUP_COST
            } as f64;
            me = k + (k * cost - mc as f64).max(0.0) / STRONG_BLUFF_TAX_GAIN;
        }
        if self.opp_plan().gain == Gain::Steal && !self.has(Captain) && !self.has(Ambassador) {
            // Its Steals drain my coins too: about a third more turns.
            me *= STRONG_STEAL_DRAIN;
        }
        let op = self.opp_turns(oc, mk);
        let tempo = if my_next { STRONG_TEMPO } else { -STRONG_TEMPO };
        sigmoid(STRONG_SCALE * (op - me + tempo) + STRONG_CARDS * (mk as f64 - ok as f64))
    }

    /// Turns the opponent needs to remove `mk` cards from `oc` coins: Tax if
    /// it claims a Duke, else a gain of [`STRONG_OPP_GAIN`] (it may hold
    /// anything); Assassination at 3 if it claims an Assassin and I hold no
    /// Contessa, a Coup if I do, else a middle cost [`STRONG_OPP_KILL`].
    fn opp_turns(&self, oc: i64, mk: usize) -> f64 {
        let plan = self.opp_plan();
        let gain = match plan.gain {
            Gain::Tax => 3.0,
            Gain::Steal => 2.5_f64.max(STRONG_OPP_GAIN),
            _ => STRONG_OPP_GAIN,
        };
        let kill = if self.has(Contessa) {
            COUP_COST as f64
        } else if plan.assassinate {
            ASSASSINATE_COST as f64
        } else {
            STRONG_OPP_KILL
        };
        let k = mk as f64;
        k + (k * kill - oc as f64).max(0.0) / gain
    }

    /// Value of a position with the opponent to move, one ply deeper: the
    /// opponent's best turn against me (Income, Foreign Aid unless I hold a
    /// Duke, Tax, Coup at 7, Assassinate at 3 unless I hold a Contessa,
    /// Steal unless I can block it) and then [`Ctx::val`] with me to move.
    fn reply_val(&self, mc: i64, mk: usize, oc: i64, ok: usize) -> f64 {
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
        if ok == 1 && mk == 2 && (mc >= COUP_COST + 2 || (mc >= COUP_COST && can_block_steal)) {
            return 1.0;
        }
        if STRONG_PLY2 == 0 {
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
            let trust = p_duke + (1.0 - p_duke) * STRONG_TAX_TRUST;
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
        STRONG_REPLY_MIN * min + (1.0 - STRONG_REPLY_MIN) * mean
    }

    fn strong(&mut self, last: char) -> String {
        let (mc, mk, oc, ok) = (self.mc, self.mk, self.oc, self.ok);
        if self.turn_start() {
            let v0 = |s: &Self, c: i64, k: usize, o: i64, ko: usize| s.reply_val(c, k, o, ko);
            let mut best: Option<(f64, String)> = None;
            for a in self.legal.iter() {
                let pc = self.opp_challenge_action(a.chars().next().unwrap_or('I'));
                let e = match Reply::parse(a) {
                    Some(Reply::Act(Action::Income)) => {
                        v0(self, mc + effects(Action::Income, oc).0, mk, oc, ok)
                    }
                    Some(Reply::Act(Action::Coup)) => v0(self, mc - COUP_COST, mk, oc, ok - 1),
                    Some(Reply::Act(Action::ForeignAid)) => {
                        let pb = self.opp_block_prob('F', &[Duke]);
                        let post = (self.p_opp[Duke.index()] / pb.max(1e-9)).min(1.0);
                        let chal = (1.0 - post) * v0(self, mc + 2, mk, oc, ok - 1)
                            + post * v0(self, mc, mk - 1, oc, ok);
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
                        let pb = self.opp_block_prob('S', &[Captain, Ambassador]);
                        let through = v0(self, mc + n, mk, oc - n, ok);
                        let blocked = v0(self, mc, mk, oc, ok);
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
                            // Assassinations in this game.
                            let pca = (1.0 - p_con) * STRONG_A1_CHAL;
                            let i = action_index('A').unwrap_or(4);
                            let n = self.answers.done[i] as f64;
                            let w = STRONG_A1_SEEN;
                            // Past games: my Assassinations of its last card.
                            let [mn, mq] = self.mem.challenged[3][0];
                            let pca = (pca + w * (self.answers.challenged[i] + mq) as f64)
                                / (1.0 + w * (n + mn as f64));
                            let pb = ((1.0 - p_con) * (1.0 - STRONG_A1_CHAL)
                                + p_con
                                + w * self.answers.blocked[i] as f64)
                                / (1.0 + w * n);
                            (pca, pb.min(1.0 - pca))
                        } else {
                            (pc, self.opp_block_prob('A', &[Contessa]))
                        };
                        let post = p_con / pb.max(1e-9);
                        let after_block = v0(self, mc - 3, mk, oc, ok).max(
                            (1.0 - post.min(1.0))
                                + post.min(1.0) * v0(self, mc - 3, mk - 1, oc, ok),
                        );
                        let unchallenged =
                            pb * after_block + (1.0 - pb) * v0(self, mc - 3, mk, oc, ok - 1);
                        if self.has(Assassin) {
                            pca + (1.0 - pca) * unchallenged
                        } else {
                            pca * v0(self, mc, mk - 1, oc, ok) + (1.0 - pca) * unchallenged
                        }
                    }
                    Some(Reply::Act(Action::Exchange)) => {
                        let improve = if self.has(Duke) {
                            -0.02
                        } else {
                            STRONG_EXCHANGE_BONUS
                        };
                        let keep = v0(self, mc, mk, oc, ok) + improve;
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
                let honest_claim = a
                    .chars()
                    .next()
                    .and_then(Character::claimed_by)
                    .is_some_and(|c| self.has(c));
                let e = if honest_claim && my_claims < 2 {
                    e + STRONG_PROBE_BONUS
                } else {
                    e
                };
                if best.as_ref().is_none_or(|(bv, _)| e > *bv + 1e-12) {
                    best = Some((e, a.clone()));
                }
            }
            return best
                .map(|(_, a)| a)
                .unwrap_or_else(|| safe_answer(self.legal));
        }
        let pc_block = |b: char| self.opp_challenge_block(b);
        let pc = pc_block('s');
        let v1 = |s: &Self, c: i64, k: usize, o: i64, ko: usize| s.val(c, k, o, ko, true);
        let v0 = |s: &Self, c: i64, k: usize, o: i64, ko: usize| s.val(c, k, o, ko, false);
        let p_lack = |s: &Self, c: Character| s.p_lack_claim(c);
        let mut options: Vec<(String, f64)> = Vec::new();
        match last {
            'F' => {
                options.push((Reply::Pass.text(), v1(self, mc, mk, oc + 2, ok)));
                let blocked = v1(self, mc, mk, oc, ok);
                let pc = tilt(pc_block('d'), self.implausibility(Duke));
                let d = if self.has(Duke) {
                    pc * v1(self, mc, mk, oc, ok - 1) + (1.0 - pc) * blocked
                } else {
                    pc * v1(self, mc, mk - 1, oc + 2, ok) + (1.0 - pc) * blocked
                };
                options.push((Reply::Block(Block::Duke).text(), d));
            }
            'E' | 'T' => {
                let gain = if last == 'T' {
                    effects(Action::Tax, mc).0
                } else {
                    0
                };
                let c = if last == 'T' { Duke } else { Ambassador };
                let pl = p_lack(self, c);
                options.push((Reply::Pass.text(), v1(self, mc, mk, oc + gain, ok)));
                options.push((
                    Reply::Challenge.text(),
                    pl * v1(self, mc, mk, oc, ok - 1)
                        + (1.0 - pl) * v1(self, mc, mk - 1, oc + gain, ok),
                ));
            }
            'A' => {
                let pl = p_lack(self, Assassin);
                options.push((self.give_up(), v1(self, mc, mk - 1, oc - 3, ok)));
                // Catching a Contessa bluff wins the game outright: expect
                // a challenge more often than for other blocks.
                let pc_s = tilt(pc, self.implausibility(Contessa));
                let pc_s = if mk >= 2 {
                    pc_s.max(STRONG_PC_CONTESSA)
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
            'S' => {
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
                    let pc = tilt(pc_block(block.code()), self.implausibility(ch));
                    let e = if self.has(ch) {
                        pc * v1(self, mc, mk, oc, ok - 1) + (1.0 - pc) * blocked
                    } else {
                        pc * v1(self, mc - n, mk - 1, oc + n, ok) + (1.0 - pc) * blocked - 0.001
                    };
                    options.push((Reply::Block(block).text(), e));
                }
            }
            'a' | 'c' | 'd' | 's' => {
                let ch = Character::claimed_by(last).unwrap_or(Duke);
                let pl = p_lack(self, ch);
                let action = self.line.first().copied().unwrap_or('I');
                let (accept, win, lose) = match action {
                    'F' => (
                        v0(self, mc, mk, oc, ok),
                        v0(self, mc + 2, mk, oc, ok - 1),
                        v0(self, mc, mk - 1, oc, ok),
                    ),
                    'S' => {
                        // What the arbiter moves, capped by what the purse holds.
                        let n = effects(Action::Steal, oc).0.min(oc);
                        (
                            v0(self, mc, mk, oc, ok),
                            v0(self, mc + n, mk, oc - n, ok - 1),
                            v0(self, mc, mk - 1, oc, ok),
                        )
                    }
                    'A' => (
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
}
/// Logistic scale of one turn of race advantage in the strong bot's evaluation.
const STRONG_SCALE: f64 = 0.55;
/// Logistic weight of one card of advantage.
const STRONG_CARDS: f64 = 0.9;
/// Below this challenge rate of the opponent, my evaluation assumes I can Tax.
const STRONG_BLUFF_TAX: f64 = 0.16;
/// Bluff rate of a Contessa block by a player with two cards.
const STRONG_BETA_CONTESSA2: f64 = 0.03;
/// Bluff-rate factor for Duke, Captain and Ambassador blocks.
const STRONG_BETA_BLOCK: f64 = 0.3;
/// Bluff-rate factor for actions.
const STRONG_BETA_ACTION: f64 = 1.25;
/// Below this challenge rate of Assassinations, my evaluation assumes I can Assassinate.
const STRONG_BLUFF_ASSASSIN: f64 = 0.2;
/// Bluff rate of a Contessa block by a player with one card left.
const STRONG_BETA_CONTESSA1: f64 = 0.5;
/// Prior rate at which the opponent challenges my claims (worth one observation).
const STRONG_PC_PRIOR: f64 = 0.08;
/// Prior challenge rate of an opponent that is losing the race.
const STRONG_PC_LEADING: f64 = 0.4;
/// Prior challenge rate of an opponent that is winning the race.
const STRONG_PC_TRAILING: f64 = 0.12;
/// The opponent's assumed coin gain per turn before it claims a Duke.
const STRONG_OPP_GAIN: f64 = 2.5;
/// The opponent's assumed cost per kill before it claims an Assassin.
const STRONG_OPP_KILL: f64 = 7.0;
/// Whether the turn choice looks one opponent turn ahead (1) or not (0).
const STRONG_PLY2: u32 = 1;
/// How far a Tax claim by an opponent not believed to hold a Duke is still
/// expected to pay (it may bluff unchallenged).
const STRONG_TAX_TRUST: f64 = 0.7;
/// Weight of the opponent's best reply (the rest: the mean reply).
const STRONG_REPLY_MIN: f64 = 0.7;
/// Value bonus of an honest Exchange without a Duke in hand.
const STRONG_EXCHANGE_BONUS: f64 = 0.04;
/// Value bonus of an honest claim among my first two claims.
const STRONG_PROBE_BONUS: f64 = 0.04;
/// Least challenge rate expected for a Contessa block with two cards.
const STRONG_PC_CONTESSA: f64 = 0.375;
/// Factor on my race turns against an opponent that Steals unblocked.
const STRONG_STEAL_DRAIN: f64 = 1.04;
/// Public probability of a claim at which the opponent challenges at its usual rate.
const STRONG_PLAUSIBLE: f64 = 0.4;
/// Coins a turn my evaluation credits to future Tax bluffs (an honest Tax: 3).
const STRONG_BLUFF_TAX_GAIN: f64 = 2.6;
/// Bluff-rate factor for Assassinations.
const STRONG_BETA_ASSASSIN: f64 = 1.0;

/// Tempo of having the next turn, in race turns.
const STRONG_TEMPO: f64 = 0.3;
/// Challenge rate expected of a one-card opponent without a Contessa facing
/// Assassination (giving up would lose the game: it contests).
const STRONG_A1_CHAL: f64 = 1.0;
/// Base rate of bluffed blocks.
const STRONG_BLOCK_BLUFF: f64 = 0.06;
/// Weight of challenges seen in the other race situation.
const STRONG_LEAD_W: f64 = 0.18;

/// Weight of each Assassination of mine seen when the opponent has one card.
const STRONG_A1_SEEN: f64 = 1.0;

/// Tests of its blocks (challenges, this game and past ones) from which the
/// learned block-bluff ratio replaces the prior ratios.
const MODEL_MIN_TESTS: u32 = 2;

/// Probability that a player holding the blocking card blocks (the
/// original field's bots all blocked with the card when they held it).
const STRONG_BLOCK_HONEST: f64 = 0.95;
