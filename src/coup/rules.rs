//! The arbiter's rules: legal answers for the last character of the history
//! and the effects of every answer on coins, cards and the deck
//! (`docs/rules/coup.md`; the authority is the arbiter's `get_legal_actions`,
//! `determine_turn_effects` and the move loop of `play_game`).

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::character::{full_deck, Character};
use super::protocol::{effects, Action, Reply};

/// Invocations per game before it is a draw that both players lose
/// (`docs/rules/coup.md` §6.1: 100 actions each).
pub const MAX_CALLS: usize = 200;

/// Coins at which a Coup becomes the only legal action.
pub const FORCED_COUP: i64 = 10;
/// Costs of a Coup and of an Assassination ([`super::protocol`]).
pub use super::protocol::{ASSASSINATE_COST, COUP_COST};

/// The list the original arbiter offers on an empty file, whatever the coins
/// (kept only under `--original-quirks`).
pub const FIRST_TURN_QUIRK: [&str; 5] = ["I\n", "F", "E", "S", "T"];

/// Legal answers for a player to move, exactly as the arbiter's
/// `get_legal_actions` computes them.
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
    let chars: Vec<char> = last_line.chars().collect();
    let c = chars.last().copied().unwrap_or('\n');
    let held = || {
        cards
            .iter()
            .map(|k| k.held().to_string())
            .collect::<Vec<_>>()
    };
    let held_nl = || {
        cards
            .iter()
            .map(|k| format!("{}\n", k.held()))
            .collect::<Vec<_>>()
    };
    let list = |s: &str| s.chars().map(|c| c.to_string()).collect::<Vec<_>>();
    Some(match c {
        '\n' => {
            if my_coins >= FORCED_COUP {
                return Some(vec!["C".to_string()]);
            }
            let mut v = vec!["I\n".to_string()];
            v.extend(list("FET"));
            if my_coins >= ASSASSINATE_COST {
                v.push("A".into());
            }
            if my_coins >= COUP_COST {
                v.push("C".into());
            }
            if opp_coins > 0 {
                v.push("S".into());
            }
            v
        }
        'F' => list("dp"),
        'C' => held(),
        '~' | '^' | '*' | '!' | '$' => {
            let before = chars.len().checked_sub(3).map(|i| chars[i]);
            if matches!(before, Some('a' | 'c' | 'd' | 's')) {
                held_nl()
            } else {
                held()
            }
        }
        'E' | 'T' => list("pq"),
        'A' => {
            let mut v = list("sq");
            v.extend(held());
            v
        }
        'S' => list("acpq"),
        'a' | 'c' | 'd' | 's' => vec!["q".into(), "\n".into()],
        'p' | '_' | '\'' | '<' | '=' | '0' => vec!["\n".into()],
        'q' => {
            let challenged = chars.len().checked_sub(2).map(|i| chars[i])?;
            let needed = Character::claimed_by(challenged)?;
            if cards.contains(&needed) {
                vec![needed.revealed().to_string()]
            } else if matches!(challenged, 'a' | 'c' | 'd' | 's') {
                held()
            } else {
                held_nl()
            }
        }
        _ => return None,
    })
}

