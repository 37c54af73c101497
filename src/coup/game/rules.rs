//! The arbiter's rules as text: legal answers for the last line of a history
//! file, and the arbiter's true state ([`Table`]) with its forfeit checks and
//! quirks. The rules themselves are the one engine's ([`super::engine`]);
//! this module is their edge to the history file's text.

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::character::{full_deck, Character};
use super::engine::{self, Cards, End, State};
use super::protocol::{Action, Reply};

pub use super::engine::{FORCED_COUP, MAX_CALLS};
/// Costs of a Coup and of an Assassination ([`super::protocol`]).
pub use super::protocol::{ASSASSINATE_COST, COUP_COST};

/// The list the original arbiter offers on an empty file, whatever the coins
/// (kept only under `--original-quirks`).
pub const FIRST_TURN_QUIRK: [Action; 5] = [
    Action::Income,
    Action::ForeignAid,
    Action::Exchange,
    Action::Steal,
    Action::Tax,
];

/// Legal answers for a player to move, exactly as the arbiter's
/// `get_legal_actions` computes them ([`engine::legal`] as text).
///
/// `last_line` is the history's last line including its `'\n'` when complete;
/// an empty file is passed as `""` and treated as the start of a turn (the
/// arbiter's fixed first-turn list is [`FIRST_TURN_QUIRK`]). `cards` is the
/// player's hand, `my_coins`/`opp_coins` the coin counts. Returns `None` when
/// the last character is not one the arbiter accepts (it then forfeits the
/// player to move). Answers of two characters are a given-up card plus `'\n'`.
pub fn legal_answers(
    last_line: &str,
    cards: &[Character],
    my_coins: i64,
    opp_coins: i64,
) -> Option<Vec<String>> {
    let line: Vec<char> = last_line.chars().collect();
    let v = engine::legal(&line, cards, my_coins, opp_coins)?;
    Some(v.as_slice().iter().map(|r| r.text()).collect())
}

/// Whether the call after `last_line` is the end of a successful Exchange, so
/// the arbiter draws two cards and passes n+2 cards ([`engine::is_exchange_line`]).
pub fn is_exchange_call(last_line: &str) -> bool {
    let line: Vec<char> = last_line.chars().collect();
    engine::is_exchange_line(&line)
}

/// Checks an Exchange choice: `kept` (revealed codes, surrounding whitespace
/// ignored) must be `keep` cards taken from `offered` without reuse
/// (the arbiter's permutation test). Returns the kept hand.
pub fn check_exchange(offered: &[Character], kept: &str, keep: usize) -> Option<Vec<Character>> {
    let mut pool = offered.to_vec();
    let mut out = Vec::new();
    for c in kept.trim().chars() {
        let ch = Character::from_revealed(c)?;
        let i = pool.iter().position(|&x| x == ch)?;
        pool.remove(i);
        out.push(ch);
    }
    (out.len() == keep).then_some(out)
}

/// The decision the arbiter asks of one seat: the program's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// Seat to answer (0 = first player of the game).
    pub seat: usize,
    /// Legal answers, in the arbiter's order.
    pub legal: Vec<String>,
    /// Cards passed on the command line: the two drawn cards first on an
    /// Exchange call, then the hand.
    pub cards: Vec<Character>,
    /// Whether this call completes an Exchange (cards holds n+2).
    pub exchange: bool,
    /// The opponent's coins.
    pub opp_coins: i64,
    /// The caller's coins.
    pub my_coins: i64,
}

/// How a game ended or why a player forfeited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` removed both of the other's cards (or the other lost both at once).
    Win {
        /// Winning seat.
        winner: usize,
    },
    /// `loser` forfeited; the other seat wins.
    Forfeit {
        /// Seat that forfeited.
        loser: usize,
        /// The arbiter's reason.
        reason: String,
    },
    /// 200 calls without a winner: both lose.
    Draw,
}

/// The arbiter's true game state: the [`State`] of the one engine, plus
/// the history file's text, the forfeit checks and the original quirks.
#[derive(Debug, Clone)]
pub struct Table {
    /// Coins, hands, deck, current line and call count.
    pub state: State,
    /// The history file's full text.
    pub history: String,
    /// Whether the original quirks are on (fixed first-turn list, lax append check).
    pub quirks: bool,
    rng: ChaCha8Rng,
}

