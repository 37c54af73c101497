//! The history file read from one player's side: turns, whose they are, and
//! the public record of each player (claims, proofs, caught bluffs, lost
//! cards, challenges) (`docs/rules/coup.md` §5).

use super::character::Character;
use super::protocol::{
    effects, events_cost_both_cards, exchange_completes, line_events, Action, Block, Reply,
    LINE_END,
};
use super::CoupError;

/// Who did something, from the reading player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The player reading the history (the one being called).
    Me,
    /// The other player.
    Opponent,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Me => Side::Opponent,
            Side::Opponent => Side::Me,
        }
    }
}

/// One line of the history: a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The line's events in order, its `'\n'` left out ([`line_events`]):
    /// the action, then the answers. The turn player made the events at
    /// even places, the other player those at odd places (§5.1).
    pub events: Vec<Reply>,
    /// Whether the line ended with `'\n'`.
    pub complete: bool,
    /// Whose turn it is.
    pub actor: Side,
}

/// What the history shows about one player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// Cards given up (face up, out of the game for good).
    pub lost: Vec<Character>,
    /// Claims (actions and blocks) still standing as evidence of the current
    /// hand: cleared by an Exchange, one removed when a claim is proved (that
    /// card went back to the deck) or that character is given up.
    pub active_claims: Vec<Character>,
    /// Characters the player surely does not hold now: caught bluffing them
    /// (the arbiter forces a reveal when the card is held). Cleared on a redraw.
    pub surely_not: Vec<Character>,
    /// Chances to block passed up since the hand last changed (a Duke for
    /// Foreign Aid, Ambassador/Captain for Steal, Contessa for Assassinate).
    pub declined: Vec<Character>,
    /// Characters whose action this player passed over at a turn since
    /// its hand last changed: a Duke for each turn it took Income or Foreign
    /// Aid instead of Tax (cleared with [`Record::declined`]).
    pub passed_over: Vec<Character>,
    /// All claims made in the game, by character.
    pub claims: [u32; 5],
    /// Claims proved under challenge.
    pub proved: u32,
    /// Claims caught as bluffs.
    pub caught: u32,
    /// Challenges this player made that succeeded.
    pub challenges_won: u32,
    /// Challenges this player made that failed.
    pub challenges_lost: u32,
    /// Challenges this player made, by the character challenged.
    pub challenges: u32,
    /// Exchanges completed.
    pub exchanges: u32,
    /// How many cards the current hand was chosen from: the hand size plus
    /// the two drawn at the player's last completed Exchange, kept when it
    /// later gives up a card (the hand posterior then takes the remaining
    /// card for the best of them: Seer gives up either card about as often,
    /// a measured alternative in `docs/experiments/coup.md`); 0 when
    /// the hand holds a card drawn blind since (the starting deal, or the
    /// replacement of a card proved under challenge).
    pub chosen_from: usize,
    /// Turns taken.
    pub turns: u32,
    /// Actions taken, by upper-case letter `IFCEAST`.
    pub actions: [u32; 7],
}

impl Record {
    /// Cards still held: 2 minus those given up (never below 0).
    pub fn cards_left(&self) -> usize {
        2usize.saturating_sub(self.lost.len())
    }

    fn refresh(&mut self) {
        self.active_claims.clear();
        self.surely_not.clear();
        self.declined.clear();
        self.passed_over.clear();
    }

    fn drop_claim(&mut self, ch: Character) {
        if let Some(i) = self.active_claims.iter().position(|&c| c == ch) {
            self.active_claims.remove(i);
        }
    }
}

/// Byte length of the events of a turn line: the line cut after the event
/// that ends the turn (`docs/rules/coup.md` §5.2: a given-up card ends
/// a turn, except the challenger's card after a proved claim of a turn's action,
/// and a pass or an unchallenged block needs only the closing newline). Anything a bot wrote after
/// that and before the newline is not part of the game; the arbiter only
/// checks that the line ends with a legal answer.
pub fn event_len(line: &str) -> usize {
    let c: Vec<char> = line.chars().collect();
    let event = |i: usize| c.get(i).and_then(|&x| Reply::from_code(x));
    let proof_at = |i: usize| matches!(event(i), Some(Reply::Reveal(_)));
    let n = if c.is_empty() {
        0
    } else {
        match event(0) {
            Some(Reply::Act(Action::Income)) => 1,
            Some(Reply::Act(Action::Coup)) => 2,
            _ => match event(1) {
                // Pass, or an Assassination's victim giving up a card.
                Some(Reply::Pass | Reply::GiveUp(_)) => 2,
                Some(Reply::Challenge) => 3 + usize::from(proof_at(2)),
                // A block, then a challenge of it.
                Some(Reply::Block(_)) => match event(2) {
                    Some(Reply::Challenge) => 4 + usize::from(proof_at(3)),
                    _ => 2,
                },
                _ => c.len(),
            },
        }
    };
    let n = n.min(c.len());
    c[..n].iter().map(|x| x.len_utf8()).sum()
}

