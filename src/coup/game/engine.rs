//! The one Coup engine: the arbiter's rules as a small state machine over
//! typed answers ([`Reply`]), with no strings and no allocation per step.
//!
//! Everything that plays Coup goes through it: [`super::rules::Table`] (the
//! arbiter's true state, which adds the history text, the forfeit checks and
//! the original quirks around it), [`super::rules::legal_answers`] (the legal
//! list of one call, as text), and the bot's search, which plays its
//! determinized games here (`docs/rules/coup.md` §5.2 for the
//! legal answers after each character, §6.2 for when coins and
//! cards move; the authority is the arbiter's `get_legal_actions`,
//! `determine_turn_effects` and the move loop of `play_game`).
//!
//! The state keeps only the current line of the history: every rule of the
//! arbiter looks at the last line alone.

use rand::seq::SliceRandom;
use rand::Rng;

use super::character::{Character, COPIES};
use super::protocol::{
    costs_both_cards, effects, exchange_completes, Action, Block, Reply, ASSASSINATE_COST, LINE_END,
};

/// Invocations per game before it is a draw that both players lose
/// (`docs/rules/coup.md` §6.1: 100 actions each).
pub const MAX_CALLS: usize = 200;
/// Coins at which a Coup becomes the only legal action.
pub const FORCED_COUP: i64 = 10;
/// Longest line the rules can write (`Asq!'` plus its newline is six; an
/// Exchange's line `Eq~_` ends with a seventh call's newline).
const LINE_CAP: usize = 8;
/// Cards in the game: three of each of the five characters.
pub const DECK_SIZE: usize = 5 * COPIES;

/// A small set of cards (a hand, at most four during an Exchange, or the deck).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cards {
    items: [Character; DECK_SIZE],
    len: u8,
}

impl Default for Cards {
    fn default() -> Self {
        Cards {
            items: [Character::Ambassador; DECK_SIZE],
            len: 0,
        }
    }
}

impl Cards {
    /// The cards of a slice (at most [`DECK_SIZE`]; more are dropped).
    pub fn from_slice(cards: &[Character]) -> Cards {
        let mut c = Cards::default();
        for &x in cards.iter().take(DECK_SIZE) {
            c.push(x);
        }
        c
    }
    /// The cards, in order (a deck is drawn from the end).
    pub fn as_slice(&self) -> &[Character] {
        &self.items[..self.len as usize]
    }
    /// The cards, mutable (to shuffle a deck).
    pub fn as_mut_slice(&mut self) -> &mut [Character] {
        &mut self.items[..self.len as usize]
    }
    /// Number of cards.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether `c` is among them.
    pub fn contains(&self, c: Character) -> bool {
        self.as_slice().contains(&c)
    }
    /// Adds a card at the end (ignored past [`DECK_SIZE`]).
    pub fn push(&mut self, c: Character) {
        if (self.len as usize) < DECK_SIZE {
            self.items[self.len as usize] = c;
            self.len += 1;
        }
    }
    /// Takes the last card.
    pub fn pop(&mut self) -> Option<Character> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }
    /// Removes the first copy of `c`; `false` when there is none.
    pub fn remove(&mut self, c: Character) -> bool {
        match self.as_slice().iter().position(|&x| x == c) {
            Some(i) => {
                let n = self.len as usize;
                self.items.copy_within(i + 1..n, i);
                self.len -= 1;
                true
            }
            None => false,
        }
    }
}

/// The legal answers of one call, in the arbiter's order (at most seven).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answers {
    items: [Reply; 8],
    len: u8,
}

impl Answers {
    fn new() -> Answers {
        Answers {
            items: [Reply::EndTurn; 8],
            len: 0,
        }
    }
    fn push(&mut self, r: Reply) {
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = r;
            self.len += 1;
        }
    }
    /// The answers.
    pub fn as_slice(&self) -> &[Reply] {
        &self.items[..self.len as usize]
    }
    /// Whether `r` is one of them.
    pub fn contains(&self, r: Reply) -> bool {
        self.as_slice().contains(&r)
    }
}