impl Table {
    /// A fresh game: shuffled 15-card deck, each seat 1 coin and two cards
    /// (dealt as the arbiter does: seat 0 pops two, then seat 1).
    pub fn new(seed: u64, quirks: bool) -> Table {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut deck = full_deck();
        deck.shuffle(&mut rng);
        Table::with_deck(deck, [1, 1], quirks, rng)
    }

    /// A game from a given deck (drawn from the end) and starting coins; the
    /// rng reshuffles the deck whenever a card returns to it. Used by the
    /// quirk mode that carries coins and the deck over after a draw.
    pub fn with_deck(
        deck: Vec<Character>,
        coins: [i64; 2],
        quirks: bool,
        rng: ChaCha8Rng,
    ) -> Table {
        Table {
            state: State::deal(Cards::from_slice(&deck), coins),
            history: String::new(),
            quirks,
            rng,
        }
    }

    /// Coins of a seat.
    pub fn coins(&self, seat: usize) -> i64 {
        self.state.coins[seat]
    }

    /// Cards a seat holds.
    pub fn cards(&self, seat: usize) -> Vec<Character> {
        self.state.hands[seat].as_slice().to_vec()
    }

    /// The deck (drawn from the end).
    pub fn deck(&self) -> Vec<Character> {
        self.state.deck.as_slice().to_vec()
    }

    /// Calls made so far.
    pub fn calls(&self) -> usize {
        self.state.calls
    }

    /// The history's last line (with its `'\n'` when complete), `""` when empty.
    pub fn last_line(&self) -> &str {
        last_line(&self.history)
    }

    /// Seat to be called next (players alternate calls).
    pub fn to_call(&self) -> usize {
        self.state.to_call()
    }

    /// Prepares the next call (drawing the two Exchange cards when due).
    /// Returns `Err(outcome)` when the game is already over by the 200-call
    /// limit or the history cannot be answered.
    pub fn next_call(&mut self) -> Result<Call, Outcome> {
        if self.state.out_of_calls() {
            return Err(Outcome::Draw);
        }
        let seat = self.to_call();
        let (my_coins, opp_coins) = (self.state.coins[seat], self.state.coins[1 - seat]);
        let legal = if self.history.is_empty() && self.quirks {
            FIRST_TURN_QUIRK
                .iter()
                .map(|&a| Reply::Act(a).text())
                .collect()
        } else {
            match self.state.legal() {
                Some(l) if !l.as_slice().is_empty() => {
                    l.as_slice().iter().map(|r| r.text()).collect()
                }
                _ => {
                    return Err(Outcome::Forfeit {
                        loser: seat,
                        reason: "the file ended in an invalid character".into(),
                    })
                }
            }
        };
        let exchange = self.state.exchange_due();
        let mut cards = Vec::new();
        if exchange {
            if !self.state.draw_exchange() {
                return Err(Outcome::Draw);
            }
            cards.extend(self.state.drawn.iter().flatten());
        }
        cards.extend(self.state.hands[seat].as_slice());
        Ok(Call {
            seat,
            legal,
            cards,
            exchange,
            opp_coins,
            my_coins,
        })
    }