/// How many calls (invocations) of the two bots wrote `text`, the history
/// so far: the arbiter alternates the players, one answer per call, and
/// ends a game with no winner after [`crate::coup::game::rules::MAX_CALLS`] calls
/// (`docs/rules/coup.md` §6.1).
///
/// Every event character of a line is one call and so is the newline that
/// ends it, except where the newline belongs to the same answer as the
/// character before it (`docs/rules/coup.md` §5.2): Income (`I\n`),
/// and the card a turn player gives up on its own turn after a caught
/// action bluff (`Tq'\n`) or after losing a challenge of a block
/// (`Asq!'\n`). A stray character written before a newline (read past by
/// [`event_len`]) belongs to the newline's call.
pub fn calls_made(text: &str) -> usize {
    let mut raw: Vec<&str> = text.split(LINE_END).collect();
    let last = raw.pop().unwrap_or("");
    let mut calls = last.chars().count();
    for line in raw {
        let events: Vec<Option<Reply>> = line[..event_len(line)]
            .chars()
            .map(Reply::from_code)
            .collect();
        let glued = matches!(
            events.as_slice(),
            [Some(Reply::Act(Action::Income))]
                | [_, Some(Reply::Challenge), Some(Reply::GiveUp(_))]
                | [
                    _,
                    _,
                    Some(Reply::Challenge),
                    Some(Reply::Reveal(_)),
                    Some(Reply::GiveUp(_))
                ]
        );
        calls += events.len() + 1 - usize::from(glued);
    }
    calls
}

/// The actions in the order of [`Record::actions`].
pub const ACTION_ORDER: [Action; 7] = [
    Action::Income,
    Action::ForeignAid,
    Action::Coup,
    Action::Exchange,
    Action::Assassinate,
    Action::Steal,
    Action::Tax,
];

/// Index of an action in [`Record::actions`] ([`ACTION_ORDER`]).
pub fn action_index(a: Action) -> usize {
    ACTION_ORDER.iter().position(|&x| x == a).unwrap_or(0)
}

impl Turn {
    /// The event at place `i` of the line, if made yet.
    pub fn event(&self, i: usize) -> Option<Reply> {
        self.events.get(i).copied()
    }

    /// Who made the event at place `pos`: the turn player at even places,
    /// the other player at odd ones (§5.1).
    pub fn by(&self, pos: usize) -> Side {
        if pos.is_multiple_of(2) {
            self.actor
        } else {
            self.actor.other()
        }
    }

    /// The action that opened the turn, if any.
    pub fn action(&self) -> Option<Action> {
        match self.event(0) {
            Some(Reply::Act(a)) => Some(a),
            _ => None,
        }
    }

    /// Whether the turn is a completed Exchange (unchallenged, or its
    /// Ambassador proved): the player's hand was redrawn
    /// ([`exchange_completes`], the arbiter's condition for the swap, §5.2).
    pub fn exchanged(&self) -> bool {
        exchange_completes(
            self.event(0),
            self.events.len(),
            self.events.last().copied(),
        )
    }
}

/// A parsed history from the reading player's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// The turns, in order; the last may be unfinished.
    pub turns: Vec<Turn>,
    /// My public record.
    pub me: Record,
    /// The opponent's public record.
    pub opp: Record,
    /// Whether I moved first in this game.
    pub i_went_first: bool,
}

