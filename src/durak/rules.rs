//! The rules of 2 vs 2 Durak as a step-by-step state machine (`docs/rules/durak.md` §2 and
//! §4, the readings this project adopts).
//!
//! Players and seats are numbered 0..4 clockwise (absolute numbering); teams are `{0, 2}` (team
//! 0) and `{1, 3}` (team 1). Seats are kept when a player goes out: the partner of an out player
//! plays that seat's roles ([`Game::controller`]). The game asks one decision at a time
//! ([`Game::pending`]); [`Game::apply`] checks an [`Answer`], changes the state and reports
//! what every player is told as [`Event`]s.

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::cards::{beats, CardSet};
use super::legal;
use super::seat::Seat;
pub use super::types::{Answer, Event, Round};
use super::types::{Command, DurakError};
use crate::card::{Card, Suit};
use crate::deck::Deck;

/// Cards dealt to each player, and the refill target (`docs/rules/durak.md` §2.1).
pub const HAND_SIZE: usize = 6;
/// At most this many attack cards go under the defender in one round (Rules, 3).
pub const ROUND_LIMIT: usize = 6;
/// Safety cap: a game still running after this many rounds ends with no winner.
pub const MAX_ROUNDS: u32 = 1000;

/// Fixed per-game budget part (2 s) and per-round part (0.1 s) (`docs/rules/durak.md` §4.1: one cumulative
/// budget per program copy and game).
pub const BUDGET_BASE: Duration = Duration::from_secs(2);
/// See [`BUDGET_BASE`].
pub const BUDGET_PER_ROUND: Duration = Duration::from_millis(100);

/// The budget for a game after `rounds` rounds started.
pub fn budget(rounds: u32) -> Duration {
    BUDGET_BASE + BUDGET_PER_ROUND * rounds
}

/// The partner of a player or seat (`p + 2 mod 4`, [`Seat::partner`]).
pub fn partner(p: usize) -> usize {
    Seat::new(p).partner().index()
}

/// The team of a player or seat: 0 for `{0, 2}`, 1 for `{1, 3}`.
pub fn team(p: usize) -> usize {
    Seat::new(p).team()
}

/// What the game is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// This player must lead a card (`MOVE`).
    Move(usize),
    /// This player must beat the open card or take (`BEAT`).
    Beat(usize),
    /// This player may throw in a card (`ADD`).
    Add(usize),
    /// The game is over; the winning team, or `None` if [`MAX_ROUNDS`] was hit.
    Over(Option<usize>),
}

/// The whole true state of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The trump suit.
    pub trump: Suit,
    /// The talon; the next card drawn is the last element.
    pub talon: Vec<Card>,
    /// Each physical player's hand.
    pub hands: [CardSet; 4],
    /// Who has left the game.
    pub out: [bool; 4],
    /// The seat that leads the current (or next) round.
    pub mover_seat: Seat,
    /// The current round.
    pub round: Round,
    /// Rounds started so far (the time budget counts them).
    pub rounds: u32,
    /// What the game waits for.
    pub pending: Pending,
}

