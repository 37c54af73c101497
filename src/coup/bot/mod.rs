//! The bot's decision: [`decide`] takes what the arbiter passes on the
//! command line plus the history text and returns the answer to append and,
//! after a successful Exchange, the cards to keep (`docs/rules/coup.md`
//! §4). Pure: no I/O, deterministic for a given input (randomness is
//! seeded from a hash of the inputs).
//!
//! Strategies: [`Strategy::Search`] (the programs' default: determinized
//! Monte Carlo search on [`crate::coup::game::engine`], `bot/determinized.rs`,
//! which also chooses the hand kept at an Exchange) and the sparring
//! strategies `random`, `income`, `honest`, `challenger`, `tax-bluffer` and
//! `calculator` (the race calculator, the original contest's winning style).
//!
//! Layout: this file holds the public entry points and the dispatch to a
//! strategy; `bot/view.rs` what the seat sees (`Ctx`, built once per
//! decision); the simple sparring strategies live in
//! [`crate::coup::sparring`]. Answers are
//! [`crate::coup::game::protocol::Reply`] values, formatted to the arbiter's text at the edge.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use self::opponent::{Model, Stats};
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::engine::Cards;
use crate::coup::game::history::History;
use crate::coup::game::protocol::Reply;
use crate::coup::game::rules::{is_exchange_call, last_line, legal_answers};
use crate::coup::sparring::replica::{self, Answer};
use crate::coup::sparring::simple::safe_answer;
use crate::coup::sparring::strategy::{keep_for, play};

mod claims;
mod config;
mod determinized;
pub mod known;
pub mod memory;
mod mind;
pub mod model;
pub mod opponent;
mod posterior;
mod rates;
mod rollout;
mod rule;
mod stats;
mod tree;
mod view;

pub use crate::coup::sparring::strategy::Strategy;
pub use config::{fixed, SearchConfig, Setting, SEARCH_KEYS};
pub use determinized::Choice;
#[cfg(feature = "measure")]
pub(crate) use rollout::cut_value;
pub use rollout::Habits;

pub(in crate::coup) use view::Ctx;

/// What to do: the text to append and, after a successful Exchange, the kept
/// cards to print on stdout.
#[derive(Debug, Clone, PartialEq)]
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
    /// Why this answer, one line each: for the `search` strategy every root
    /// choice (at an Exchange, every hand it could keep) with its share of
    /// worlds won, best first, and the hand posterior; empty for the simple
    /// strategies. Printed by `coup-bot --explain`.
    pub explanation: String,
    /// Whether the strategy's own answer (or, for the replica, its Exchange keep) was not
    /// legal and was replaced by a safe one: the program's safety net, never needed by a
    /// correct strategy (the tests assert it stays `false`). Bad input alone (an unreadable
    /// history, no legal list) leaves it `false`.
    pub fallback: bool,
    /// Whether the decision changed the memory it was given
    /// ([`Remembered::Kept`]): the caller saves it then.
    pub memory_changed: bool,
}

/// What the arbiter passes for one decision (`docs/rules/coup.md` §4),
/// with the history file's text.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    /// The history file's full text.
    pub history: &'a str,
    /// The opponent's coins, as passed by the arbiter.
    pub opp_coins: i64,
    /// My coins, as passed by the arbiter.
    pub my_coins: i64,
    /// My cards in revealed codes (`~^*!$`); n+2 of them, the two drawn
    /// ones first, on an Exchange call.
    pub cards: &'a str,
    /// The legal answers passed by the arbiter (`"I\n"` etc. with real
    /// newlines). When empty or unusable they are recomputed from the
    /// history.
    pub legal: &'a [String],
}

impl<'a> View<'a> {
    /// The view of the arbiter's arguments `HISTORY OPP_COINS MY_COINS CARDS
    /// LEGAL...`, `history` the file's text.
    pub fn new(
        history: &'a str,
        opp_coins: i64,
        my_coins: i64,
        cards: &'a str,
        legal: &'a [String],
    ) -> View<'a> {
        View {
            history,
            opp_coins,
            my_coins,
            cards,
            legal,
        }
    }
}

/// How to play: a strategy and the search's settings (read by the
/// `search` strategy only).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// The strategy.
    pub strategy: Strategy,
    /// The search's settings; the default is the deployed bot's.
    pub search: SearchConfig,
}