impl History {
    /// Parses the full text of a history file from the side of the player
    /// who is to answer next (the parity rules of `docs/rules/coup.md`
    /// §5.1: a new turn after `'\n'` or an empty file; within a line the
    /// turn player writes at even positions).
    ///
    /// # Errors
    /// [`CoupError::BadHistory`] on a character the protocol never writes.
    pub fn parse(text: &str) -> Result<History, CoupError> {
        Self::parse_with(text, None)
    }

    /// Parses a history, finished or not, from the side of its first
    /// player (`first`) or of its second, whoever is to answer next.
    ///
    /// # Errors
    /// As [`History::parse`].
    pub fn parse_as(text: &str, first: bool) -> Result<History, CoupError> {
        Self::parse_with(text, Some(first))
    }

    /// [`History::parse`] from the first player's side (`Some(true)`), the
    /// second's (`Some(false)`), or the side to answer next (`None`).
    fn parse_with(text: &str, reader_first: Option<bool>) -> Result<History, CoupError> {
        let mut raw: Vec<&str> = text.split(LINE_END).collect();
        // `split` leaves a final "" after a trailing newline or on an empty text.
        let last = raw.pop().unwrap_or("");
        let n_complete = raw.len();
        // Index of the line I am the turn player of, modulo 2.
        let my_parity = match reader_first {
            Some(first) => usize::from(!first),
            None if last.is_empty() || last.chars().count().is_multiple_of(2) => n_complete % 2,
            None => (n_complete + 1) % 2,
        };
        let mut h = History {
            turns: Vec::new(),
            me: Record::default(),
            opp: Record::default(),
            i_went_first: my_parity == 0,
        };
        // A complete line is read up to the end of its events: a bot may write
        // a stray card before the newline that ends its turn (Calculator's
        // `Scq'=`), which the arbiter accepts and which is no lost card.
        let mut lines: Vec<(&str, bool)> = raw
            .into_iter()
            .map(|l| (&l[..event_len(l)], true))
            .collect();
        if !last.is_empty() {
            lines.push((last, false));
        }
        for (i, (line, complete)) in lines.into_iter().enumerate() {
            let actor = if i % 2 == my_parity {
                Side::Me
            } else {
                Side::Opponent
            };
            let events = line_events(line)
                .map_err(|c| CoupError::BadHistory(format!("unexpected {c:?} in line {line:?}")))?;
            let turn = Turn {
                events,
                complete,
                actor,
            };
            h.read_turn(&turn);
            h.turns.push(turn);
        }
        Ok(h)
    }

    /// The side that has lost a finished game: the one whose cards are
    /// all given up, or the one that answered a last line costing both
    /// cards at once ([`events_cost_both_cards`], `docs/rules/coup.md` §2.2 rule
    /// 4, where the arbiter ends the game with one card written); `None`
    /// while both hold a card.
    pub fn loser(&self) -> Option<Side> {
        if let Some(t) = self.turns.last() {
            if events_cost_both_cards(&t.events) {
                return Some(t.actor.other());
            }
        }
        [Side::Me, Side::Opponent]
            .into_iter()
            .find(|&s| self.record(s).cards_left() == 0)
    }

    /// The record of one side.
    pub fn record(&self, side: Side) -> &Record {
        match side {
            Side::Me => &self.me,
            Side::Opponent => &self.opp,
        }
    }

    /// Coins and cards of (me, opponent) before each turn, replayed from the
    /// start (1 coin and 2 cards each) with the arbiter's effects; entry `i`
    /// is the state before turn `i`, and one more entry follows the last
    /// complete turn. (Only exact for a game that started fresh.)
    pub fn replay(&self) -> Vec<([i64; 2], [usize; 2])> {
        let mut coins = [1i64, 1];
        let mut cards = [2usize, 2];
        let mut out = vec![(coins, cards)];
        for t in &self.turns {
            let seat = |side: Side| if side == Side::Me { 0 } else { 1 };
            let (a, o) = (seat(t.actor), seat(t.actor.other()));
            let e = &t.events;
            for (pos, &ev) in e.iter().enumerate() {
                let who = seat(t.by(pos));
                if ev.given_up().is_some() {
                    cards[who] = cards[who].saturating_sub(1);
                    if who == o {
                        if let Some(act @ (Action::Coup | Action::Assassinate)) = t.action() {
                            coins[a] -= act.cost();
                        }
                    } else if pos >= 1 && e[pos - 1] == Reply::Reveal(Character::Contessa) {
                        // Its challenge of a Contessa block failed: the
                        // Assassination's coins stay spent.
                        coins[a] -= Action::Assassinate.cost();
                    }
                }
            }
            if t.complete {
                // The action takes effect when the turn player's closing
                // newline is an answer of its own (§5.2): after a pass, or
                // after the other player's card (at an odd place) given up
                // to a failed challenge or a caught block; never after the
                // turn player's own card, caught bluffing or challenging.
                match e.last() {
                    Some(Reply::Pass | Reply::GiveUp(_)) if e.len().is_multiple_of(2) => {
                        if let Some(act @ (Action::ForeignAid | Action::Tax | Action::Steal)) =
                            t.action()
                        {
                            let (gain, loss) = effects(act, coins[o]);
                            coins[a] += gain;
                            coins[o] -= loss;
                        }
                    }
                    Some(Reply::Block(Block::Contessa)) => {
                        coins[a] -= Action::Assassinate.cost();
                    }
                    _ => {}
                }
                if t.action() == Some(Action::Income) {
                    coins[a] += effects(Action::Income, coins[o]).0;
                }
                out.push((coins, cards));
            }
        }
        out
    }