impl Game {
    /// A new seeded game: the 36-card deck shuffled, a random trump suit independent of the
    /// deck, a random first mover (`docs/rules/durak.md` §4.2-4.3), six
    /// cards dealt to each player in seat order. Returns the game and the dealt hands in deal
    /// order (for the initial `give` lines).
    pub fn new(seed: u64) -> (Game, [Vec<Card>; 4]) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cards: Vec<Card> = Deck::durak().iter().collect();
        cards.shuffle(&mut rng);
        let trump = Suit::ALL[rng.random_range(0..4usize)];
        let first = rng.random_range(0..4usize);
        let mut dealt: [Vec<Card>; 4] = Default::default();
        for (p, hand) in dealt.iter_mut().enumerate() {
            *hand = cards[p * HAND_SIZE..(p + 1) * HAND_SIZE].to_vec();
        }
        let mut talon = cards[4 * HAND_SIZE..].to_vec();
        talon.reverse();
        let hands = dealt.clone().map(|h| h.into_iter().collect());
        (Game::from_parts(trump, hands, talon, first), dealt)
    }

    /// A game at the start of a round led by `first_mover`'s seat, with the given hands and
    /// talon (next card drawn = last element). Players with no cards while the talon is empty
    /// are out. Used by tests and by the bot's determinizations.
    pub fn from_parts(
        trump: Suit,
        hands: [CardSet; 4],
        talon: Vec<Card>,
        first_mover: usize,
    ) -> Game {
        let mut game = Game {
            trump,
            talon,
            hands,
            out: [false; 4],
            mover_seat: Seat::new(first_mover),
            round: Round::default(),
            rounds: 0,
            pending: Pending::Over(None),
        };
        if game.talon.is_empty() {
            for p in 0..4 {
                game.out[p] = game.hands[p].is_empty();
            }
        }
        game.pending = match game.winner_now() {
            Some(t) => Pending::Over(Some(t)),
            None => {
                game.rounds = 1;
                Pending::Move(game.controller(game.mover_seat))
            }
        };
        game
    }

    /// The same game numbered from player `p`'s seat: `p` becomes player 0 and the others
    /// keep their clockwise order (`docs/rules/durak.md` §3.1, each program sees itself as
    /// player 1). Teams are kept (a rotation by an odd `p` swaps the team numbers, so `p`'s team
    /// is team 0 in the result). `p` is taken mod 4.
    pub fn rotated(&self, p: usize) -> Game {
        let p = p % 4;
        let r = |x: usize| (x + 4 - p) % 4;
        let s = |x: Seat| Seat::new(r(x.index()));
        // Before a lead no round is on the table: the empty round stays the default one.
        let round = if matches!(self.pending, Pending::Move(_)) {
            Round::default()
        } else {
            Round {
                attacker_seat: s(self.round.attacker_seat),
                defender_seat: s(self.round.defender_seat),
                defender: r(self.round.defender),
                first_attacker: r(self.round.first_attacker),
                ..self.round
            }
        };
        Game {
            trump: self.trump,
            talon: self.talon.clone(),
            hands: std::array::from_fn(|i| self.hands[(i + p) % 4]),
            out: std::array::from_fn(|i| self.out[(i + p) % 4]),
            mover_seat: s(self.mover_seat),
            round,
            rounds: self.rounds,
            pending: match self.pending {
                Pending::Move(x) => Pending::Move(r(x)),
                Pending::Beat(x) => Pending::Beat(r(x)),
                Pending::Add(x) => Pending::Add(r(x)),
                Pending::Over(w) => Pending::Over(w.map(|t| (t + p) % 2)),
            },
        }
    }

    fn winner_now(&self) -> Option<usize> {
        (0..2).find(|&t| self.out[t] && self.out[t + 2])
    }

    /// Who plays seat `seat`: its owner, or the owner's partner once the owner is out
    /// (reading "Substitution").
    pub fn controller(&self, seat: Seat) -> usize {
        if self.out[seat.index()] {
            seat.partner().index()
        } else {
            seat.index()
        }
    }

    /// The physical players of the attacking team asked to throw in, in order: the attacker
    /// seat's controller first, then the partner seat's controller (reading "ADD").
    pub fn throwers(&self) -> ([usize; 2], usize) {
        let a = self.controller(self.round.attacker_seat);
        let b = self.controller(self.round.attacker_seat.partner());
        if a == b {
            ([a, a], 1)
        } else {
            ([a, b], 2)
        }
    }

    /// The cards `player` may throw in now (ignoring whose turn it is): cards of ranks on the
    /// table while the round's limit allows another attack card (Rules, 3).
    pub fn throwable(&self, player: usize) -> CardSet {
        if self.out[player] {
            return CardSet::EMPTY;
        }
        legal::throwable(self.hands[player], &self.round)
    }

    /// The cards that beat the open card, from `player`'s hand.
    pub fn beaters(&self, player: usize) -> CardSet {
        legal::beaters(self.hands[player], self.round.open, self.trump)
    }

    /// Every legal answer to the pending decision (empty when the game is over), as
    /// [`legal::answers`] gives them.
    pub fn legal_answers(&self) -> Vec<Answer> {
        let Some((cmd, p)) = self.decision() else {
            return Vec::new();
        };
        if cmd == Command::Add && self.out[p] {
            return vec![Answer::No];
        }
        legal::answers(cmd, self.hands[p], &self.round, self.trump)
    }

    /// Whether `answer` is among [`Game::legal_answers`], without building the list.
    pub fn is_legal(&self, answer: Answer) -> bool {
        let Some((cmd, p)) = self.decision() else {
            return false;
        };
        match answer {
            Answer::No => cmd != Command::Move,
            Answer::Card(c) => {
                !(cmd == Command::Add && self.out[p])
                    && legal::cards(cmd, self.hands[p], &self.round, self.trump).contains(c)
            }
        }
    }

    /// The pending decision as the command its player is asked and the player; `None` once
    /// the game is over.
    fn decision(&self) -> Option<(Command, usize)> {
        match self.pending {
            Pending::Move(p) => Some((Command::Move, p)),
            Pending::Beat(p) => Some((Command::Beat, p)),
            Pending::Add(p) => Some((Command::Add, p)),
            Pending::Over(_) => None,
        }
    }

    /// The winning team once the game is over.
    pub fn winner(&self) -> Option<usize> {
        match self.pending {
            Pending::Over(w) => w,
            _ => None,
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        matches!(self.pending, Pending::Over(_))
    }

    /// Applies the pending player's answer, appending what happened to `events`.
    ///
    /// # Errors
    /// [`DurakError::Illegal`] (state unchanged) for a card not held, a card that does not beat
    /// the open card, a throw-in of a rank not on the table or over the limit, `NO` to `MOVE`,
    /// or any answer once the game is over.
    pub fn apply(&mut self, answer: Answer, events: &mut Vec<Event>) -> Result<(), DurakError> {
        let illegal = |why: &str| Err(DurakError::Illegal(why.to_owned()));
        match (self.pending, answer) {
            (Pending::Over(_), _) => illegal("the game is over"),
            (Pending::Move(_), Answer::No) => illegal("NO is not a move"),
            (Pending::Move(p), Answer::Card(c)) => {
                if !self.hands[p].contains(c) {
                    return illegal("card not in hand");
                }
                let attacker_seat = self.mover_seat;
                let defender_seat = attacker_seat.next();
                let defender = self.controller(defender_seat);
                self.round = Round {
                    attacker_seat,
                    defender_seat,
                    defender,
                    first_attacker: p,
                    table: CardSet::EMPTY,
                    attacks: 1,
                    open: Some(c),
                    limit: self.hands[defender].len().min(ROUND_LIMIT),
                    taking: false,
                    add_index: 0,
                };
                self.round.table.insert(c);
                self.hands[p].remove(c);
                events.push(Event::Move {
                    by: p,
                    under: defender,
                    card: c,
                });
                if !self.check_out(p, events) {
                    self.pending = Pending::Beat(defender);
                }
                Ok(())
            }
            (Pending::Beat(d), Answer::Card(c)) => {
                let Some(open) = self.round.open else {
                    return illegal("nothing to beat");
                };
                if !self.hands[d].contains(c) {
                    return illegal("card not in hand");
                }
                if !beats(open, c, self.trump) {
                    return illegal("card does not beat the open card");
                }
                self.hands[d].remove(c);
                self.round.table.insert(c);
                self.round.open = None;
                events.push(Event::Beat { by: d, card: c });
                if !self.check_out(d, events) {
                    self.next_add(0, events);
                }
                Ok(())
            }
            (Pending::Beat(d), Answer::No) => {
                self.round.taking = true;
                self.round.open = None;
                events.push(Event::Take { player: d });
                self.next_add(0, events);
                Ok(())
            }
            (Pending::Add(_), Answer::No) => {
                self.next_add(self.round.add_index + 1, events);
                Ok(())
            }
            (Pending::Add(p), Answer::Card(c)) => {
                if !self.hands[p].contains(c) {
                    return illegal("card not in hand");
                }
                if !self.throwable(p).contains(c) {
                    return illegal("rank not on the table or round limit reached");
                }
                self.hands[p].remove(c);
                self.round.table.insert(c);
                self.round.attacks += 1;
                let d = self.round.defender;
                events.push(Event::Add {
                    by: p,
                    under: d,
                    card: c,
                });
                if self.check_out(p, events) {
                    return Ok(());
                }
                if self.round.taking {
                    self.next_add(0, events);
                } else {
                    self.round.open = Some(c);
                    self.pending = Pending::Beat(d);
                }
                Ok(())
            }
        }
    }

    /// Marks `p` out if his hand is empty with the talon empty; returns true if the game ended.
    fn check_out(&mut self, p: usize, events: &mut Vec<Event>) -> bool {
        if self.hands[p].is_empty() && self.talon.is_empty() && !self.out[p] {
            self.out[p] = true;
            events.push(Event::Out { player: p });
            if self.out[partner(p)] {
                self.pending = Pending::Over(Some(team(p)));
                return true;
            }
        }
        false
    }

    /// Asks the next eligible thrower from position `from`, or ends the round.
    fn next_add(&mut self, from: usize, events: &mut Vec<Event>) {
        let (throwers, n) = self.throwers();
        for (i, &t) in throwers.iter().enumerate().take(n).skip(from) {
            if !self.throwable(t).is_empty() {
                self.round.add_index = i;
                self.pending = Pending::Add(t);
                return;
            }
        }
        self.end_round(events);
    }

    /// Ends the round: the table goes to the taker or leaves the game, players draw (the
    /// first attacker first, then counter-clockwise), then the next round starts (Rules, 4-7).
    fn end_round(&mut self, events: &mut Vec<Event>) {
        let r = self.round;
        if r.taking {
            self.hands[r.defender] = self.hands[r.defender].union(r.table);
        }
        let first = Seat::new(r.first_attacker);
        let order = [first, first.prev(), first.partner(), first.next()].map(Seat::index);
        for &p in &order {
            if self.out[p] {
                continue;
            }
            while self.hands[p].len() < HAND_SIZE {
                let Some(card) = self.talon.pop() else { break };
                self.hands[p].insert(card);
                events.push(Event::Give { player: p, card });
            }
        }
        for &p in &order {
            if self.check_out(p, events) {
                return;
            }
        }
        self.mover_seat = if r.taking {
            r.defender_seat.next()
        } else {
            r.defender_seat
        };
        if self.rounds >= MAX_ROUNDS {
            self.pending = Pending::Over(None);
            return;
        }
        self.rounds += 1;
        self.round = Round::default();
        self.pending = Pending::Move(self.controller(self.mover_seat));
    }
}