/// Whether the call after `last_line` is the end of a successful Exchange, so
/// the arbiter draws two cards and passes n+2 cards (the arbiter's
/// `exchange_cards` condition: an unfinished `E` line of even length ending in
/// a pass or a given-up card).
pub fn is_exchange_call(last_line: &str) -> bool {
    let n = last_line.chars().count();
    last_line.starts_with('E')
        && !last_line.ends_with('\n')
        && n.is_multiple_of(2)
        && last_line
            .chars()
            .last()
            .is_some_and(|c| "p_'<=0".contains(c))
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

/// One seat's true state as the arbiter keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Coins (may go negative only under the original quirks).
    pub coins: i64,
    /// Cards still held, face down.
    pub cards: Vec<Character>,
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

/// The arbiter's true game state: seats, deck, history text and call count.
#[derive(Debug, Clone)]
pub struct Table {
    /// The two seats; seat 0 moves first.
    pub seats: [Seat; 2],
    /// The deck; cards are drawn from the end.
    pub deck: Vec<Character>,
    /// The history file's full text.
    pub history: String,
    /// Calls made so far.
    pub calls: usize,
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
        mut deck: Vec<Character>,
        coins: [i64; 2],
        quirks: bool,
        rng: ChaCha8Rng,
    ) -> Table {
        let mut deal = || {
            [deck.pop(), deck.pop()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
        };
        let a = deal();
        let b = deal();
        Table {
            seats: [
                Seat {
                    coins: coins[0],
                    cards: a,
                },
                Seat {
                    coins: coins[1],
                    cards: b,
                },
            ],
            deck,
            history: String::new(),
            calls: 0,
            quirks,
            rng,
        }
    }

    /// The history's last line (with its `'\n'` when complete), `""` when empty.
    pub fn last_line(&self) -> &str {
        last_line(&self.history)
    }

    /// Seat to be called next (players alternate calls).
    pub fn to_call(&self) -> usize {
        self.calls % 2
    }

    /// Prepares the next call (drawing the two Exchange cards when due).
    /// Returns `Err(outcome)` when the game is already over by the 200-call
    /// limit or the history cannot be answered.
    pub fn next_call(&mut self) -> Result<Call, Outcome> {
        if self.calls >= MAX_CALLS {
            return Err(Outcome::Draw);
        }
        let seat = self.to_call();
        let (me, opp) = (&self.seats[seat], &self.seats[1 - seat]);
        let line = self.last_line().to_string();
        let legal = if self.history.is_empty() && self.quirks {
            FIRST_TURN_QUIRK.iter().map(|s| s.to_string()).collect()
        } else {
            match legal_answers(&line, &me.cards, me.coins, opp.coins) {
                Some(l) if !l.is_empty() => l,
                _ => {
                    return Err(Outcome::Forfeit {
                        loser: seat,
                        reason: "the file ended in an invalid character".into(),
                    })
                }
            }
        };
        let (my_coins, opp_coins) = (me.coins, opp.coins);
        let mut cards = Vec::new();
        let exchange = is_exchange_call(&line);
        if exchange {
            for _ in 0..2 {
                match self.deck.pop() {
                    Some(c) => cards.push(c.revealed()),
                    None => return Err(Outcome::Draw),
                }
            }
        }
        let mut hand: Vec<Character> = cards
            .iter()
            .filter_map(|&c| Character::from_revealed(c))
            .collect();
        hand.extend(self.seats[seat].cards.iter().copied());
        Ok(Call {
            seat,
            legal,
            cards: hand,
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

    fn apply_move(&mut self, call: &Call, mv: &str, stdout: &str) -> Option<Outcome> {
        self.calls += 1;
        let me = call.seat;
        let opp = 1 - me;
        let line: Vec<char> = last_line_of(&self.history).chars().collect();
        let first = line.first().copied().unwrap_or('\n');
        let mvc: Vec<char> = mv.chars().collect();
        if Reply::parse(mv) == Some(Reply::Act(Action::Income)) {
            self.seats[me].coins += effects(Action::Income, self.seats[opp].coins).0;
        } else if mvc.len() == 2 {
            self.lose(me, mvc[0]);
            if line.len() >= 3 && line[line.len() - 3] == '!' {
                self.seats[me].coins -= ASSASSINATE_COST;
            }
        } else if mvc.len() == 1 && "_'<=0".contains(mvc[0]) {
            self.lose(me, mvc[0]);
            if let Some(a @ (Action::Coup | Action::Assassinate)) = Action::from_code(first) {
                self.seats[opp].coins -= a.cost();
            }
            if first == 'A' && line.len() == 4 && matches!(line.get(1), Some('q' | 's')) {
                return Some(Outcome::Win { winner: opp });
            }
        } else if mvc.len() == 1 && ("^*!$".contains(mvc[0]) || (mvc[0] == '~' && first == 'S')) {
            if let Some(ch) = Character::from_revealed(mvc[0]) {
                if let Some(i) = self.seats[me].cards.iter().position(|&c| c == ch) {
                    self.seats[me].cards.remove(i);
                    match self.deck.pop() {
                        Some(n) => self.seats[me].cards.push(n),
                        None => return Some(Outcome::Draw),
                    }
                    self.deck.push(ch);
                    self.deck.shuffle(&mut self.rng);
                }
            }
        } else if mv == "\n" {
            if let Some(o) = self.turn_effects(call, &line, stdout) {
                return Some(o);
            }
        }
        if self.seats[me].cards.is_empty() {
            return Some(Outcome::Win { winner: opp });
        }
        None
    }

    fn lose(&mut self, seat: usize, held: char) {
        if let Some(ch) = Character::from_held(held) {
            if let Some(i) = self.seats[seat].cards.iter().position(|&c| c == ch) {
                self.seats[seat].cards.remove(i);
            }
        }
    }

    /// The arbiter's `determine_turn_effects` for a turn that just ended.
    fn turn_effects(&mut self, call: &Call, line: &[char], stdout: &str) -> Option<Outcome> {
        let me = call.seat;
        let opp = 1 - me;
        if line.len() < 2 {
            return None;
        }
        let last = line[line.len() - 2];
        if "p_'<=0".contains(last) {
            match Action::from_code(line[0]) {
                Some(a @ (Action::ForeignAid | Action::Tax | Action::Steal)) => {
                    let (gain, loss) = effects(a, self.seats[opp].coins);
                    self.seats[me].coins += gain;
                    self.seats[opp].coins -= loss;
                }
                Some(Action::Exchange) => {
                    let keep = self.seats[me].cards.len();
                    let Some(kept) = check_exchange(&call.cards, stdout, keep) else {
                        return Some(Outcome::Forfeit {
                            loser: me,
                            reason: format!(
                                "illegal exchange {} from {:?}",
                                quote(stdout.trim()),
                                super::format_hand(&call.cards)
                            ),
                        });
                    };
                    let mut rest = call.cards.clone();
                    for k in &kept {
                        if let Some(i) = rest.iter().position(|c| c == k) {
                            rest.remove(i);
                        }
                    }
                    self.seats[me].cards = kept;
                    self.deck.extend(rest);
                    self.deck.shuffle(&mut self.rng);
                }
                _ => {}
            }
        } else if last == 's' {
            self.seats[me].coins -= ASSASSINATE_COST;
        }
        None
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