impl Default for Config {
    /// The deployed bot: [`Strategy::Search`] with the default settings.
    fn default() -> Self {
        Config::of(Strategy::Search)
    }
}

impl Config {
    /// `strategy` with the default search settings.
    pub fn of(strategy: Strategy) -> Config {
        Config {
            strategy,
            search: SearchConfig::default(),
        }
    }
}

/// What past games against this opponent left in the memory
/// ([`memory::Memory`]), not counting this game.
#[derive(Debug, Clone, Copy, Default)]
pub struct Past<'a> {
    /// Its answers and claims ([`memory::Entry::excluding`]).
    pub opponent: Option<&'a Stats>,
    /// Mine, as it saw them (the entry [`memory::mine_key`]): what an
    /// adaptive opponent has learnt of me, read by
    /// [`SearchConfig::mind`].
    pub mine: Option<&'a Stats>,
}

/// The memory kept across games (`coup-memory.txt`'s contents), read and
/// updated by a decision: the opponent's entry, named `opponent`, and this
/// game's name `game` (the history file's name,
/// [`memory::opponent_name`]).
#[derive(Debug)]
pub struct Recall<'a> {
    /// The memory.
    pub memory: &'a mut memory::Memory,
    /// The opponent's name.
    pub opponent: &'a str,
    /// This game's name.
    pub game: &'a str,
}