    /// Applies the file the bot left and its stdout, as the arbiter does:
    /// checks that the file only grew by a legal answer, then applies it.
    /// Returns `Some(outcome)` when the game ends.
    pub fn apply_file(&mut self, call: &Call, new_text: &str, stdout: &str) -> Option<Outcome> {
        let old = self.history.clone();
        let forfeit = |reason: String| {
            Some(Outcome::Forfeit {
                loser: call.seat,
                reason,
            })
        };
        let grown = new_text.strip_prefix(old.as_str()).unwrap_or("");
        let answer = if self.quirks {
            // The original test: the old text is the new one minus 1 or 2
            // characters, and the new last line ends with some legal answer.
            let ok = new_text.len() > old.len()
                && new_text.len() <= old.len() + 2
                && new_text.starts_with(old.as_str());
            if !ok {
                return forfeit(format!("modified the file (appended {})", quote(grown)));
            }
            let line = last_line_of(new_text);
            match call.legal.iter().find(|a| line.ends_with(a.as_str())) {
                Some(a) => a.clone(),
                None => return forfeit(format!("illegal move, last line {}", quote(line))),
            }
        } else {
            if !new_text.starts_with(old.as_str()) {
                return forfeit("modified the file".into());
            }
            match call.legal.iter().find(|a| a.as_str() == grown) {
                Some(a) => a.clone(),
                None => {
                    return forfeit(format!(
                        "illegal move {} (legal: {:?})",
                        quote(grown),
                        call.legal
                    ))
                }
            }
        };
        if self.quirks {
            // The lax test may accept a file that is not the old one plus
            // the answer: the engine reads the line the file now ends with.
            let line = last_line_of(new_text);
            let before: Vec<char> = line
                .strip_suffix(answer.as_str())
                .unwrap_or("")
                .chars()
                .collect();
            self.state.set_line(&before);
        }
        self.history = new_text.to_string();
        self.apply_move(call, &answer, stdout)
    }

    /// Appends `answer` (which must be one of `call.legal`) and applies it.
    pub fn play(&mut self, call: &Call, answer: &str, stdout: &str) -> Option<Outcome> {
        if !call.legal.iter().any(|a| a == answer) {
            return Some(Outcome::Forfeit {
                loser: call.seat,
                reason: format!("illegal move {answer:?} (legal: {:?})", call.legal),
            });
        }
        self.history.push_str(answer);
        self.apply_move(call, answer, stdout)
    }

    /// The engine's move, after the Exchange's choice is checked (an
    /// illegal keep forfeits, as the arbiter's permutation test does).
    fn apply_move(&mut self, call: &Call, mv: &str, stdout: &str) -> Option<Outcome> {
        let Some(reply) = Reply::parse(mv) else {
            // Only under the quirks' first-turn list can an answer be
            // legal text the engine does not know; none exists today.
            return Some(Outcome::Forfeit {
                loser: call.seat,
                reason: format!("illegal move {}", quote(mv)),
            });
        };
        let mut keep = None;
        if call.exchange && reply == Reply::EndTurn {
            let size = self.state.hands[call.seat].len();
            match check_exchange(&call.cards, stdout, size) {
                Some(k) => keep = Some(k),
                None => {
                    return Some(Outcome::Forfeit {
                        loser: call.seat,
                        reason: format!(
                            "illegal exchange {} from {:?}",
                            quote(stdout.trim()),
                            super::character::format_hand(&call.cards)
                        ),
                    })
                }
            }
        }
        match self.state.apply(reply, keep.as_deref(), &mut self.rng) {
            Some(End::Win(winner)) => Some(Outcome::Win { winner }),
            Some(End::Draw) => Some(Outcome::Draw),
            None => None,
        }
    }
}

/// A bot's text as a forfeit reason quotes it: a short prefix, then the full
/// length (D08); [`crate::quote`] is in the lean C library too.
fn quote(text: &str) -> String {
    crate::quote::quote(text.as_bytes())
}

/// The last line of a history text (with its `'\n'` when complete); `""` for
/// an empty text.
pub fn last_line(text: &str) -> &str {
    last_line_of(text)
}

fn last_line_of(text: &str) -> &str {
    // The line's own end is not where it starts; the last character may be
    // any UTF-8 character (a corrupt byte reads as U+FFFD), so strip a
    // newline rather than a byte.
    let body = text.strip_suffix('\n').unwrap_or(text);
    match body.rfind('\n') {
        Some(i) => &text[i + 1..],
        None => text,
    }
}

/// Every hand of `size` cards out of `pool`, by position (a card held twice
/// gives some hands twice), in a fixed order: the Exchange's choices.
pub fn hands_of(pool: &[Character], size: usize) -> impl Iterator<Item = Vec<Character>> + '_ {
    let n = pool.len() as u32;
    (0u32..1 << n)
        .filter(move |m| m.count_ones() as usize == size)
        .map(move |m| {
            (0..n)
                .filter(|b| m >> b & 1 == 1)
                .map(|b| pool[b as usize])
                .collect()
        })
}