/// Legal answers after a line of the history, exactly as the arbiter's
/// `get_legal_actions` computes them (`docs/rules/coup.md` §5.2).
///
/// `line` is the last line as characters (with its `'\n'` when complete;
/// empty at the start of the game), `cards` the answering player's hand.
/// `None` when the last character is not one the arbiter accepts.
pub fn legal(line: &[char], cards: &[Character], my_coins: i64, opp_coins: i64) -> Option<Answers> {
    let mut v = Answers::new();
    let give_up = |v: &mut Answers, end: bool| {
        for &k in cards {
            v.push(if end {
                Reply::GiveUpEnd(k)
            } else {
                Reply::GiveUp(k)
            });
        }
    };
    // The event `back` places before the last (the last itself at 1).
    let event = |back: usize| {
        line.len()
            .checked_sub(back)
            .and_then(|i| Reply::from_code(line[i]))
    };
    if at_turn_start(line) {
        if my_coins >= FORCED_COUP {
            v.push(Reply::Act(Action::Coup));
            return Some(v);
        }
        for a in [
            Action::Income,
            Action::ForeignAid,
            Action::Exchange,
            Action::Tax,
        ] {
            v.push(Reply::Act(a));
        }
        if my_coins >= ASSASSINATE_COST {
            v.push(Reply::Act(Action::Assassinate));
        }
        if my_coins >= Action::Coup.cost() {
            v.push(Reply::Act(Action::Coup));
        }
        if opp_coins > 0 {
            v.push(Reply::Act(Action::Steal));
        }
        return Some(v);
    }
    match event(1)? {
        Reply::Act(Action::ForeignAid) => {
            v.push(Reply::Block(Block::Duke));
            v.push(Reply::Pass);
        }
        Reply::Act(Action::Coup) => give_up(&mut v, false),
        Reply::Reveal(_) => {
            // A proof: the challenger gives up a card, and ends the turn
            // when it challenged a block (its own turn).
            give_up(&mut v, matches!(event(3), Some(Reply::Block(_))));
        }
        Reply::Act(Action::Exchange | Action::Tax) => {
            v.push(Reply::Pass);
            v.push(Reply::Challenge);
        }
        Reply::Act(Action::Assassinate) => {
            v.push(Reply::Block(Block::Contessa));
            v.push(Reply::Challenge);
            give_up(&mut v, false);
        }
        Reply::Act(Action::Steal) => {
            v.push(Reply::Block(Block::Ambassador));
            v.push(Reply::Block(Block::Captain));
            v.push(Reply::Pass);
            v.push(Reply::Challenge);
        }
        Reply::Block(_) => {
            v.push(Reply::Challenge);
            v.push(Reply::EndTurn);
        }
        Reply::Pass | Reply::GiveUp(_) => v.push(Reply::EndTurn),
        Reply::Challenge => {
            let challenged = event(2)?;
            let needed = challenged.claim()?;
            if cards.contains(&needed) {
                v.push(Reply::Reveal(needed));
            } else {
                give_up(&mut v, !matches!(challenged, Reply::Block(_)));
            }
        }
        Reply::Act(Action::Income) | Reply::GiveUpEnd(_) | Reply::EndTurn => return None,
    }
    Some(v)
}

/// Whether `line` (the last line, as [`legal`] takes it) leaves the next
/// call a turn's first: the game's start, or a line ended by its `'\n'`.
pub fn at_turn_start(line: &[char]) -> bool {
    line.last().is_none_or(|&c| c == LINE_END)
}

/// Whether the call after `line` completes a successful Exchange (the
/// arbiter's `exchange_cards` condition, [`exchange_completes`], on the
/// unfinished line): the arbiter draws two cards and passes n+2.
pub fn is_exchange_line(line: &[char]) -> bool {
    let event = |c: Option<&char>| c.and_then(|&c| Reply::from_code(c));
    exchange_completes(event(line.first()), line.len(), event(line.last()))
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// This seat removed the other's last card.
    Win(usize),
    /// 200 calls, or the deck ran dry: both lose.
    Draw,
}

impl End {
    /// The game's reward for seat `me`: 1 for its win, 0 otherwise (a draw
    /// loses both players).
    pub fn reward(self, me: usize) -> f64 {
        f64::from(u8::from(self == End::Win(me)))
    }
}