/// What a decision remembers of earlier games.
#[derive(Debug, Default)]
pub enum Remembered<'a> {
    /// Nothing: every game starts from the priors.
    #[default]
    Nothing,
    /// Counts given as they are (tests, measurements): read, never
    /// updated; the portfolio's arm follows the opponent's type in them
    /// ([`memory::typed_arm`]).
    Past(Past<'a>),
    /// The memory proper: the `search` strategy plays the arm its entry
    /// chose for this game ([`memory::Entry::choose_typed_arm`]), and the
    /// `search` strategy records this game's counts
    /// ([`Decision::memory_changed`] says whether anything changed).
    Kept(Recall<'a>),
}

impl<'a> Remembered<'a> {
    /// The opponent's counts of past games `past` as they are (or none),
    /// without mine: [`Remembered::Past`].
    pub fn counts(past: Option<&'a Stats>) -> Remembered<'a> {
        Remembered::Past(Past {
            opponent: past,
            mine: None,
        })
    }
}

/// The bot's one decision: `view` as the arbiter passes it, what `memory`
/// holds of this opponent (updated with this game), played by `config`.
/// `coup-bot`, the C ABI (`cg_coup_decide`) and the tests all decide
/// here, so the same inputs and memory give the same answer.
///
/// With the portfolio ([`SearchConfig::portfolio`], the default) and a
/// memory, the `search` strategy plays the arm of its portfolio the
/// opponent's type calls for ([`SearchConfig::arm`]); without memory, arm
/// 0. The `calculator` strategy is its replica without its state file
/// (`coup-bot` keeps it: [`replica_decision`]).
///
/// Always returns one of the legal answers (the first one if nothing better
/// can be made of the input, with a `note`). Deterministic: the random
/// stream is seeded from the input.
pub fn decide(view: &View, memory: Remembered, config: &Config) -> Decision {
    decide_salted(view, memory, config, 0)
}

/// [`decide`] with `salt` mixed into the seed of its draws (0: [`decide`]): a model of
/// the bot (the exploiter) varies it to face the bot's policy, not one run of its draws.
pub(crate) fn decide_salted(view: &View, kept: Remembered, config: &Config, salt: u64) -> Decision {
    let strategy = config.strategy;
    let mut search = config.search;
    let mut lines: Vec<String> = Vec::new();
    let mut changed = false;
    let remembers = strategy == Strategy::Search;
    let (past, mine, kept) = match kept {
        Remembered::Past(p) if remembers => {
            if let (Strategy::Search, true, Some(past)) = (strategy, search.portfolio, p.opponent) {
                let arm = memory::typed_arm(past);
                lines.push(format!("portfolio: arm {arm} (from the counts given)"));
                search = search.arm(arm);
            }
            (p.opponent.copied(), p.mine.copied(), None)
        }
        Remembered::Kept(r) if remembers => {
            if strategy == Strategy::Search {
                let entry = r
                    .memory
                    .opponents
                    .entry(r.opponent.to_string())
                    .or_default();
                let pending = entry.pending.len();
                let arm = if search.portfolio {
                    let past = entry.excluding(r.game);
                    let [blocks, challenged] = past.block_answers();
                    let [resolved, bluffs] = past.attack_bluffs();
                    lines.push(format!(
                        "portfolio by type: it challenged {challenged} of the {blocks} blocks of mine it answered in its earlier games; {bluffs} of its {resolved} Steals and Assassinations the history resolved were bluffs (the game keeps the arm of its first call)"
                    ));
                    entry.choose_typed_arm(r.game, &past)
                } else {
                    entry.track(r.game, 0);
                    0
                };
                changed |= entry.pending.len() != pending;
                lines.push(format!("portfolio: arm {arm} against {}", r.opponent));
                search = search.arm(arm);
            }
            let past = r.memory.past(r.opponent, r.game);
            let mine = (search.mind > 0.0)
                .then(|| r.memory.past(&memory::mine_key(r.opponent), r.game))
                .flatten();
            (past, mine, Some(r))
        }
        _ => (None, None, None),
    };
    let given = Past {
        opponent: past.as_ref(),
        mine: mine.as_ref(),
    };
    let mut d = decide_told(strategy, view, given, &search, None, salt);
    if let Some(r) = kept {
        changed |= r.record(view, &d.answer, &search);
    }
    if !lines.is_empty() {
        lines.extend((!d.explanation.is_empty()).then(|| d.explanation.clone()));
        d.explanation = lines.join("\n");
    }
    d.memory_changed = changed;
    d
}

impl Recall<'_> {
    /// Records this game's counts with `answer` made ([`Stats::from_history`];
    /// with [`SearchConfig::known_prior`], whether the contest winner's
    /// rule explains its answers so far; with [`SearchConfig::mind`], my
    /// answers as it saw them under [`memory::mine_key`]). Whether the
    /// memory changed.
    fn record(self, view: &View, answer: &str, config: &SearchConfig) -> bool {
        let Ok(h) = History::parse(view.history) else {
            return false;
        };
        let mut changed = false;
        let mut stats = Stats::from_history(&h);
        if config.known_prior > 0.0 {
            let offered: Vec<Character> = view
                .cards
                .chars()
                .filter_map(Character::from_revealed)
                .collect();
            let unseen = model::unseen(&h, &offered);
            let id = known::replica_particles(view.history, &unseen);
            stats.replica = [1, u32::from(id.particles.is_empty())];
        }
        if config.mind > 0.0 {
            let key = memory::mine_key(self.opponent);
            if let Some(seen) = Stats::mine_seen(view.history, answer) {
                if !self.memory.holds(&key, self.game, &seen) {
                    self.memory.record(&key, self.game, seen);
                    changed = true;
                }
            }
        }
        if !self.memory.holds(self.opponent, self.game, &stats) {
            self.memory.record(self.opponent, self.game, stats);
            changed = true;
        }
        changed
    }
}

/// [`decide`] after the memory: `past` read, `config` the arm's, the
/// opponent's hand told (`clairvoyant`, the bound of
/// [`decide_clairvoyant`]; `None` in play) and the `salt` of [`decide_salted`].
fn decide_told(
    strategy: Strategy,
    view: &View,
    past: Past,
    config: &SearchConfig,
    clairvoyant: Option<Cards>,
    salt: u64,
) -> Decision {
    let View {
        history,
        opp_coins,
        my_coins,
        cards,
        legal,
    } = *view;
    let memory = past.opponent;
    let mut notes = Vec::new();
    let mut fallback = false;
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
        let a = replica::decide(history, "", "", opp_coins, my_coins, cards, &legal);
        let mut d = replica_decision(a, cards, &legal);
        if let Some(n) = d.note.take() {
            notes.push(n);
        }
        d.note = (!notes.is_empty()).then(|| notes.join("; "));
        return d;
    }
    let seed = fnv(history.as_bytes())
        ^ fnv(cards.as_bytes()).rotate_left(17)
        ^ (my_coins as u64).wrapping_mul(31)
        ^ (opp_coins as u64).wrapping_mul(1009)
        ^ salt;
    let rng = ChaCha8Rng::seed_from_u64(seed);
    let parsed = match History::parse(history) {
        Ok(h) => Some(h),
        Err(e) => {
            notes.push(format!("{e}: answering safely"));
            None
        }
    };
    let (answer, exchange_keep) = match parsed {
        Some(h) => {
            let model = Model::new(&Stats::from_history(&h), memory);
            let mut ctx = Ctx::new(h, line, &legal, hand, &offered, my_coins, opp_coins, rng);
            ctx.model = model;
            ctx.mem = memory.copied().unwrap_or_default();
            ctx.mem_mine = past.mine.copied();
            ctx.clairvoyant = clairvoyant;
            // The call that finishes an Exchange has one legal answer: the
            // search chooses the hand kept instead.
            if strategy == Strategy::Search && (legal.len() > 1 || exchange) {
                let searched = ctx.search_choices(history, config, &offered);
                let (choices, post, claim) = (searched.choices, searched.posterior, searched.claim);
                notes.extend(searched.clock_note);
                let unit = if searched.tree { "visits" } else { "worlds" };
                if let Some(best) = choices.first() {
                    let answer = best.answer.text();
                    let explanation = choices
                        .iter()
                        .map(|c| {
                            let what = match c.keep {
                                Some(k) => format!("keep {}", format_hand(k.as_slice())),
                                None => format!("{:?}", c.answer.text()),
                            };
                            format!(
                                "{what} {:.3} ({} {})",
                                c.wins / c.worlds.max(1) as f64,
                                c.worlds,
                                unit
                            )
                        })
                        .chain(std::iter::once(format!(
                            "posterior holds {}",
                            Character::ALL
                                .iter()
                                .map(|c| format!("{}:{:.3}", c.revealed(), post[c.index()]))
                                .collect::<Vec<_>>()
                                .join(" ")
                        )))
                        .chain(claim.map(|(row, x)| {
                            format!(
                                "claim situation {row} {}",
                                x.map(|v| format!("{v:.6}")).join(" ")
                            )
                        }))
                        .collect::<Vec<_>>()
                        .join("\n");
                    if legal.contains(&answer) {
                        return Decision {
                            answer,
                            exchange_keep: best.keep.map(|k| format_hand(k.as_slice())),
                            note: (!notes.is_empty()).then(|| notes.join("; ")),
                            explanation,
                            fallback: false,
                            memory_changed: false,
                        };
                    }
                    notes.push(format!("search chose {answer:?}, not legal"));
                    fallback = true;
                }
                notes.push("search found no choice: the honest sparring answer".into());
            }
            let keep = exchange.then(|| keep_for(strategy, &offered, keep_n, Some(&ctx.h)));
            let a = play(strategy, &ctx.seat(), ctx.mc, &mut ctx.rng.clone());
            if legal.contains(&a) {
                (a, keep)
            } else {
                notes.push(format!("strategy chose {a:?}, not legal: answering safely"));
                fallback = true;
                (safe_answer(&legal), keep)
            }
        }
        None => (
            safe_answer(&legal),
            exchange.then(|| keep_for(strategy, &offered, keep_n, None)),
        ),
    };
    Decision {
        answer,
        exchange_keep,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        explanation: String::new(),
        fallback,
        memory_changed: false,
    }
}

/// The clairvoyant bound, for measurement only (never a strategy a program
/// plays by default): the `search` strategy told the opponent's true hand,
/// so every world holds exactly `opp_hand` (the deck stays unknown). Its win
/// rate against an opponent is the ceiling the honest search is measured
/// against (`coup-arbiter ... builtin:clairvoyant`). `config` holds the
/// search's settings.
#[cfg(feature = "measure")]
pub fn decide_clairvoyant(view: &View, opp_hand: &[Character], config: &SearchConfig) -> Decision {
    let hand = Some(Cards::from_slice(opp_hand));
    decide_told(Strategy::Search, view, Past::default(), config, hand, 0)
}

/// The replica's answer `a` ([`replica::decide`]) as a decision, checked for legality
/// ([`replica::check`], which sets `fallback` and says why when it replaced it); `cards`
/// and `legal` as the replica was given them.
pub fn replica_decision(mut a: Answer, cards: &str, legal: &[String]) -> Decision {
    let note = replica::check(&mut a, cards, legal);
    Decision {
        answer: a.text,
        exchange_keep: a.keep,
        fallback: note.is_some(),
        note,
        explanation: String::new(),
        memory_changed: false,
    }
}

/// FNV-1a of `bytes`: the seed of a decision's draws.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