    fn record_mut(&mut self, side: Side) -> &mut Record {
        match side {
            Side::Me => &mut self.me,
            Side::Opponent => &mut self.opp,
        }
    }

    fn read_turn(&mut self, t: &Turn) {
        let e = &t.events;
        for (pos, &ev) in e.iter().enumerate() {
            let who = t.by(pos);
            match (pos, ev) {
                (0, Reply::Act(a)) => {
                    let r = self.record_mut(who);
                    r.turns += 1;
                    r.actions[action_index(a)] += 1;
                    if matches!(a, Action::Income | Action::ForeignAid) {
                        r.passed_over.push(Character::Duke);
                    }
                    if let Some(ch) = a.claim() {
                        r.claims[ch.index()] += 1;
                        r.active_claims.push(ch);
                    }
                }
                (1, Reply::Block(b)) => {
                    let ch = b.character();
                    let r = self.record_mut(who);
                    r.claims[ch.index()] += 1;
                    r.active_claims.push(ch);
                }
                (1, Reply::Pass) => {
                    let declined = match t.action() {
                        Some(a @ (Action::ForeignAid | Action::Steal)) => a.blocked_by(),
                        _ => &[],
                    };
                    self.record_mut(who).declined.extend_from_slice(declined);
                }
                (_, Reply::Challenge) => {
                    self.record_mut(who).challenges += 1;
                }
                (_, Reply::Reveal(ch)) => {
                    let exchange_kept =
                        ch == Character::Ambassador && t.action() == Some(Action::Exchange);
                    let r = self.record_mut(who);
                    r.proved += 1;
                    if !exchange_kept {
                        // Shuffled back and replaced by an unknown card.
                        r.drop_claim(ch);
                        r.surely_not.clear();
                        r.chosen_from = 0;
                    }
                    self.record_mut(who.other()).challenges_lost += 1;
                }
                (_, Reply::GiveUp(ch)) => {
                    if pos >= 1 && e[pos - 1] == Reply::Challenge {
                        // Caught bluffing: the claim challenged was e[pos - 2].
                        let claimed = pos.checked_sub(2).and_then(|i| e[i].claim());
                        let r = self.record_mut(who);
                        r.caught += 1;
                        if let Some(k) = claimed {
                            r.drop_claim(k);
                            if !r.surely_not.contains(&k) {
                                r.surely_not.push(k);
                            }
                        }
                        self.record_mut(who.other()).challenges_won += 1;
                    }
                    if pos == 1 && t.action() == Some(Action::Assassinate) {
                        self.record_mut(who).declined.push(Character::Contessa);
                    }
                    let r = self.record_mut(who);
                    r.lost.push(ch);
                    r.drop_claim(ch);
                    r.surely_not.retain(|&k| k != ch || r.lost.len() < 2);
                }
                _ => {}
            }
        }
        // A completed, unchallenged or upheld Exchange redraws the hand.
        if t.exchanged() {
            let r = self.record_mut(t.actor);
            r.refresh();
            r.exchanges += 1;
            r.chosen_from = r.cards_left() + 2;
            // The Ambassador may well have been kept; no claim survives as evidence.
        }
    }
}