/// The arbiter's true state of a game, less the history text: coins, hands,
/// deck, the current line and the call count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Coins of each seat (seat 0 moved first).
    pub coins: [i64; 2],
    /// Cards each seat holds face down.
    pub hands: [Cards; 2],
    /// The deck; cards are drawn from the end.
    pub deck: Cards,
    line: [char; LINE_CAP],
    line_len: u8,
    /// Calls made so far.
    pub calls: usize,
    /// The two cards drawn for the Exchange being completed, if any.
    pub drawn: Option<[Character; 2]>,
}

impl State {
    /// A game from a deck (drawn from the end: seat 0 gets two, then seat 1)
    /// and starting coins (`docs/rules/coup.md`: one coin each).
    pub fn deal(mut deck: Cards, coins: [i64; 2]) -> State {
        let mut hands = [Cards::default(); 2];
        for h in hands.iter_mut() {
            for _ in 0..2 {
                if let Some(c) = deck.pop() {
                    h.push(c);
                }
            }
        }
        State::from_parts(coins, hands, deck, &[], 0)
    }

    /// A state in the middle of a game: `line` is the history's last line
    /// (with its `'\n'` when complete; at most eight characters are kept).
    pub fn from_parts(
        coins: [i64; 2],
        hands: [Cards; 2],
        deck: Cards,
        line: &[char],
        calls: usize,
    ) -> State {
        let mut s = State {
            coins,
            hands,
            deck,
            line: [LINE_END; LINE_CAP],
            line_len: 0,
            calls,
            drawn: None,
        };
        for &c in line.iter().rev().take(LINE_CAP).rev() {
            s.push_line(c);
        }
        s
    }

    /// The last line (with its `'\n'` when complete; empty at the start).
    pub fn line(&self) -> &[char] {
        &self.line[..self.line_len as usize]
    }

    /// Replaces the current line (the arbiter's lax quirk check can accept
    /// a file whose last line is not the engine's).
    pub fn set_line(&mut self, line: &[char]) {
        self.line_len = 0;
        for &c in line.iter().rev().take(LINE_CAP).rev() {
            self.push_line(c);
        }
    }

    fn push_line(&mut self, c: char) {
        if self.line_len as usize == LINE_CAP {
            self.line.copy_within(1.., 0);
            self.line_len -= 1;
        }
        self.line[self.line_len as usize] = c;
        self.line_len += 1;
    }

    /// Seat to be called next (players alternate calls).
    pub fn to_call(&self) -> usize {
        self.calls % 2
    }

    /// Whether the game is over by the call limit.
    pub fn out_of_calls(&self) -> bool {
        self.calls >= MAX_CALLS
    }

    /// Legal answers of the seat to call ([`legal`]).
    pub fn legal(&self) -> Option<Answers> {
        let s = self.to_call();
        legal(
            self.line(),
            self.hands[s].as_slice(),
            self.coins[s],
            self.coins[1 - s],
        )
    }

    /// Whether the next call completes an Exchange ([`is_exchange_line`]).
    pub fn exchange_due(&self) -> bool {
        is_exchange_line(self.line())
    }

    /// Draws the two Exchange cards for the next call (the arbiter pops them
    /// before the call); `false` when the deck cannot give two (a draw).
    pub fn draw_exchange(&mut self) -> bool {
        match (self.deck.pop(), self.deck.pop()) {
            (Some(a), Some(b)) => {
                self.drawn = Some([a, b]);
                true
            }
            _ => false,
        }
    }

    /// The cards the seat to call chooses its hand from at an Exchange:
    /// the two drawn ([`State::draw_exchange`]) and its hand.
    pub fn exchange_pool(&self) -> Cards {
        let mut pool = Cards::default();
        for &c in self.drawn.iter().flatten() {
            pool.push(c);
        }
        for &c in self.hands[self.to_call()].as_slice() {
            pool.push(c);
        }
        pool
    }

    /// Applies `answer` (one of [`State::legal`]) of the seat to call, as the
    /// arbiter's move loop does. `keep` is the hand kept on an Exchange call
    /// (taken from the drawn cards and the hand; ignored otherwise, and the
    /// hand is kept when it is `None` or not a legal choice). Cards that
    /// return to the deck reshuffle it with `rng`. Returns the end of the
    /// game, if this answer ends it.
    pub fn apply<R: Rng + ?Sized>(
        &mut self,
        answer: Reply,
        keep: Option<&[Character]>,
        rng: &mut R,
    ) -> Option<End> {
        if self.line().last() == Some(&LINE_END) {
            self.line_len = 0;
        }
        let (code, end) = answer.codes();
        self.push_line(code);
        if let Some(end) = end {
            self.push_line(end);
        }
        self.calls += 1;
        let me = (self.calls - 1) % 2;
        let opp = 1 - me;
        let line = self.line;
        let n = self.line_len as usize;
        // The answer was just written: the line holds at least it.
        let first = Action::from_code(line[0]);
        match answer {
            Reply::Act(Action::Income) => {
                self.coins[me] += effects(Action::Income, self.coins[opp]).0;
            }
            Reply::GiveUpEnd(c) => {
                self.hands[me].remove(c);
                // A Contessa proved against my challenge of the block: my
                // Assassination's 3 coins are paid now.
                if n >= 3
                    && Reply::from_code(line[n - 3]) == Some(Reply::Reveal(Character::Contessa))
                {
                    self.coins[me] -= ASSASSINATE_COST;
                }
            }
            Reply::GiveUp(c) => {
                self.hands[me].remove(c);
                if let Some(a @ (Action::Coup | Action::Assassinate)) = first {
                    self.coins[opp] -= a.cost();
                }
                // Challenging an Assassination (or its Contessa block) and
                // losing costs the second card too.
                if costs_both_cards(&line[..n]) {
                    return Some(End::Win(opp));
                }
            }
            // A proved card is shuffled back and replaced (an Ambassador
            // shown against a challenged Exchange is kept for the Exchange).
            Reply::Reveal(c)
                if (c != Character::Ambassador || first == Some(Action::Steal))
                    && self.hands[me].remove(c) =>
            {
                match self.deck.pop() {
                    Some(x) => self.hands[me].push(x),
                    None => return Some(End::Draw),
                }
                self.deck.push(c);
                self.deck.as_mut_slice().shuffle(rng);
            }
            Reply::EndTurn => self.turn_effects(me, keep, rng),
            _ => {}
        }
        self.drawn = None;
        if self.hands[me].is_empty() {
            return Some(End::Win(opp));
        }
        None
    }

    /// The arbiter's `determine_turn_effects` for the turn `me` just ended.
    fn turn_effects<R: Rng + ?Sized>(
        &mut self,
        me: usize,
        keep: Option<&[Character]>,
        rng: &mut R,
    ) {
        let opp = 1 - me;
        let n = self.line_len as usize;
        if n < 2 {
            return;
        }
        let last = Reply::from_code(self.line[n - 2]);
        if matches!(last, Some(Reply::Pass | Reply::GiveUp(_))) {
            match Action::from_code(self.line[0]) {
                Some(a @ (Action::ForeignAid | Action::Tax | Action::Steal)) => {
                    let (gain, loss) = effects(a, self.coins[opp]);
                    self.coins[me] += gain;
                    self.coins[opp] -= loss;
                }
                Some(Action::Exchange) => {
                    let Some(drawn) = self.drawn else { return };
                    let mut pool = Cards::from_slice(&drawn);
                    for &c in self.hands[me].as_slice() {
                        pool.push(c);
                    }
                    let size = self.hands[me].len();
                    let kept = keep
                        .and_then(|k| choose_from(pool, k, size))
                        .unwrap_or(self.hands[me]);
                    for &c in kept.as_slice() {
                        pool.remove(c);
                    }
                    self.hands[me] = kept;
                    for &c in pool.as_slice() {
                        self.deck.push(c);
                    }
                    self.deck.as_mut_slice().shuffle(rng);
                }
                _ => {}
            }
        } else if last == Some(Reply::Block(Block::Contessa)) {
            self.coins[me] -= ASSASSINATE_COST;
        }
    }
}

/// `kept` as a hand of `size` cards taken from `pool` without reuse (the
/// arbiter's permutation test of an Exchange), or `None`.
pub fn choose_from(mut pool: Cards, kept: &[Character], size: usize) -> Option<Cards> {
    if kept.len() != size {
        return None;
    }
    for &c in kept {
        if !pool.remove(c) {
            return None;
        }
    }
    Some(Cards::from_slice(kept))
}
